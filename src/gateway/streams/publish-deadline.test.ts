// PublishDeadline: a publish still unsettled when its batch's deadline passes is rejected with the timeout, one
// settled in time never is, each batch has its own deadline (a later batch is not cut short by an earlier one's),
// and settled batches are dropped from the front as new ones are sent.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PublishDeadline } from './publish-deadline.ts';

class Publish {
  isSettled = false;
  error: Error | undefined;
  settle(): void {
    this.isSettled = true;
  }
  reject(error: Error): void {
    this.isSettled = true;
    this.error = error;
  }
}

describe('PublishDeadline', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('rejects what is unsettled at the deadline, and nothing settled in time', () => {
    const deadline = new PublishDeadline<Publish>(5_000, 'redis XADD');
    const [answered, waiting] = [new Publish(), new Publish()];
    deadline.watch([answered, waiting]);
    answered.settle();
    vi.advanceTimersByTime(4_999);
    expect(waiting.error).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(waiting.error?.message).toBe('redis XADD timed out after 5000 ms');
    expect(answered.error).toBeUndefined();
    expect(deadline.watched).toBe(0);
  });

  it('gives a later batch its own deadline', () => {
    const deadline = new PublishDeadline<Publish>(5_000, 'redis XADD');
    const first = new Publish();
    deadline.watch([first]);
    vi.advanceTimersByTime(3_000);
    const second = new Publish();
    deadline.watch([second]);
    vi.advanceTimersByTime(2_000);
    expect(first.error).toBeDefined();
    expect(second.error).toBeUndefined();
    vi.advanceTimersByTime(3_000);
    expect(second.error?.message).toContain('timed out');
  });

  it('drops settled batches from the front when the next one is sent', () => {
    const deadline = new PublishDeadline<Publish>(5_000, 'redis XADD');
    const batches = [[new Publish(), new Publish()], [new Publish()]];
    for (const batch of batches) deadline.watch(batch);
    for (const publish of batches[0]!) publish.settle();
    deadline.watch([new Publish()]);
    expect(deadline.watched).toBe(2);
  });

  it('rejects nothing once stopped', () => {
    const deadline = new PublishDeadline<Publish>(5_000, 'redis XADD');
    const waiting = new Publish();
    deadline.watch([waiting]);
    deadline.stop();
    vi.advanceTimersByTime(10_000);
    expect(waiting.error).toBeUndefined();
  });
});
