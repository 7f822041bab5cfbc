// Fields of Tyk's Classic definition the gateway does not implement yet, accepted by the schema (so Tyk's
//  published samples apply) but refused when in use, by the gateway, the admission webhook and the dashboard's
// writes alike, naming the field — never silently ignored. "In use": a list with an entry that is not disabled, a
// flag set, a custom middleware named. Shared by all three so they cannot disagree. Never throws.

import { JS_DRIVERS } from './js-plugins.ts';

/** Fields of the definition (dotted paths from its root): what makes them in use, and what they are. */
const API_FIELDS: Record<string, { what: string; inUse: (value: unknown, def: Record<string, unknown>) => boolean; message?: (value: unknown) => string }> = {
  custom_middleware: {
    what: 'custom middleware plugins other than JavaScript (driver otto) and gRPC (driver grpc)',
    inUse: (value) =>
      isObject(value) && !PLUGIN_DRIVERS.includes(typeof value.driver === 'string' ? value.driver : '') && Object.values(value).some(namesMiddleware),
    message: (value) =>
      isObject(value) && value.driver === 'goplugin'
        ? GO_PLUGINS
        : `custom middleware plugins with driver ${JSON.stringify(isObject(value) ? (value.driver ?? '') : '')} are not supported by this gateway yet (JavaScript plugins use driver otto, gRPC plugins driver grpc)`,
  },
  use_go_plugin_auth: { what: 'Go plugin authentication', inUse: (value) => value === true, message: () => GO_PLUGINS },
  analytics_plugin: { what: 'a Go analytics plugin', inUse: (value) => isObject(value) && value.enable === true, message: () => GO_PLUGINS },
  'proxy.disable_strip_slash': { what: 'keeping the slash after a stripped listen path', inUse: (value) => value === true },
  'definition.url_versioning_pattern': { what: 'a pattern for url-located versions', inUse: (value) => typeof value === 'string' && value !== '' },
  session_lifetime: { what: 'a lifetime for the keys of an API', inUse: (value) => typeof value === 'number' && value > 0 },
};

/** JavaScript drivers and gRPC (its hooks go to the plugin server named by the gateway's coprocess_options). */
const PLUGIN_DRIVERS: readonly string[] = [...JS_DRIVERS, 'grpc'];

const GO_PLUGINS = 'Go plugins are not supported by this gateway (JavaScript plugins with driver otto are)';

/** extended_paths lists. */
const PATH_FIELDS: Record<string, string> = {};

export interface UnsupportedUse {
  /** Relative to the object checked: `session_lifetime`, `virtual[0]`. */
  field: string;
  message: string;
}

/** Every field refused while in use, for the README's list: `proxy.disable_strip_slash`, `extended_paths.virtual`. */
export const REFUSED_FIELDS: readonly { field: string; what: string }[] = [
  ...Object.entries(API_FIELDS).map(([field, rule]) => ({ field, what: rule.what })),
  ...Object.entries(PATH_FIELDS).map(([name, what]) => ({ field: `extended_paths.${name}`, what })),
];

export function unsupportedApiFields(def: Record<string, unknown>): UnsupportedUse[] {
  return Object.entries(API_FIELDS)
    .filter(([path, rule]) => rule.inUse(valueAt(def, path), def))
    .map(([name, rule]) => ({
      field: name,
      message: rule.message ? rule.message(valueAt(def, name)) : `${rule.what} is not supported by this gateway yet`,
    }));
}

export function unsupportedPathFields(paths: Record<string, unknown>): UnsupportedUse[] {
  const uses: UnsupportedUse[] = [];
  for (const [name, what] of Object.entries(PATH_FIELDS)) {
    const list = paths[name];
    if (!Array.isArray(list)) continue;
    const index = list.findIndex((entry) => !(isObject(entry) && entry.disabled === true));
    if (index !== -1) uses.push({ field: `${name}[${index}]`, message: `${what} is not supported by this gateway yet` });
  }
  return uses;
}

/**
 * Every field in use in a whole Classic definition, named from its root: the API's fields, then the extended_paths
 * each version applies (its own, else the API's, unless use_extended_paths is false), as the gateway compiles them.
 */
export function unsupportedDefinitionFields(def: Record<string, unknown>): UnsupportedUse[] {
  const uses = unsupportedApiFields(def);
  const versionData = def.version_data;
  const versions = isObject(versionData) && isObject(versionData.versions) ? Object.entries(versionData.versions) : [];
  const applied = versions.length > 0 ? versions : [['', {}] as [string, unknown]];
  const seen = new Set<string>();
  for (const [name, value] of applied) {
    const info = isObject(value) ? value : {};
    if (info.use_extended_paths === false) continue;
    const own = info.extended_paths !== undefined;
    const field = own ? `version_data.versions.${name}.extended_paths` : 'extended_paths';
    const paths = own ? info.extended_paths : def.extended_paths;
    if (seen.has(field) || !isObject(paths)) continue;
    seen.add(field);
    uses.push(...unsupportedPathFields(paths).map((use) => ({ field: `${field}.${use.field}`, message: use.message })));
  }
  return uses;
}

function valueAt(def: Record<string, unknown>, path: string): unknown {
  let value: unknown = def;
  for (const segment of path.split('.')) value = isObject(value) ? value[segment] : undefined;
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A custom_middleware section names a plugin: a non-empty list, or an object with a name (auth_check). */
function namesMiddleware(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return isObject(value) && typeof value.name === 'string' && value.name !== '';
}
