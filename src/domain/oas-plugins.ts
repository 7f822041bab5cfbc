// A Tyk OAS definition's plugin fields read as the Classic fields they stand for, as Tyk Gateway converts them
// (apidef/oas/middleware.go ExtractTo), so one reader (js-plugins.ts; the gateway's plugins/plugin-spec.ts and
// plugins/grpc/grpc-spec.ts) serves both formats:
//   middleware.global.pluginConfig.driver          -> custom_middleware.driver
//   middleware.global.pluginConfig.data            -> config_data = data.value, config_data_disabled = !data.enabled
//                                                     (no data: no config_data, as in Tyk)
//   middleware.global.prePlugins[]                 -> custom_middleware.pre[] (postAuthenticationPlugins -> post_key_auth,
//                                                     postPlugins -> post, responsePlugins -> response; the older
//                                                     prePlugin.plugins[] forms when the list is absent), each
//                                                     {enabled, functionName, path, code, rawBodyOnly, requireSession}
//                                                     -> {disabled: !enabled, name, path, code, raw_body_only, require_session}
//   <operation>.virtualEndpoint                    -> an extended_paths.virtual entry for the operation's path and method:
//                                                     {disabled: !enabled, response_function_name: functionName (else
//                                                     the older name), function_source_type blob with body, else file
//                                                     with path, use_session: requireSession, proxy_on_error: proxyOnError}
// `enabled` is required by Tyk: an entry without `enabled: true` is skipped. A reader's refusal names the Classic
// field; oasFieldOf turns it into the OAS one. Custom authentication, server.authentication.custom {enabled, config:
// {enabled, functionName, path, requireSession, rawBodyOnly, idExtractor}}, is custom_plugin_auth_enabled and
// auth_check; its idExtractor {enabled, source, with, config: {headerName, formParamName, regexp, regexpMatchIndex,
// xPathExp}} is custom_middleware.id_extractor (grpc-auth-plugin.ts). Refused by name (oasPluginRefusal): a driver
// other than JavaScript or grpc, a plugin bundle and an operation's postPlugins (Tyk's per-endpoint Go plugins).
import { ID_EXTRACTOR_FIELD, readIdExtractor } from './grpc-auth-plugin.ts';
import { PluginFieldError, readMiddleware, readVirtualEndpoints } from './js-plugins.ts';

type Loose = Record<string, unknown>;

/** The OAS hook lists and the Classic custom_middleware lists they become (js-plugins.ts HOOKS). */
const OAS_HOOKS = [
  ['prePlugins', 'prePlugin', 'pre'],
  ['postAuthenticationPlugins', 'postAuthenticationPlugin', 'post_key_auth'],
  ['postPlugins', 'postPlugin', 'post'],
  ['responsePlugins', 'responsePlugin', 'response'],
] as const;

const HOOK_LEAVES: Record<string, string> = { name: 'functionName', path: 'path', code: 'code', require_session: 'requireSession' };

/** One translated entry: where its Classic form is named, where its OAS form is, and how its fields are renamed. */
interface Renaming {
  classic: string;
  oas: string;
  leaves: Record<string, string>;
}

export interface OasVirtualEndpoint {
  operationId: string;
  /** An extended_paths.virtual entry without path and method (the operation's, filled in by the caller). */
  entry: Loose;
  /** The Classic field its reader names (`virtual.<operationId>`, read as a one-entry list). */
  field: string;
}

export interface OasPluginsAsClassic {
  /** custom_middleware, config_data, config_data_disabled: what readMiddleware and classicGrpcPlugins read. */
  classic: Loose;
  /** Enabled and disabled virtual endpoints, in the order of the operations. */
  virtualEndpoints: OasVirtualEndpoint[];
  /** A Classic field a reader names -> the OAS field it came from (relative to the extension). */
  oasFieldOf: (classicField: string) => string;
}

