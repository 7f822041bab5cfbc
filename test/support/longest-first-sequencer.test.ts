// longestFirst: files never run first (the larger first), then those that failed last time, then the rest by
// their last duration, longest first, whatever project they belong to.
import { describe, expect, it } from 'vitest';
import { longestFirst, type FileToOrder } from './longest-first-sequencer.ts';

describe('longestFirst', () => {
  it('orders files never run before files that ran, the larger first', () => {
    const files: Record<string, FileToOrder> = {
      ranLong: { last: { failed: false, duration: 90_000 }, size: 0 },
      newSmall: { size: 1_000 },
      newLarge: { size: 9_000 },
    };
    const order = Object.keys(files).sort((a, b) => longestFirst(files[a]!, files[b]!));
    expect(order).toEqual(['newLarge', 'newSmall', 'ranLong']);
  });

  it('orders files that failed last time first, then the longest first', () => {
    const files: Record<string, FileToOrder> = {
      short: { last: { failed: false, duration: 2_000 }, size: 0 },
      long: { last: { failed: false, duration: 120_000 }, size: 0 },
      failedShort: { last: { failed: true, duration: 1_000 }, size: 0 },
      middle: { last: { failed: false, duration: 30_000 }, size: 0 },
    };
    const order = Object.keys(files).sort((a, b) => longestFirst(files[a]!, files[b]!));
    expect(order).toEqual(['failedShort', 'long', 'middle', 'short']);
  });
});
