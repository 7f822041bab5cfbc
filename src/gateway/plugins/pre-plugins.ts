// custom_middleware.pre: JavaScript plugins run after CORS and before rate limits and authentication, without a
// session (Tyk Gateway's order). The step is request-hook.ts's.
import type { ApiSpec } from '../definition/api-spec.ts';
import type { Step } from '../pipeline/contract.ts';
import type { PipelineServices } from '../pipeline/services.ts';
import { requestHook } from './request-hook.ts';

export function prePlugins(spec: ApiSpec, services: PipelineServices): Step | undefined {
  return spec.plugins && spec.plugins.pre.length > 0 ? requestHook('pre', spec.plugins, spec, services) : undefined;
}
