// longestFirst: files never run first (the larger first), then those that failed last time, then the rest by
// their last duration, longest first, whatever project they belong to.
import { describe, expect, it } from 'vitest';
import { longestFirst, spreadExclusive, type FileToOrder } from './longest-first-sequencer.ts';

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

describe('spreadExclusive', () => {
  const durations: Record<string, number> = { nodeA: 200, nodeB: 150, x: 100, y: 90, z: 80, w: 70, v: 60 };
  const spread = (order: string[], workers: number): string[] =>
    spreadExclusive(
      order,
      workers,
      (file) => durations[file]!,
      (file) => file.startsWith('node'),
    );

  it('starts the second node-turn file once the first is expected to end, other files filling the gap', () => {
    // 2 workers: nodeA 0-200; x 0-100, y 100-190, z 190-270; nodeB waits for nodeA: it starts at 200, after z.
    expect(spread(['nodeA', 'nodeB', 'x', 'y', 'z', 'w', 'v'], 2)).toEqual(['nodeA', 'x', 'y', 'z', 'nodeB', 'w', 'v']);
  });

  it('keeps the order when no two exclusive files would overlap', () => {
    expect(spread(['x', 'y', 'z', 'w'], 4)).toEqual(['x', 'y', 'z', 'w']);
  });

  it('puts the exclusive files last in their order when nothing else is left', () => {
    expect(spread(['nodeA', 'nodeB', 'x'], 3)).toEqual(['nodeA', 'x', 'nodeB']);
  });
});
