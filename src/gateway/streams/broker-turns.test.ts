// TurnQueue and SharedTurn (broker.ts): the items added in one event-loop turn reach `send` once, in order; a
// later turn's are a batch of their own; with SharedTurn every item of a turn gets that batch's one outcome.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { SharedTurn, TurnQueue } from './broker.ts';

describe('TurnQueue', () => {
  it('hands one turn of items to send once, in order, and the next turn apart', async () => {
    const batches: string[][] = [];
    const queue = new TurnQueue<string>((items) => batches.push(items));
    queue.add('a');
    queue.add('b');
    await nextTurn();
    queue.add('c');
    await nextTurn();
    expect(batches).toEqual([['a', 'b'], ['c']]);
  });
});

describe('SharedTurn', () => {
  it('settles every add of a turn with its batch, and fails them all when the batch fails', async () => {
    const batches: string[][] = [];
    const turn = new SharedTurn<string>(async (items) => {
      batches.push(items);
      if (items.includes('refused')) throw new Error('flush failed');
    });
    const first = [turn.add('a'), turn.add('b')];
    await Promise.all(first);
    const second = await Promise.allSettled([turn.add('c'), turn.add('refused')]);
    expect(batches).toEqual([
      ['a', 'b'],
      ['c', 'refused'],
    ]);
    expect(second.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
  });

  it('answers nothing before the turn was sent', async () => {
    let sent = false;
    const turn = new SharedTurn<string>(async () => {
      sent = true;
    });
    let settled = false;
    const outcome = turn.add('a').then(() => (settled = true));
    await Promise.resolve();
    expect([sent, settled]).toEqual([false, false]);
    await outcome;
    expect([sent, settled]).toEqual([true, true]);
  });
});
