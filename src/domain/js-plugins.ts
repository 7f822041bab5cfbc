// A Classic definition's JavaScript plugins as written, checked the same way by the gateway (which also reads plugin
// files: gateway/plugins/plugin-spec.ts), the admission webhook and the dashboard's writes (pluginProblem, files
// unread: they live on the gateway's disk): custom_middleware with driver otto (Tyk's JSVM; `javascript`, Tyk's
// newer runtime with the same API, and an empty driver read the same way) — its pre, post_key_auth, post and
// response hooks, each {name, path (a file) or code (inline source), require_session, disabled}, and its one
// auth_check hook (custom authentication, gateway/plugins/auth-plugin.ts) — and each applied
// extended_paths.virtual {path, method, response_function_name, function_source_type file|blob,
// function_source_uri, use_session, proxy_on_error, disabled}. A name that is not a JavaScript variable, an unknown
// source type, a blob that is not base64, a source over MAX_SOURCE_BYTES or with a syntax error is refused naming
// the field (PluginFieldError). A Tyk OAS definition's plugin fields are read here in their Classic form
// (oas-plugins.ts).
import { Script } from 'node:vm';
import { readIdExtractor } from './grpc-auth-plugin.ts';

/** Largest plugin source read from a file, a blob or inline code. */
export const MAX_SOURCE_BYTES = 1024 * 1024;

/** A refusal naming its field apart (the webhook reports it on that field). */
export class PluginFieldError extends Error {
  readonly field: string;
  readonly problem: string;

  constructor(field: string, problem: string, separator = ': ') {
    super(`${field}${separator}${problem}`);
    this.name = 'PluginFieldError';
    this.field = field;
    this.problem = problem;
  }
}

/** How sources are read: the gateway passes a file reader; without one, file sources count as empty. */
export interface ReadOptions {
  readFile?: (path: string) => string;
}

export interface WrittenHook {
  name: string;
  requireSession: boolean;
}

export interface WrittenVirtualEndpoint {
  path: string;
  /** Upper case; '' answers every method. */
  method: string;
  functionName: string;
  useSession: boolean;
  proxyOnError: boolean;
}

export const JS_DRIVERS: readonly string[] = ['', 'otto', 'javascript'];

type Loose = Record<string, unknown>;

/** custom_middleware's hook lists: the definition's field, and its name in a compiled API. */
export const HOOKS = [
  ['pre', 'pre'],
  ['post_key_auth', 'postKeyAuth'],
  ['post', 'post'],
  ['response', 'response'],
] as const;

export type HookName = (typeof HOOKS)[number][1];

/** The virtual endpoints of one extended_paths, their sources appended to `sources`. */
export function readVirtualEndpoints(list: unknown, field: string, sources: string[], options: ReadOptions): WrittenVirtualEndpoint[] {
  if (!Array.isArray(list)) return [];
  const rules: WrittenVirtualEndpoint[] = [];
  list.forEach((entry: unknown, index) => {
    const at = `${field}[${index}]`;
    if (!isObject(entry) || entry.disabled === true) return;
    const path = text(entry.path, `${at}.path`, true);
    const functionName = text(entry.response_function_name, `${at}.response_function_name`, true);
    const type = text(entry.function_source_type, `${at}.function_source_type`, true);
    const uri = text(entry.function_source_uri, `${at}.function_source_uri`, true);
    if (type === 'file') sources.push(readSource(uri, `${at}.function_source_uri`, options));
    else if (type === 'blob') sources.push(decodeBlob(uri, `${at}.function_source_uri`));
    else throw new PluginFieldError(`${at}.function_source_type`, `must be file or blob: ${type}`, ' ');
    rules.push({
      path,
      method: text(entry.method, `${at}.method`, false).toUpperCase(),
      functionName,
      useSession: entry.use_session === true,
      proxyOnError: entry.proxy_on_error === true,
    });
  });
  return rules;
}

