// custom_middleware.pre: JavaScript plugins run after CORS and before rate limits and authentication, without a
// session (Tyk Gateway's order). The step is request-hook.ts's.
import type { ApiSpec } from '../definition/api-spec.ts';
import type { Step } from '../pipeline/contract.ts';
import type { PipelineServices } from '../pipeline/services.ts';
import { requestHook } from './request-hook.ts';
import type { StepDescriptor } from '../pipeline/step.ts';

export function prePlugins(spec: ApiSpec, services: PipelineServices): Step | undefined {
  return spec.plugins && spec.plugins.pre.length > 0 ? requestHook('pre', spec.plugins, spec, services) : undefined;
}

/** custom_middleware.pre: after CORS, before versions, authentication and limits. */
export const prePluginsStep: StepDescriptor = {
  name: 'js-pre',
  enabledFor: (api) => api.plugins !== undefined,
  build: (api, services) => {
    const step = prePlugins(api, services);
    return step ? { request: step } : {};
  },
};
