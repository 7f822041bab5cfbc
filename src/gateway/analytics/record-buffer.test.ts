// The analytics ring buffer: bounded, FIFO across the wrap-around, peek leaves and discard removes.
import { describe, expect, it } from 'vitest';
import { RecordBuffer } from './record-buffer.ts';

describe('RecordBuffer', () => {
  it('refuses pushes beyond its capacity and keeps what it holds', () => {
    const buffer = new RecordBuffer<number>(3);
    expect([1, 2, 3, 4].map((n) => buffer.push(n))).toEqual([true, true, true, false]);
    expect(buffer.size).toBe(3);
    expect(buffer.peek(10)).toEqual([1, 2, 3]);
  });

  it('peeks without removing, discards from the front, and stays in order across the wrap-around', () => {
    const buffer = new RecordBuffer<number>(4);
    for (const n of [1, 2, 3]) buffer.push(n);
    expect(buffer.peek(2)).toEqual([1, 2]);
    expect(buffer.size).toBe(3);
    buffer.discard(2);
    for (const n of [4, 5, 6]) expect(buffer.push(n)).toBe(true); // slots 0 and 1 reused
    expect(buffer.push(7)).toBe(false);
    expect(buffer.peek(4)).toEqual([3, 4, 5, 6]);
    buffer.discard(10);
    expect(buffer.size).toBe(0);
    expect(buffer.peek(1)).toEqual([]);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new RecordBuffer(0)).toThrow(RangeError);
    expect(() => new RecordBuffer(1.5)).toThrow(RangeError);
  });
});