/** The extension's plugin fields in their Classic form (no checks: oasPluginRefusal and the readers decide). */
export function oasPluginsAsClassic(extension: unknown): OasPluginsAsClassic {
  const renamings: Renaming[] = [];
  const global = globalSection(extension);
  const config = isObject(global.pluginConfig) ? global.pluginConfig : {};
  const custom: Loose = { driver: typeof config.driver === 'string' ? config.driver : '' };
  for (const [list, older, classic] of OAS_HOOKS) {
    // Tyk gives the list precedence over the older { plugins: [...] } form.
    const olderSection = global[older];
    const olderForm = isObject(olderSection) ? olderSection.plugins : undefined;
    const [entries, at] = Array.isArray(global[list]) ? [global[list], list] : [olderForm, `${older}.plugins`];
    if (!Array.isArray(entries)) continue;
    custom[classic] = entries.map((entry: unknown, index) => {
      renamings.push({ classic: `custom_middleware.${classic}[${index}]`, oas: `middleware.global.${at}[${index}]`, leaves: HOOK_LEAVES });
      return hookEntry(entry);
    });
  }
  const data = isObject(config.data) ? config.data : undefined;
  const classic: Loose = { custom_middleware: custom, config_data: data?.value ?? {}, config_data_disabled: data?.enabled !== true };
  const customAuth = customAuthentication(extension);
  if (customAuth) {
    classic.custom_plugin_auth_enabled = true;
    custom.auth_check = hookEntry(customAuth.config);
    renamings.push({ classic: 'custom_middleware.auth_check', oas: 'server.authentication.custom.config', leaves: HOOK_LEAVES });
    const extractor = customAuth.config.idExtractor;
    if (isObject(extractor)) {
      custom.id_extractor = idExtractorEntry(extractor);
      renamings.push({ classic: ID_EXTRACTOR_FIELD, oas: 'server.authentication.custom.config.idExtractor', leaves: ID_EXTRACTOR_LEAVES });
    }
  }
  const virtualEndpoints: OasVirtualEndpoint[] = [];
  for (const [operationId, { operation, atOf }] of configuredOperations(extension)) {
    const virtual = operation.virtualEndpoint;
    if (!isObject(virtual)) continue;
    const field = `virtual.${operationId}`;
    const named = !given(virtual.functionName) && given(virtual.name) ? 'name' : 'functionName';
    const body = given(virtual.body);
    renamings.push({
      classic: `${field}[0]`,
      oas: atOf('virtualEndpoint'),
      leaves: { response_function_name: named, function_source_uri: body ? 'body' : 'path' },
    });
    virtualEndpoints.push({
      operationId,
      field,
      entry: {
        disabled: virtual.enabled !== true,
        response_function_name: virtual[named],
        function_source_type: body ? 'blob' : 'file',
        function_source_uri: body ? virtual.body : virtual.path,
        use_session: virtual.requireSession === true,
        proxy_on_error: virtual.proxyOnError === true,
      },
    });
  }
  return { classic, virtualEndpoints, oasFieldOf: (field) => renamed(field, renamings) };
}

/**
 * The first OAS plugin field the gateway cannot serve, with its path relative to the extension and why; undefined
 * when none. Fields set but not in use (an entry without `enabled: true`, a bundle not enabled) are not refused.
 */
export function oasPluginRefusal(extension: unknown): { field: string; message: string } | undefined {
  const global = globalSection(extension);
  const config = isObject(global.pluginConfig) ? global.pluginConfig : {};
  const driver = typeof config.driver === 'string' ? config.driver : '';
  if (!SERVED_DRIVERS.includes(driver))
    return {
      field: 'middleware.global.pluginConfig.driver',
      message:
        driver === 'goplugin'
          ? 'Go plugins are not supported by this gateway (JavaScript plugins with driver otto are)'
          : `custom plugins with driver ${JSON.stringify(driver)} are not supported by this gateway yet (JavaScript plugins use driver otto, gRPC plugins driver grpc)`,
    };
  if (isObject(config.bundle) && config.bundle.enabled === true)
    return {
      field: 'middleware.global.pluginConfig.bundle',
      message: 'plugin bundles are not supported by this gateway yet (plugins are read from files or inline)',
    };
  for (const [operationId, { operation, atOf }] of configuredOperations(extension)) {
    const plugins = operation.postPlugins;
    if (Array.isArray(plugins) && plugins.some((entry) => isObject(entry) && entry.enabled === true))
      return {
        field: atOf('postPlugins'),
        message: `per-endpoint plugins (Tyk's Go plugins for operation ${operationId}) are not supported by this gateway (JavaScript plugins with driver otto are)`,
      };
  }
  return undefined;
}

/**
 * server.authentication.custom when it authenticates the API (authentication and custom enabled): Tyk's
 * custom_plugin_auth_enabled, its config the auth_check hook (config.enabled false: no hook, and the API falls back
 * to the auth token as Tyk's does).
 */
function customAuthentication(extension: unknown): { config: Loose } | undefined {
  const server = isObject(extension) && isObject(extension.server) ? extension.server : {};
  const authentication = isObject(server.authentication) ? server.authentication : {};
  if (authentication.enabled !== true || !isObject(authentication.custom) || authentication.custom.enabled !== true) return undefined;
  return { config: isObject(authentication.custom.config) ? authentication.custom.config : {} };
}

/** Tyk's JavaScript drivers ('' read as otto, as in Classic) and grpc. */
const SERVED_DRIVERS: readonly string[] = ['', 'otto', 'javascript', 'grpc'];

