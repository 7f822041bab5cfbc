// Where the template engine's WebAssembly artefact is: GW_TEMPLATE_ENGINE, else the last build of
// scripts/build-template-engine.sh in the cache (<cache root>/template-engine/current/template-engine.wasm). It owns
// finding the file and the message that explains how to build it; it never builds anything itself.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const BUILD_HINT =
  'the template engine is not built: run `npm run build:template-engine` (scripts/build-template-engine.sh, needs Go >= 1.24) or set GW_TEMPLATE_ENGINE to a built template-engine.wasm';

export class TemplateEngineMissing extends Error {
  readonly code = 'TEMPLATE_ENGINE_MISSING';
  readonly looked: string;
  constructor(looked: string) {
    super(`${BUILD_HINT} (looked for ${looked})`);
    this.looked = looked;
    this.name = 'TemplateEngineMissing';
  }
}

/** The cache root of scripts/lib/go-artefact-cache.sh, resolved the same way. */
function cacheRoot(env: NodeJS.ProcessEnv): string {
  return env.GW_CACHE_DIR ?? join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'gw');
}

/** The artefact's path; throws TemplateEngineMissing when it is not there. */
export function locateTemplateEngine(env: NodeJS.ProcessEnv = process.env): string {
  const path = env.GW_TEMPLATE_ENGINE || join(cacheRoot(env), 'template-engine', 'current', 'template-engine.wasm');
  if (!existsSync(path)) throw new TemplateEngineMissing(path);
  return path;
}
