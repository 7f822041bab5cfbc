// The template engine's artefact for tests: runs scripts/build-template-engine.sh (it answers at once when the
// cached build is current, and builds it otherwise, as CI does) and returns the .wasm path. Never mocks the engine.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

let built: string | undefined;

export function builtTemplateEngine(): string {
  built ??= execFileSync(join(REPO_ROOT, 'scripts', 'build-template-engine.sh'), { encoding: 'utf8', env: { ...process.env, GW_BUILD_QUIET: '1' } })
    .trim()
    .split('\n')
    .at(-1)!;
  return built;
}
