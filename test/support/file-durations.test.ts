// The committed baseline of file durations (file-durations.ts): made from the run of vitest's cache that covered the
// most files, read back tolerantly, and used by the longest-first order when vitest has no durations (a fresh clone).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { baselineFromCache, readBaseline } from './file-durations.ts';
import LongestFirstSequencer from './longest-first-sequencer.ts';

const dir = mkdtempSync(join(tmpdir(), 'gw-file-durations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('file durations baseline', () => {
  it('takes the run that covered the most files, rounded to 100 ms, longest first', () => {
    const full = 1_000;
    const single = 2_000;
    const baseline = baselineFromCache({
      projects: {
        unit: { files: { 'a.test.ts': { duration: 1_234, lastRun: full }, 'b.test.ts': { duration: 99_000, lastRun: single } } },
        e2e: { files: { 'c.test.ts': { duration: 60_049, lastRun: full } } },
      },
    });
    expect(Object.entries(baseline)).toEqual([
      ['c.test.ts', 60_000],
      ['a.test.ts', 1_200],
    ]);
  });

  it('reads numbers only, and nothing from a missing or broken file', () => {
    writeFileSync(join(dir, 'good.json'), JSON.stringify({ 'a.test.ts': 1_000, 'b.test.ts': 'long' }));
    writeFileSync(join(dir, 'broken.json'), '{');
    expect([...readBaseline(join(dir, 'good.json'))]).toEqual([['a.test.ts', 1_000]]);
    expect(readBaseline(join(dir, 'broken.json')).size).toBe(0);
    expect(readBaseline(join(dir, 'missing.json')).size).toBe(0);
  });

  it('orders a clone without vitest cache by the committed durations: gw-up-node before a larger, shorter file', async () => {
    const root = resolve(import.meta.dirname, '../..');
    const ctx = { config: { root }, cache: { getTestSpecificationResult: () => undefined } } as unknown as Vitest;
    const spec = (file: string) => ({ moduleId: join(root, file) }) as unknown as TestSpecification;
    const files = [spec('test/browser/dashboard-ui.test.ts'), spec('test/e2e/gw-up-node.test.ts')];
    const sorted = await new LongestFirstSequencer(ctx).sort(files);
    expect(sorted.map((file) => file.moduleId.slice(root.length + 1))).toEqual(['test/e2e/gw-up-node.test.ts', 'test/browser/dashboard-ui.test.ts']);
  });
});
