import { describe, expect, it } from 'vitest';
import { SubscriberSet, type CloseReason, type Subscriber } from './subscribers.ts';

/**
 * A subscriber whose connection takes nothing: every byte sent stays queued. Sends are held until flush (as a
 * corked connection holds a tick's writes); with `takesFlushed`, its connection takes what a flush writes.
 */
class StalledSubscriber implements Subscriber {
  queued = 0;
  held = 0;
  takesFlushed = false;
  flushes = 0;
  received: string[] = [];
  closedWith: CloseReason | undefined;
  #onClosed: (() => void)[] = [];
  queuedBytes(): number {
    return this.queued + this.held;
  }
  send(message: Buffer): void {
    this.held += message.length;
    this.received.push(message.toString());
  }
  flush(): void {
    this.flushes++;
    if (!this.takesFlushed) this.queued += this.held;
    this.held = 0;
  }
  close(reason: CloseReason): void {
    this.closedWith = reason;
    for (const listener of this.#onClosed) listener();
  }
  onClosed(listener: () => void): void {
    this.#onClosed.push(listener);
  }
}

describe('SubscriberSet', () => {
  it('sends every message to every subscriber, in order', () => {
    const set = new SubscriberSet(1000, 10, () => undefined);
    const [a, b] = [new StalledSubscriber(), new StalledSubscriber()];
    set.add(a);
    set.add(b);
    for (const m of ['1', '2', '3']) set.broadcast(Buffer.from(m));
    expect(a.received).toEqual(['1', '2', '3']);
    expect(b.received).toEqual(['1', '2', '3']);
  });

  it('disconnects a subscriber whose queue would pass the limit, counts it, and keeps serving the others', () => {
    let slow = 0;
    const set = new SubscriberSet(10, 10, () => slow++);
    const stalled = new StalledSubscriber();
    const reading = new StalledSubscriber();
    set.add(stalled);
    set.add(reading);
    set.broadcast(Buffer.from('12345678'));
    reading.flush();
    reading.queued = 0; // this one's connection took what it was sent
    set.broadcast(Buffer.from('abcd'));
    expect(stalled.closedWith).toBe('slow_subscriber');
    expect(stalled.received).toEqual(['12345678']);
    expect(reading.received).toEqual(['12345678', 'abcd']);
    expect(slow).toBe(1);
    expect(set.size).toBe(1);
  });

  it("flushes a subscriber over the limit only with this tick's held writes, and keeps it when its connection takes them", () => {
    let slow = 0;
    const set = new SubscriberSet(10, 10, () => slow++);
    const fast = new StalledSubscriber();
    fast.takesFlushed = true;
    const stalled = new StalledSubscriber();
    set.add(fast);
    set.add(stalled);
    for (const m of ['1234', '5678', 'abcd']) set.broadcast(Buffer.from(m)); // 12 bytes in one tick: past 10
    expect(fast.received).toEqual(['1234', '5678', 'abcd']);
    expect(fast.flushes).toBe(1);
    expect(stalled.closedWith).toBe('slow_subscriber'); // flushed too, and its connection kept them all
    expect(stalled.received).toEqual(['1234', '5678']);
    expect(slow).toBe(1);
    expect(set.size).toBe(1);
  });

  it('is full at max_subscribers and has room again when one leaves', () => {
    const set = new SubscriberSet(10, 1, () => undefined);
    const only = new StalledSubscriber();
    set.add(only);
    expect(set.full).toBe(true);
    only.close('stream_removed');
    expect(set.full).toBe(false);
  });
});
