// The work queue's metrics hooks and scrape-time readings, counted as client-go counts them (workqueue_* series):
// an add only when the item becomes dirty, a retry per delayed add, the wait and the work timed on the queue's clock,
// depth as the dirty items, unfinished work as the time held items have been held.
import { describe, expect, it } from 'vitest';
import { WorkQueue } from './workqueue.ts';

function recorded() {
  const events = { added: 0, retried: 0, waited: [] as number[], worked: [] as number[] };
  const hooks = {
    added: () => void events.added++,
    retried: () => void events.retried++,
    waited: (ms: number) => void events.waited.push(ms),
    worked: (ms: number) => void events.worked.push(ms),
  };
  return { events, hooks };
}

describe('WorkQueue metrics', () => {
  it('counts an add only when the item becomes dirty, and every delayed add as a retry', () => {
    const { events, hooks } = recorded();
    const queue = new WorkQueue<string>(undefined, Date.now, hooks);
    queue.add('a');
    queue.add('a'); // already dirty: collapses
    queue.add('b');
    queue.addAfter('c', 60_000);
    queue.addRateLimited('d');
    expect(events).toMatchObject({ added: 2, retried: 2 });
    queue.shutDown();
  });

  it('times the wait from queued to taken and the work from taken to done on the queue clock', async () => {
    let now = 1_000;
    const { events, hooks } = recorded();
    const queue = new WorkQueue<string>(undefined, () => now, hooks);
    queue.add('a');
    now += 40;
    expect(await queue.get()).toBe('a');
    now += 250;
    expect(queue.unfinishedWork()).toEqual({ totalSeconds: 0.25, longestSeconds: 0.25 });
    queue.done('a');
    expect(events.waited).toEqual([40]);
    expect(events.worked).toEqual([250]);
    expect(queue.unfinishedWork()).toEqual({ totalSeconds: 0, longestSeconds: 0 });
  });

  it('sums the unfinished work of every held item and reports the longest', async () => {
    let now = 0;
    const queue = new WorkQueue<string>(undefined, () => now);
    queue.add('a');
    queue.add('b');
    expect(await queue.get()).toBe('a');
    now += 3_000;
    expect(await queue.get()).toBe('b');
    now += 1_000;
    expect(queue.unfinishedWork()).toEqual({ totalSeconds: 5, longestSeconds: 4 });
  });

  it('counts in depth the items waiting and those added again while a worker holds them, not the held ones', async () => {
    const queue = new WorkQueue<string>();
    queue.add('a');
    queue.add('b');
    expect(queue.depth).toBe(2);
    expect(await queue.get()).toBe('a');
    expect(queue.depth).toBe(1);
    queue.add('a'); // dirty again while held: will run again after done()
    expect(queue.depth).toBe(2);
    queue.done('a');
    expect(queue.depth).toBe(2);
    queue.shutDown();
  });
});