/** The operations configured in the extension, each one's fields from Tyk's middleware.operations and gw's
 * operations together (as definition-rules/oas-definition.ts reads them); atOf names where a field was written. */
function configuredOperations(extension: unknown): Map<string, { operation: Loose; atOf: (field: string) => string }> {
  const ext = isObject(extension) ? extension : {};
  const middleware = isObject(ext.middleware) ? ext.middleware : {};
  const operations = new Map<string, { operation: Loose; places: Map<string, string> }>();
  for (const [section, at] of [
    [middleware.operations, 'middleware.operations'],
    [ext.operations, 'operations'],
  ] as const) {
    if (!isObject(section)) continue;
    for (const [id, operation] of Object.entries(section)) {
      if (!isObject(operation)) continue;
      const known = operations.get(id) ?? { operation: {}, places: new Map<string, string>() };
      for (const field of Object.keys(operation)) known.places.set(field, `${at}.${id}.${field}`);
      operations.set(id, { operation: { ...known.operation, ...operation }, places: known.places });
    }
  }
  return new Map(
    [...operations].map(([id, { operation, places }]) => [id, { operation, atOf: (field: string) => places.get(field) ?? `operations.${id}.${field}` }]),
  );
}

/** Classic id_extractor fields -> their OAS names, relative to idExtractor. */
const ID_EXTRACTOR_LEAVES: Record<string, string> = {
  extract_from: 'source',
  extract_with: 'with',
  'extractor_config.header_name': 'config.headerName',
  'extractor_config.param_name': 'config.formParamName',
  'extractor_config.regex_expression': 'config.regexp',
  'extractor_config.regex_match_index': 'config.regexpMatchIndex',
  'extractor_config.xpath_expression': 'config.xPathExp',
};

function idExtractorEntry(extractor: Loose): Loose {
  const config = isObject(extractor.config) ? extractor.config : {};
  return {
    disabled: extractor.enabled !== true,
    extract_from: extractor.source,
    extract_with: extractor.with,
    extractor_config: {
      header_name: config.headerName,
      param_name: config.formParamName,
      regex_expression: config.regexp,
      regex_match_index: config.regexpMatchIndex,
      xpath_expression: config.xPathExp,
    },
  };
}

function hookEntry(entry: unknown): Loose {
  if (!isObject(entry)) return { disabled: true };
  return {
    disabled: entry.enabled !== true,
    name: entry.functionName,
    path: entry.path,
    code: entry.code,
    raw_body_only: entry.rawBodyOnly === true,
    require_session: entry.requireSession === true,
  };
}

function given(value: unknown): boolean {
  return typeof value === 'string' && value !== '';
}

function renamed(field: string, renamings: Renaming[]): string {
  for (const { classic, oas, leaves } of renamings) {
    if (field === classic) return oas;
    if (!field.startsWith(`${classic}.`)) continue;
    const leaf = field.slice(classic.length + 1);
    return `${oas}.${leaves[leaf] ?? leaf}`;
  }
  return field;
}

function globalSection(extension: unknown): Loose {
  const middleware = isObject(extension) && isObject(extension.middleware) ? extension.middleware : {};
  return isObject(middleware.global) ? middleware.global : {};
}

function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What the gateway would refuse in the extension's plugins short of reading plugin files (the rules of Classic
 * plugins: js-plugins.ts; a gRPC hook without a name), named as in the OAS definition, relative to the extension.
 * Undefined: nothing.
 */
export function oasPluginProblem(extension: unknown): { field: string; problem: string } | undefined {
  const { classic, virtualEndpoints, oasFieldOf } = oasPluginsAsClassic(extension);
  try {
    readMiddleware(classic, {});
    readIdExtractor(classic);
    for (const { operationId, entry, field } of virtualEndpoints) readVirtualEndpoints([{ ...entry, path: `/${operationId}` }], field, [], {});
    const custom = classic.custom_middleware as Loose;
    // An empty auth_check name is Classic's "no custom authentication"; here the OAS field enabled it.
    const auth = custom.auth_check as Loose | undefined;
    if (auth && auth.disabled !== true && !given(auth.name)) throw new PluginFieldError('custom_middleware.auth_check.name', 'is required', ' ');
    if (custom.driver === 'grpc')
      for (const [, , list] of OAS_HOOKS) {
        const hooks = Array.isArray(custom[list]) ? (custom[list] as Loose[]) : [];
        const index = hooks.findIndex((hook) => hook.disabled !== true && !given(hook.name));
        if (index !== -1) throw new PluginFieldError(`custom_middleware.${list}[${index}].name`, 'a gRPC plugin hook needs a name');
      }
    return undefined;
  } catch (error) {
    if (error instanceof PluginFieldError) return { field: oasFieldOf(error.field), problem: error.problem };
    throw error;
  }
}
