// A Classic definition's JavaScript plugins, compiled once when the API is loaded: custom_middleware with driver
// otto (Tyk's JSVM; `javascript`, Tyk's newer runtime with the same API, and an empty driver read the same way)
// — its pre, post_key_auth, post and response hooks, each {name, path (a file) or code (inline source),
// require_session, disabled} — and each version's extended_paths.virtual endpoints {path, method,
// response_function_name, function_source_type file|blob, function_source_uri, use_session, proxy_on_error,
// disabled}. Every source of the API goes into one script, as Tyk loads them into one VM per API; the script's id
// is its SHA-256, so a worker compiles it once (plugin-pool.ts). A missing file, a blob that is not base64, a
// source over MAX_SOURCE_BYTES or one with a syntax error refuses the API, naming the field. Other drivers are refused by
// api/unsupported-fields.ts before this runs.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Script } from 'node:vm';
import { DefinitionError } from '../definition/api-spec.ts';
import { compilePathPattern, type PathPattern } from '../definition/path-pattern.ts';
import type { PluginScript } from './plugin-pool.ts';

/** Largest plugin source read from a file or a blob. */
export const MAX_SOURCE_BYTES = 1024 * 1024;

export interface MiddlewareHook {
  /** The global variable holding the middleware object (TykJS.TykMiddleware.NewMiddleware). */
  name: string;
  /** post_key_auth and post: the plugin is given the session (else an empty object). */
  requireSession: boolean;
}

export interface PluginsSpec {
  script: PluginScript;
  pre: MiddlewareHook[];
  postKeyAuth: MiddlewareHook[];
  post: MiddlewareHook[];
  response: MiddlewareHook[];
  /** The API's config_data, handed to plugins as `config.config_data` (absent when config_data_disabled). */
  configData?: unknown;
}

export interface VirtualEndpointRule {
  pattern: PathPattern;
  /** Upper case; '' answers every method. */
  method: string;
  functionName: string;
  useSession: boolean;
  proxyOnError: boolean;
}

type Loose = Record<string, unknown>;

const HOOKS = [
  ['pre', 'pre'],
  ['post_key_auth', 'postKeyAuth'],
  ['post', 'post'],
  ['response', 'response'],
] as const;

/** The virtual endpoints of one extended_paths, their sources appended to `sources`. */
export function virtualEndpoints(list: unknown, field: string, sources: string[]): VirtualEndpointRule[] {
  if (!Array.isArray(list)) return [];
  const rules: VirtualEndpointRule[] = [];
  list.forEach((entry: unknown, index) => {
    const at = `${field}[${index}]`;
    if (!isObject(entry) || entry.disabled === true) return;
    const path = text(entry.path, `${at}.path`, true);
    const functionName = text(entry.response_function_name, `${at}.response_function_name`, true);
    const type = text(entry.function_source_type, `${at}.function_source_type`, true);
    const uri = text(entry.function_source_uri, `${at}.function_source_uri`, true);
    if (type === 'file') sources.push(readSource(uri, `${at}.function_source_uri`));
    else if (type === 'blob') sources.push(decodeBlob(uri, `${at}.function_source_uri`));
    else throw new DefinitionError(`${at}.function_source_type must be file or blob: ${type}`);
    rules.push({
      pattern: compilePathPattern(path),
      method: text(entry.method, `${at}.method`, false).toUpperCase(),
      functionName,
      useSession: entry.use_session === true,
      proxyOnError: entry.proxy_on_error === true,
    });
  });
  return rules;
}

