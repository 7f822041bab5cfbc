// The order vitest hands test files to its workers: the longest first across every project, so that the run does
// not end on one long file started last while the other workers sit idle. vitest's own order groups the files by
// project name first (browser, e2e, integration, integration-standalone, unit), which started the longest
// integration-standalone files after every integration file. Durations are those vitest cached from earlier runs
// (node_modules/.vite/vitest), else, in a clone without that cache (CI), those of a full run committed in
// test/support/file-durations.json; files in neither go first, the larger first, as in vitest's own order; files
// that failed last time go before the others that ran, as in vitest's own order.
// Files that take the machine's one node turn (test/support/node-turn.ts: a real node, one at a time) would, both
// among the longest, start together and one would hold a worker idle for the other's whole run: the order is
// replayed on the run's workers with the durations and such a file is put where it would start once the previous
// one is expected to end (`spreadExclusive`).
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { readBaseline } from './file-durations.ts';

export interface FileToOrder {
  /** Known from an earlier run: whether the file failed, and how long it took (ms). */
  last?: { failed: boolean; duration: number };
  /** Its size in bytes: the guess for a file without a known duration. */
  size: number;
}

/** Negative when `a` should start before `b`. */
export function longestFirst(a: FileToOrder, b: FileToOrder): number {
  if (!a.last || !b.last) {
    if (!a.last && b.last) return -1;
    if (a.last && !b.last) return 1;
    return b.size - a.size;
  }
  if (a.last.failed !== b.last.failed) return a.last.failed ? -1 : 1;
  return b.last.duration - a.last.duration;
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** The test files that take the node turn (test/support/node-turn.ts): one at a time on a machine. */
export const NODE_TURN_FILES = ['test/e2e/gw-up-node.test.ts', 'test/e2e/node-chart.test.ts'];

/**
 * `ordered` replayed on `workers` workers (each file to the first free one, for `durationOf` ms), with an
 * exclusive file held back until the previous exclusive one is expected to end; other files fill the gap. Where
 * only exclusive files are left they go in their order.
 */
export function spreadExclusive<T>(ordered: T[], workers: number, durationOf: (file: T) => number, exclusive: (file: T) => boolean): T[] {
  const free = Array.from({ length: Math.max(1, workers) }, () => 0);
  const pending = [...ordered];
  const result: T[] = [];
  let exclusiveEnds = 0;
  while (pending.length > 0) {
    const slot = free.indexOf(Math.min(...free));
    const now = free[slot]!;
    let index = pending.findIndex((file) => !exclusive(file) || exclusiveEnds <= now);
    if (index < 0) index = 0;
    const [file] = pending.splice(index, 1) as [T];
    const start = exclusive(file) ? Math.max(now, exclusiveEnds) : now;
    free[slot] = start + durationOf(file);
    if (exclusive(file)) exclusiveEnds = free[slot]!;
    result.push(file);
  }
  return result;
}

export default class LongestFirstSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const baseline = readBaseline();
    const known = new Map(
      files.map((spec) => {
        const committed = baseline.get(relative(this.ctx.config.root, spec.moduleId));
        const last = this.ctx.cache.getTestSpecificationResult(spec) ?? (committed === undefined ? undefined : { failed: false, duration: committed });
        return [spec, { ...(last ? { last } : {}), size: last ? 0 : sizeOf(spec.moduleId) }] as const;
      }),
    );
    const ordered = [...files].sort((a, b) => longestFirst(known.get(a)!, known.get(b)!));
    const workers = Number(this.ctx.config.maxWorkers) || 1;
    const exclusive = (spec: TestSpecification): boolean => NODE_TURN_FILES.includes(relative(this.ctx.config.root, spec.moduleId));
    return Promise.resolve(spreadExclusive(ordered, workers, (spec) => known.get(spec)!.last?.duration ?? 10_000, exclusive));
  }
}
