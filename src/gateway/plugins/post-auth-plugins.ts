// custom_middleware.post_key_auth: JavaScript plugins run after authentication and before the key's access and limit
// checks (Tyk Gateway's order), given the session with require_session. The step is request-hook.ts's.
import type { ApiSpec } from '../definition/api-spec.ts';
import type { Step } from '../pipeline/contract.ts';
import type { PipelineServices } from '../pipeline/services.ts';
import { requestHook } from './request-hook.ts';
import type { StepDescriptor } from '../pipeline/step.ts';

export function postKeyAuthPlugins(spec: ApiSpec, services: PipelineServices): Step | undefined {
  return spec.plugins && spec.plugins.postKeyAuth.length > 0 ? requestHook('postKeyAuth', spec.plugins, spec, services) : undefined;
}

/** custom_middleware.post_key_auth: after authentication, before access rights and limits. */
export const postKeyAuthPluginsStep: StepDescriptor = {
  name: 'js-post-key-auth',
  enabledFor: (api) => api.plugins !== undefined,
  build: (api, services) => {
    const step = postKeyAuthPlugins(api, services);
    return step ? { request: step } : {};
  },
};