/** The API's plugins, or undefined when it has none (no middleware and no virtual endpoint). */
export function classicPlugins(def: Loose, virtualSources: string[]): PluginsSpec | undefined {
  const section = isObject(def.custom_middleware) ? def.custom_middleware : {};
  const sources: string[] = [];
  const hooks = { pre: [], postKeyAuth: [], post: [], response: [] } as Record<(typeof HOOKS)[number][1], MiddlewareHook[]>;
  for (const [field, key] of HOOKS) {
    const list = section[field];
    if (!Array.isArray(list)) continue;
    list.forEach((entry: unknown, index) => {
      const at = `custom_middleware.${field}[${index}]`;
      if (!isObject(entry) || entry.disabled === true) return;
      const name = text(entry.name, `${at}.name`, true);
      if (!/^[A-Za-z_$][\w$]*$/.test(name)) throw new DefinitionError(`${at}.name must be a JavaScript variable name: ${name}`);
      const code = typeof entry.code === 'string' ? entry.code : '';
      sources.push(code !== '' ? limited(code, `${at}.code`) : readSource(text(entry.path, `${at}.path`, true), `${at}.path`));
      hooks[key].push({ name, requireSession: entry.require_session === true });
    });
  }
  sources.push(...virtualSources);
  if (sources.length === 0) return undefined;
  // Each source on its own lines, as separate files would be: a source ending in a line comment ends there.
  const source = sources.join('\n;\n');
  const script = { id: createHash('sha256').update(source).digest('hex'), source };
  return { script, ...hooks, ...(def.config_data_disabled === true ? {} : { configData: def.config_data ?? {} }) };
}

/** Plugin fields of Tyk OAS (middleware.global *Plugins, pluginConfig; an operation's virtualEndpoint). */
const OAS_GLOBAL_PLUGINS = [
  'prePlugins',
  'postAuthenticationPlugins',
  'postPlugins',
  'responsePlugins',
  'prePlugin',
  'postAuthenticationPlugin',
  'postPlugin',
  'responsePlugin',
];

/**
 * The first plugin field an OAS definition's extension uses, with its path (`middleware.global.prePlugins`), or
 * undefined: plugins are built for Classic definitions only, and an OAS definition using them is refused naming
 * the field rather than served without them.
 */
export function oasPluginField(extension: unknown): string | undefined {
  const middleware = isObject(extension) && isObject(extension.middleware) ? extension.middleware : {};
  const global = isObject(middleware.global) ? middleware.global : {};
  for (const name of OAS_GLOBAL_PLUGINS) {
    const value = global[name];
    if (Array.isArray(value) ? value.some((entry) => !(isObject(entry) && entry.enabled === false)) : isObject(value)) return `middleware.global.${name}`;
  }
  const operations = isObject(middleware.operations) ? middleware.operations : {};
  for (const [id, operation] of Object.entries(operations)) {
    if (isObject(operation) && isObject(operation.virtualEndpoint) && operation.virtualEndpoint.enabled === true)
      return `middleware.operations.${id}.virtualEndpoint`;
  }
  return undefined;
}

function readSource(path: string, field: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new DefinitionError(`${field}: the plugin file cannot be read: ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return limited(bytes.toString('utf8'), field);
}

function decodeBlob(blob: string, field: string): string {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(blob.replace(/\s/g, ''))) throw new DefinitionError(`${field} must be base64 (function_source_type blob)`);
  return limited(Buffer.from(blob, 'base64').toString('utf8'), field);
}

function limited(source: string, field: string): string {
  if (Buffer.byteLength(source) > MAX_SOURCE_BYTES) throw new DefinitionError(`${field}: the plugin source is larger than ${MAX_SOURCE_BYTES} bytes`);
  try {
    new Script(source); // parsed only, never run here: a syntax error refuses the API at load, not each request
  } catch (error) {
    throw new DefinitionError(`${field}: the plugin does not compile: ${(error as Error).message}`);
  }
  return source;
}

function text(value: unknown, field: string, required: boolean): string {
  if (value === undefined || value === null) value = '';
  if (typeof value !== 'string') throw new DefinitionError(`${field} must be a string`);
  if (required && value === '') throw new DefinitionError(`${field} is required`);
  return value;
}

function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