/** The middleware hooks of a JavaScript custom_middleware, and their sources in order. Other drivers: none. */
export function readMiddleware(
  def: Loose,
  options: ReadOptions,
): { hooks: Record<HookName, WrittenHook[]>; authCheck: WrittenHook | undefined; sources: string[] } {
  // Other drivers are refused by name (api/unsupported-fields.ts): their hooks are not JavaScript to compile.
  const declared = isObject(def.custom_middleware) ? def.custom_middleware : {};
  const section = JS_DRIVERS.includes(typeof declared.driver === 'string' ? declared.driver : '') ? declared : {};
  const sources: string[] = [];
  const hooks: Record<HookName, WrittenHook[]> = { pre: [], postKeyAuth: [], post: [], response: [] };
  for (const [field, key] of HOOKS) {
    const list = section[field];
    if (!Array.isArray(list)) continue;
    list.forEach((entry: unknown, index) => {
      const hook = readHook(entry, `custom_middleware.${field}[${index}]`, sources, options);
      if (hook) hooks[key].push(hook);
    });
  }
  // auth_check: one object; in use when it names a plugin (an empty name is Tyk's "no custom authentication").
  const auth = section.auth_check;
  const named = isObject(auth) && typeof auth.name === 'string' && auth.name !== '';
  const authCheck = named ? readHook(auth, 'custom_middleware.auth_check', sources, options) : undefined;
  return { hooks, authCheck, sources };
}

/** custom_middleware.auth_check names a JavaScript plugin: the API authenticates with it (Tyk's JSVM custom auth). */
export function usesJsAuthCheck(def: Loose): boolean {
  const declared = isObject(def.custom_middleware) ? def.custom_middleware : {};
  if (!JS_DRIVERS.includes(typeof declared.driver === 'string' ? declared.driver : '')) return false;
  const auth = declared.auth_check;
  return isObject(auth) && auth.disabled !== true && typeof auth.name === 'string' && auth.name !== '';
}

function readHook(entry: unknown, at: string, sources: string[], options: ReadOptions): WrittenHook | undefined {
  if (!isObject(entry) || entry.disabled === true) return undefined;
  const name = text(entry.name, `${at}.name`, true);
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) throw new PluginFieldError(`${at}.name`, `must be a JavaScript variable name: ${name}`, ' ');
  const code = typeof entry.code === 'string' ? entry.code : '';
  sources.push(code !== '' ? limited(code, `${at}.code`) : readSource(text(entry.path, `${at}.path`, true), `${at}.path`, options));
  return { name, requireSession: entry.require_session === true };
}

/**
 * What the gateway would refuse in a Classic definition's plugins, short of reading plugin files: the middleware,
 * a gRPC authentication plugin's id_extractor (grpc-auth-plugin.ts), then the virtual endpoints of the extended_paths
 * each version applies (its own, else the API's, unless use_extended_paths is false). Undefined: nothing.
 */
export function pluginProblem(def: Loose): { field: string; problem: string } | undefined {
  try {
    readMiddleware(def, {});
    readIdExtractor(def);
    const sources: string[] = [];
    const versionData = isObject(def.version_data) ? def.version_data : {};
    const versions = isObject(versionData.versions) ? Object.entries(versionData.versions) : [];
    for (const [name, info] of versions.length > 0 ? versions : [['', {}] as [string, unknown]]) {
      const version = isObject(info) ? info : {};
      if (version.use_extended_paths === false) continue;
      const own = version.extended_paths !== undefined;
      const paths = own ? version.extended_paths : def.extended_paths;
      const field = own ? `version_data.versions.${name}.extended_paths.virtual` : 'extended_paths.virtual';
      readVirtualEndpoints(isObject(paths) ? paths.virtual : undefined, field, sources, {});
    }
    return undefined;
  } catch (error) {
    if (error instanceof PluginFieldError) return { field: error.field, problem: error.problem };
    throw error;
  }
}

function readSource(path: string, field: string, options: ReadOptions): string {
  if (!options.readFile) return '';
  let source: string;
  try {
    source = options.readFile(path);
  } catch (error) {
    throw new PluginFieldError(field, `the plugin file cannot be read: ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return limited(source, field);
}

function decodeBlob(blob: string, field: string): string {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(blob.replace(/\s/g, ''))) throw new PluginFieldError(field, 'must be base64 (function_source_type blob)', ' ');
  return limited(Buffer.from(blob, 'base64').toString('utf8'), field);
}

function limited(source: string, field: string): string {
  if (Buffer.byteLength(source) > MAX_SOURCE_BYTES) throw new PluginFieldError(field, `the plugin source is larger than ${MAX_SOURCE_BYTES} bytes`);
  try {
    new Script(source); // parsed only, never run here: a syntax error refuses the API at load, not each request
  } catch (error) {
    throw new PluginFieldError(field, `the plugin does not compile: ${(error as Error).message}`);
  }
  return source;
}

function text(value: unknown, field: string, required: boolean): string {
  if (value === undefined || value === null) value = '';
  if (typeof value !== 'string') throw new PluginFieldError(field, 'must be a string', ' ');
  if (required && value === '') throw new PluginFieldError(field, 'is required', ' ');
  return value;
}

function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
