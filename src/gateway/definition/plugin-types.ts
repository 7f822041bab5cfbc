// What a compiled API carries of its JavaScript plugins (plugins/plugin-spec.ts compiles them): the hooks of
// custom_middleware and the rules of its virtual endpoints. Types only, here so that api-spec.ts need not import the
// plugins folder (which imports the definition layer).
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
