// custom_middleware.post: JavaScript plugins run after every built-in request step, just before the upstream (Tyk
// Gateway's order), given the session with require_session. The step is request-hook.ts's.
import type { ApiSpec } from '../definition/api-spec.ts';
import type { Step } from '../pipeline/contract.ts';
import type { PipelineServices } from '../pipeline/services.ts';
import { requestHook } from './request-hook.ts';
import type { StepDescriptor } from '../pipeline/step.ts';

export function postPlugins(spec: ApiSpec, services: PipelineServices): Step | undefined {
  return spec.plugins && spec.plugins.post.length > 0 ? requestHook('post', spec.plugins, spec, services) : undefined;
}

/** custom_middleware.post: after the response cache, before the circuit breaker and the upstream. */
export const postPluginsStep: StepDescriptor = {
  name: 'js-post',
  enabledFor: (api) => api.plugins !== undefined,
  build: (api, services) => {
    const step = postPlugins(api, services);
    return step ? { request: step } : {};
  },
};
