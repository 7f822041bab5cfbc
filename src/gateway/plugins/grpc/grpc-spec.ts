// A Classic definition's gRPC plugins (custom_middleware with driver grpc), read once when the API is loaded: the
// hooks of pre, post_key_auth, post and response (entries with disabled skipped, a name required), and the
// CustomKeyCheck hook auth_check, active with enable_coprocess_auth or custom_plugin_auth_enabled as in Tyk Gateway.
// `path` is not used by gRPC plugins (Tyk ignores it too). The auth hook's session cache, id_extractor, is read by
// domain/grpc-auth-plugin.ts. A refusal is a DefinitionError naming the field.
import { GRPC_DRIVER, grpcAuthEnabled, readIdExtractor } from '../../../domain/grpc-auth-plugin.ts';
import { HOOKS } from '../../../domain/js-plugins.ts';
import { DefinitionError } from '../../definition/api-spec.ts';
import { AS_WRITTEN, refused, type FieldNaming } from '../plugin-spec.ts';
import type { GrpcHook, GrpcPluginsSpec } from '../../definition/plugin-types.ts';

type Loose = Record<string, unknown>;

/** `fieldOf` names a Classic field as the definition wrote it (an OAS definition's own path). */
export function classicGrpcPlugins(def: Loose, fieldOf: FieldNaming = AS_WRITTEN): GrpcPluginsSpec | undefined {
  const section = isObject(def.custom_middleware) ? def.custom_middleware : undefined;
  if (!section || section.driver !== GRPC_DRIVER) return undefined;
  const spec: GrpcPluginsSpec = { pre: [], postKeyAuth: [], post: [], response: [] };
  for (const [field, key] of HOOKS) {
    const list = section[field];
    if (!Array.isArray(list)) continue;
    list.forEach((entry: unknown, index) => {
      if (isObject(entry) && entry.disabled !== true) spec[key].push(hook(entry, `custom_middleware.${field}[${index}]`));
    });
  }
  const auth = section.auth_check;
  if (grpcAuthEnabled(def) && isObject(auth) && auth.disabled !== true) spec.auth = hook(auth, 'custom_middleware.auth_check');
  const idExtractor = refused(() => readIdExtractor(def), fieldOf);
  if (idExtractor) spec.idExtractor = idExtractor;
  const hooks = spec.pre.length + spec.postKeyAuth.length + spec.post.length + spec.response.length;
  if (hooks === 0 && !spec.auth) return undefined;
  return def.config_data_disabled === true ? spec : { ...spec, configData: def.config_data ?? {} };
}

function hook(entry: Loose, at: string): GrpcHook {
  if (typeof entry.name !== 'string' || entry.name === '') throw new DefinitionError(`${at}.name: a gRPC plugin hook needs a name`);
  return { name: entry.name, rawBodyOnly: entry.raw_body_only === true };
}

function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
