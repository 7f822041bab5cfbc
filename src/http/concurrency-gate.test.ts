// The concurrency gate: at most `limit` tasks run, `queue` more wait in order, further ones are refused with 503.
import { describe, expect, it } from 'vitest';
import { ConcurrencyGate } from './concurrency-gate.ts';
import { HttpError } from './errors.ts';

describe('ConcurrencyGate', () => {
  it('runs at most `limit` at once, queues `queue` more in order and refuses the rest with unavailable', async () => {
    const gate = new ConcurrencyGate({ limit: 2, queue: 1, busyMessage: 'busy (setting)' });
    const releases: (() => void)[] = [];
    const started: number[] = [];
    const task = (n: number) => () =>
      new Promise<number>((resolve) => {
        started.push(n);
        releases.push(() => resolve(n));
      });
    const running = [gate.run(task(1)), gate.run(task(2)), gate.run(task(3))];
    expect(started).toEqual([1, 2]);
    const refused = await gate.run(task(4)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).status).toBe(503);
    releases[0]!();
    await running[0];
    await Promise.resolve();
    expect(started).toEqual([1, 2, 3]);
    expect(gate.running).toBe(2);
    releases[1]!();
    releases[2]!();
    expect(await Promise.all(running)).toEqual([1, 2, 3]);
    expect(gate.running).toBe(0);
  });

  it('frees the slot when a task throws', async () => {
    const gate = new ConcurrencyGate({ limit: 1, queue: 0, busyMessage: 'busy' });
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run(() => Promise.resolve('ok'))).toBe('ok');
  });
});
