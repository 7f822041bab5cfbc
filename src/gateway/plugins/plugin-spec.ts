// A definition's JavaScript plugins, compiled once when the API is loaded: what domain/js-plugins.ts reads
// (hooks, virtual endpoints, their sources: plugin files read here, relative paths from the gateway's working
// directory), with each virtual endpoint's path pattern compiled and every source of the API in one script, as Tyk
// loads them into one VM per API; the script's id is its SHA-256, so a worker compiles it once (plugin-pool.ts).
// A refusal is a DefinitionError naming the field. OAS definitions come here in their Classic form
// (domain/oas-plugins.ts); their refusals name the OAS field (`fieldOf`).
import { createHash } from 'node:crypto';
import { PluginFieldError, readMiddleware, readVirtualEndpoints, type ReadOptions } from '../../domain/js-plugins.ts';
import { DefinitionError } from '../definition/api-spec.ts';
import { compilePathPattern } from '../definition/path-pattern.ts';
import { readDefinitionFile } from '../definition/compile-inputs.ts';

// A hook's plugin (MiddlewareHook): the global variable holding its middleware object; with require_session it is
// given the session. The types live in definition/plugin-types.ts (api-spec.ts carries them).
export type { MiddlewareHook, PluginsSpec, VirtualEndpointRule } from '../definition/plugin-types.ts';
import type { PluginsSpec, VirtualEndpointRule } from '../definition/plugin-types.ts';

// Read through compile-inputs.ts: a reload keeps the compiled API only while its plugin files are unchanged.
const READ: ReadOptions = { readFile: readDefinitionFile };

/** How a refusal names a field the reader names: as is (Classic), or as the OAS field it was read from. */
export type FieldNaming = (field: string) => string;

export const AS_WRITTEN: FieldNaming = (field) => field;

/** The virtual endpoints of one extended_paths, their sources appended to `sources`. */
export function virtualEndpoints(list: unknown, field: string, sources: string[], fieldOf: FieldNaming = AS_WRITTEN): VirtualEndpointRule[] {
  return refused(() => readVirtualEndpoints(list, field, sources, READ), fieldOf).map(({ path, ...rule }) => ({
    pattern: compilePathPattern(path),
    ...rule,
  }));
}

/** The API's plugins, or undefined when it has none (no middleware and no virtual endpoint). */
export function classicPlugins(def: Record<string, unknown>, virtualSources: string[], fieldOf: FieldNaming = AS_WRITTEN): PluginsSpec | undefined {
  const { hooks, authCheck, sources } = refused(() => readMiddleware(def, READ), fieldOf);
  sources.push(...virtualSources);
  if (sources.length === 0) return undefined;
  // Each source on its own lines, as separate files would be: a source ending in a line comment ends there.
  const source = sources.join('\n;\n');
  const script = { id: createHash('sha256').update(source).digest('hex'), source };
  return { script, ...hooks, ...(authCheck ? { authCheck } : {}), ...(def.config_data_disabled === true ? {} : { configData: def.config_data ?? {} }) };
}

/** Runs a domain reader; its PluginFieldError becomes the loader's DefinitionError, the field named by `fieldOf`. */
export function refused<T>(read: () => T, fieldOf: FieldNaming): T {
  try {
    return read();
  } catch (error) {
    // The message starts with the field (PluginFieldError): only the field is renamed.
    if (error instanceof PluginFieldError) throw new DefinitionError(fieldOf(error.field) + error.message.slice(error.field.length));
    throw error;
  }
}
