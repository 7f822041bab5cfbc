// The order vitest hands test files to its workers: the longest first across every project, so that the run does
// not end on one long file started last while the other workers sit idle. vitest's own order groups the files by
// project name first (browser, e2e, integration, integration-standalone, unit), which started the longest
// integration-standalone files after every integration file. Durations are those vitest cached from earlier runs
// (node_modules/.vite/vitest), else, in a clone without that cache (CI), those of a full run committed in
// test/support/file-durations.json; files in neither go first, the larger first, as in vitest's own order; files
// that failed last time go before the others that ran, as in vitest's own order.
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
    return Promise.resolve([...files].sort((a, b) => longestFirst(known.get(a)!, known.get(b)!)));
  }
}
