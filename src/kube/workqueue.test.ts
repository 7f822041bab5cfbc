import { describe, expect, it } from 'vitest';
import { ExponentialFailureRateLimiter, MaxOfRateLimiter, BucketRateLimiter } from './rate-limiter.ts';
import { WorkQueue } from './workqueue.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('WorkQueue', () => {
  it('hands items out in order and collapses repeated adds of a waiting item into one', async () => {
    const queue = new WorkQueue<string>();
    for (const item of ['a', 'b', 'a', 'c', 'b']) queue.add(item);
    expect(queue.length).toBe(3);
    expect([await queue.get(), await queue.get(), await queue.get()]).toEqual(['a', 'b', 'c']);
  });

  it('never hands out an item that is being processed; an add meanwhile queues it once again after done', async () => {
    const queue = new WorkQueue<string>();
    queue.add('a');
    const first = await queue.get();
    queue.add('a');
    queue.add('a');
    expect(queue.length).toBe(0); // dirty, not queued: it is in processing
    let second: string | undefined;
    void queue.get().then((item) => (second = item));
    await tick();
    expect(second).toBeUndefined();
    queue.done(first!);
    await tick();
    expect(second).toBe('a');
    queue.done('a');
    expect(queue.length).toBe(0); // the two adds during processing made one more round, not two
  });

  it('collapses the adds of one synchronous handler into one hand-off, even with a worker waiting', async () => {
    const queue = new WorkQueue<string>();
    const handed: string[] = [];
    void queue.get().then((item) => handed.push(item!));
    queue.add('a'); // an event handler enqueuing the same key twice
    queue.add('a');
    await tick();
    expect(handed).toEqual(['a']);
    queue.done('a');
    expect(queue.length).toBe(0); // nothing left to reconcile again
  });

  it('wakes a waiting worker when an item arrives', async () => {
    const queue = new WorkQueue<string>();
    const got = queue.get();
    queue.add('x');
    expect(await got).toBe('x');
  });

  it('delays items, keeping the earliest time when one is added again', async () => {
    let now = 1000;
    const queue = new WorkQueue<string>(undefined, () => now);
    queue.addAfter('late', 50);
    queue.addAfter('late', 10); // earlier wins
    queue.addAfter('late', 80); // later is ignored
    queue.addAfter('now', 0);
    expect(queue.length).toBe(1);
    expect(await queue.get()).toBe('now');
    expect(queue.delayedLength).toBe(1);
    now += 10;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await queue.get()).toBe('late');
  });

  it('backs off a failing item exponentially from 5 ms to 1000 s, and forgets on success', () => {
    const limiter = new ExponentialFailureRateLimiter<string>(5, 1_000_000);
    expect([1, 2, 3, 4].map(() => limiter.when('k'))).toEqual([5, 10, 20, 40]);
    for (let i = 0; i < 40; i++) limiter.when('k');
    expect(limiter.when('k')).toBe(1_000_000);
    expect(limiter.numRequeues('k')).toBe(45);
    limiter.forget('k');
    expect(limiter.when('k')).toBe(5);
    expect(limiter.when('other')).toBe(5); // per item
  });

  it('combines the per-item backoff with an overall token bucket (the larger wait wins)', () => {
    const now = 0;
    const limiter = new MaxOfRateLimiter<string>(new ExponentialFailureRateLimiter<string>(5, 1_000_000), new BucketRateLimiter<string>(10, 2, () => now));
    expect(limiter.when('a')).toBe(5); // bucket has tokens
    expect(limiter.when('b')).toBe(5);
    expect(limiter.when('c')).toBe(100); // bucket empty: 1 token per 100 ms
    expect(limiter.when('d')).toBe(200);
  });

  it('drains on shutdown: no new work, in-flight items finish, waiting workers get undefined', async () => {
    const queue = new WorkQueue<string>();
    queue.add('busy');
    const item = await queue.get();
    let drained = false;
    const drain = queue.shutDownWithDrain().then(() => (drained = true));
    queue.add('refused');
    expect(await queue.get()).toBeUndefined();
    await tick();
    expect(drained).toBe(false);
    queue.done(item!);
    await drain;
    expect(drained).toBe(true);
  });
});
