// The slowest-files table: the 20 slowest by wall time, slowest first, with CPU time where it was measured, and the
// sums over every file (not only those shown), per project and in all, beside the run's own wall and CPU time; then
// the tests that passed only after a retry.
import { describe, expect, it } from 'vitest';
import { formatRetried, formatTimings, type FileTiming } from './durations-reporter.ts';

const timing = (index: number, cpuMs?: number): FileTiming => ({ file: `test/f${index}.test.ts`, project: 'unit', wallMs: index * 1000, cpuMs, tests: 2 });

describe('formatTimings', () => {
  it('lists the 20 slowest files, slowest first, and sums all of them', () => {
    const timings = Array.from({ length: 25 }, (_, index) => timing(index + 1, 500));
    const lines = formatTimings(timings, 60_000, 12_500);
    expect(lines[0]).toBe('Slowest 20 test files of 25:');
    const rows = lines.slice(2, -2);
    expect(rows).toHaveLength(20);
    expect(rows[0]).toMatch(/^\s+25\.0\s+0\.5\s+2\s+test\/f25\.test\.ts\s+unit$/);
    expect(rows.at(-1)).toContain('test/f6.test.ts');
    // 1 + 2 + ... + 25 seconds of wall time; 25 files of 0.5 s CPU; 2 tests each.
    expect(lines.at(-2)).toBe('By project: unit 25 files, wall 325.0 s, cpu 12.5 s.');
    expect(lines.at(-1)).toBe(
      'Files: 25, tests: 50. Sum over files: wall 325.0 s, cpu 12.5 s. Run: wall 60.0 s, cpu of vitest and every process it reaped so far 12.5 s.',
    );
  });

  it("shows a dash for a file without a CPU measure and leaves the run's CPU out when it is unknown", () => {
    const lines = formatTimings([timing(3)], 4000, undefined);
    expect(lines[2]).toMatch(/^\s+3\.0\s+-\s+2\s+test\/f3\.test\.ts/);
    expect(lines.at(-1)).toBe('Files: 1, tests: 2. Sum over files: wall 3.0 s, cpu 0.0 s. Run: wall 4.0 s.');
  });

  it('sums each project apart, projects in name order', () => {
    const lines = formatTimings([{ ...timing(4, 1000), project: 'integration' }, timing(2, 500), { ...timing(6, 3000), project: 'integration' }], 10_000, 5000);
    expect(lines.at(-2)).toBe('By project: integration 2 files, wall 10.0 s, cpu 4.0 s; unit 1 files, wall 2.0 s, cpu 0.5 s.');
  });
});

describe('formatRetried', () => {
  it('names every test that passed only after a retry, with its count, and says nothing when there is none', () => {
    expect(formatRetried([])).toEqual([]);
    const lines = formatRetried([
      { name: 'test/a.test.ts > a > works', retries: 1 },
      { name: 'test/b.test.ts > b', retries: 2 },
    ]);
    expect(lines[0]).toMatch(/^Passed only after a retry \(2\)/);
    expect(lines.slice(1)).toEqual(['  test/a.test.ts > a > works (1 retry)', '  test/b.test.ts > b (2 retries)']);
  });
});
