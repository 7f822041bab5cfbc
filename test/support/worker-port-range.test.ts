// workerPortRange: disjoint ranges for every worker the suite may run, all below the kernel's ephemeral ports, and
// none outside a worker.
import { describe, expect, it } from 'vitest';
import { workerPortRange } from './worker-port-range.ts';

describe('workerPortRange', () => {
  it('gives workers 1 to 12 disjoint ranges below 32768', () => {
    const ranges = Array.from({ length: 12 }, (_, index) => workerPortRange(String(index + 1))!);
    expect(ranges[0]).toEqual({ first: 12_000, last: 13_499 });
    for (const [index, range] of ranges.entries()) {
      expect(range.last).toBeLessThan(32_768);
      if (index > 0) expect(range.first).toBe(ranges[index - 1]!.last + 1);
    }
  });

  it('gives none outside a worker or beyond the ports below the ephemeral range', () => {
    expect(workerPortRange(undefined)).toBeUndefined();
    expect(workerPortRange('0')).toBeUndefined();
    expect(workerPortRange('x')).toBeUndefined();
    expect(workerPortRange('14')).toBeUndefined();
  });
});
