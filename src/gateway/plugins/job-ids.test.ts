// Job ids of the plugin pool (worker-protocol.ts nextJobId, atOrBefore): they are written to the shared Int32 words
// (the running job, the last withdrawn one), so each must read back equal, past 2^31 calls too (about 20 hours at
// 30 000 calls/s: a counter counting on would be written as another number, and the time limit fail another call),
// and "at or before" must hold across the wrap.
import { describe, expect, it } from 'vitest';
import { atOrBefore, nextJobId } from './worker-protocol.ts';

describe('plugin job ids', () => {
  it('read back equal from a shared word, across the largest Int32, never 0', () => {
    const word = new Int32Array(new SharedArrayBuffer(4));
    let id = 0x7fffffff - 2;
    for (let i = 0; i < 6; i++) {
      id = nextJobId(id);
      Atomics.store(word, 0, id);
      expect(Atomics.load(word, 0)).toBe(id);
    }
    expect(nextJobId(-1)).toBe(1);
  });

  it('are ordered across the wrap; 0 withdraws nothing', () => {
    const last = 0x7fffffff;
    expect(atOrBefore(last - 5, last)).toBe(true);
    expect(atOrBefore(last, last)).toBe(true);
    expect(atOrBefore(nextJobId(last), last)).toBe(false);
    expect(atOrBefore(5, 0)).toBe(false);
    expect(atOrBefore(-5, 0)).toBe(false);
  });
});
