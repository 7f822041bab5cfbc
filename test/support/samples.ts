// A copy of config/samples for a test, as `gw up` aims them (src/up/demo.ts): every file the same, only the
// addresses the samples point at (their upstreams, their Redis) replaced by the test's own servers, so a test never
// binds the samples' fixed ports (a node suite's gateway pod may hold 18080). `invalid/` is left out: it is the
// sample the admission webhook refuses, applied on its own.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { SAMPLES_UPSTREAM } from '../../src/up/demo.ts';
import { REPO_ROOT } from '../../src/up/paths.ts';

export const SAMPLES_DIR = join(REPO_ROOT, 'config', 'samples');
export const INVALID_SAMPLE = join(SAMPLES_DIR, 'invalid', 'httpbin_invalid.yaml');
export { SAMPLES_UPSTREAM };

export interface SampleCopyOptions {
  /** Sub-directories too (`kubectl apply -R`); otherwise the top-level files only (`kubectl apply -f config/samples`). */
  recursive?: boolean;
  /** Further exact texts to replace, beside SAMPLES_UPSTREAM (e.g. a GraphQL upstream, the Redis URL). */
  replace?: Record<string, string>;
}

/** Writes the copy under `into` (same layout) and returns `into`. */
export function copySamples(into: string, upstreamUrl: string, options: SampleCopyOptions = {}): string {
  const replacements = Object.entries({ ...options.replace, [SAMPLES_UPSTREAM]: upstreamUrl });
  const copyDir = (from: string): void => {
    const target = join(into, relative(SAMPLES_DIR, from));
    mkdirSync(target, { recursive: true });
    for (const entry of readdirSync(from, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (options.recursive && entry.name !== 'invalid') copyDir(join(from, entry.name));
      } else if (/\.ya?ml$/.test(entry.name)) {
        const text = replacements.reduce((current, [old, now]) => current.replaceAll(old, now), readFileSync(join(from, entry.name), 'utf8'));
        writeFileSync(join(target, entry.name), text);
      }
    }
  };
  copyDir(SAMPLES_DIR);
  return into;
}
