// Where things are: the repository (crds/, scripts/, test/controlplane travel with the package) and the cache
// outside the clone that holds built binaries, the bootstrap Node and `gw up`'s state.
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const CRD_DIR = join(REPO_ROOT, 'crds');

/** GW_CACHE_DIR, default ${XDG_CACHE_HOME:-~/.cache}/gw (the same rule as scripts/node24.mjs and scripts/build-controlplane.sh). */
export function cacheRoot(): string {
  return process.env.GW_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'gw');
}
