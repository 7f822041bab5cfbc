// What a compiled API carries of its JavaScript plugins (plugins/plugin-spec.ts compiles them): the hooks of
// custom_middleware and the rules of its virtual endpoints. Types only, here so that api-spec.ts need not import the
// plugins folder (which imports the definition layer).
import type { IdExtractorSpec } from '../../domain/grpc-auth-plugin.ts';
import type { WrittenHook } from '../../domain/js-plugins.ts';
import type { PathPattern } from './path-pattern.ts';

export type MiddlewareHook = WrittenHook;

export interface PluginsSpec {
  /** The API's plugin source, compiled once per plugin worker (plugins/plugin-pool.ts PluginScript). */
  script: { readonly id: string; readonly source: string };
  pre: MiddlewareHook[];
  postKeyAuth: MiddlewareHook[];
  post: MiddlewareHook[];
  response: MiddlewareHook[];
  /** custom_middleware.auth_check: the plugin that authenticates the API's requests (plugins/auth-plugin.ts). */
  authCheck?: MiddlewareHook;
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

/** A gRPC plugin hook (custom_middleware with driver grpc): its name is sent as the Object's hook_name. */
export interface GrpcHook {
  name: string;
  /** raw_body_only: the body is sent as raw_body only, never as the `body` string. */
  rawBodyOnly: boolean;
}

/** What a compiled API carries of its gRPC plugins (plugins/grpc/grpc-spec.ts reads them). */
export interface GrpcPluginsSpec {
  pre: GrpcHook[];
  postKeyAuth: GrpcHook[];
  post: GrpcHook[];
  response: GrpcHook[];
  /** custom_middleware.auth_check with enable_coprocess_auth: the CustomKeyCheck hook authenticates requests. */
  auth?: GrpcHook;
  /** custom_middleware.id_extractor: the auth hook's sessions cached under the identity it extracts. */
  idExtractor?: IdExtractorSpec;
  /** config_data, sent JSON-encoded in the Object's spec map (absent when config_data_disabled). */
  configData?: unknown;
}
