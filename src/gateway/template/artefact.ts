// Where the template engine's artefacts are. The WebAssembly module (templates are parsed with it at API load, and it
// runs them when there is no native engine): GW_TEMPLATE_ENGINE, else the last build of
// scripts/build-template-engine.sh in the cache (<cache root>/template-engine/current/template-engine.wasm). The
// native engine (the same Go code as a process, preferred to run templates): GW_TEMPLATE_ENGINE_NATIVE (a path, or
// `off` for the WebAssembly worker), else `template-engine` beside the .wasm (the script builds both). It owns
// finding the files and the message that explains how to build them; it never builds anything itself.
import { accessSync, constants, existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

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

/**
 * The native engine's path, or undefined when templates run in the WebAssembly worker (GW_TEMPLATE_ENGINE_NATIVE=off,
 * or no binary beside the .wasm). A GW_TEMPLATE_ENGINE_NATIVE naming a missing file throws TemplateEngineMissing.
 */
export function locateNativeTemplateEngine(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const chosen = env.GW_TEMPLATE_ENGINE_NATIVE;
  if (chosen === 'off') return undefined;
  if (chosen) {
    if (!existsSync(chosen)) throw new TemplateEngineMissing(chosen);
    return chosen;
  }
  const beside = join(dirname(locateTemplateEngine(env)), 'template-engine');
  return executable(beside) ? beside : undefined;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
