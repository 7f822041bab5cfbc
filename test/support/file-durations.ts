// The longest-first order's baseline for a run without vitest's cache of durations (a fresh clone: CI): each test
// file's wall time in ms from a full `npm test` (test/support/file-durations.json). Without it a fresh clone orders
// the files by size, and gw-up-node (3.5 min, a small file) started after ninety others. Regenerate after a full
// run on an idle machine: `node scripts/node24.mjs node test/support/file-durations.ts` writes it from vitest's cache
// (node_modules/.vite/vitest), the durations of the run that covered the most files (the last full run; single-file
// runs since are left out).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BASELINE = fileURLToPath(new URL('file-durations.json', import.meta.url));

/** File (relative to the repository) -> wall ms; empty when the baseline is missing or unreadable. */
export function readBaseline(file = BASELINE): Map<string, number> {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    return new Map(Object.entries(parsed).filter((entry): entry is [string, number] => typeof entry[1] === 'number'));
  } catch {
    return new Map();
  }
}

interface CachedResults {
  projects: Record<string, { files: Record<string, { duration: number; lastRun: number }> }>;
}

/** The baseline from vitest's cache: the files of the run that covered the most (rounded to 100 ms), longest first. */
export function baselineFromCache(cache: CachedResults): Record<string, number> {
  const files = Object.values(cache.projects).flatMap((project) => Object.entries(project.files));
  const filesPerRun = new Map<number, number>();
  for (const [, result] of files) filesPerRun.set(result.lastRun, (filesPerRun.get(result.lastRun) ?? 0) + 1);
  const fullRun = [...filesPerRun].sort((a, b) => b[1] - a[1])[0]?.[0];
  return Object.fromEntries(
    files
      .filter(([, result]) => result.lastRun === fullRun)
      .map(([file, result]) => [file, Math.round(result.duration / 100) * 100] as const)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('../../node_modules/.vite/vitest', import.meta.url));
  const dir = readdirSync(root, { withFileTypes: true }).find((entry) => entry.isDirectory());
  if (!dir) throw new Error(`no results of vitest in ${root}: run npm test first`);
  const cache = JSON.parse(readFileSync(join(root, dir.name, 'results.json'), 'utf8')) as CachedResults;
  writeFileSync(BASELINE, `${JSON.stringify(baselineFromCache(cache), null, 2)}\n`);
}
