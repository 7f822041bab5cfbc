// Internal endpoints (Classic extended_paths.internal, OAS operations.<id>.internal): served only to a request that
// came in by internal looping (loop-step.ts); called directly, Tyk Gateway's 403 `Requested endpoint is forbidden`.
// Right after the version is chosen, before authentication: a client learns nothing more of the endpoint.
import type { Step } from '../pipeline/contract.ts';
import { endpointRule } from '../pipeline/endpoint-rule.ts';
import { Messages, writeError } from '../pipeline/error-reply.ts';
import type { PipelineServices } from '../pipeline/services.ts';
import { anyVersion, type StepDescriptor } from '../pipeline/step.ts';

export function internalEndpoints(services: PipelineServices): Step {
  const hideGenerator = services.config.hide_generator_header;
  return (ctx) => {
    if (ctx.loop || !endpointRule(ctx.version!.internalEndpoints, ctx)) return false;
    writeError(ctx.req, ctx.res, 403, Messages.endpointForbidden, { hideGenerator });
    return true;
  };
}

export const internalEndpointsStep: StepDescriptor = {
  name: 'internal-endpoints',
  enabledFor: (api) => anyVersion(api, (v) => v.internalEndpoints),
  build: (_api, services) => ({ request: internalEndpoints(services) }),
};
