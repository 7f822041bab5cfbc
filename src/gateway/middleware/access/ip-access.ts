// The IP allow and block lists of an API (definition/ip-access.ts), the first request step: a client outside the
// allow list, or inside the block list, is answered 403 `access from this IP has been disallowed` (Tyk Gateway's
// IPWhiteListMiddleware and IPBlackListMiddleware: same status and message for both) before any other step sees
// the request. The client's address: middleware/access/client-address.ts (trusted_proxies decide whether
// X-Forwarded-For counts). An address that cannot be read is in neither list: the allow list refuses it.
import type { IpAccessSpec } from '../../definition/api-spec.ts';
import type { Step } from '../../pipeline/contract.ts';
import { Messages, writeError } from '../../pipeline/error-reply.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import { clientAddress } from './client-address.ts';
import type { StepDescriptor } from '../../pipeline/step.ts';

export function ipAccess(lists: IpAccessSpec, services: PipelineServices): Step {
  const hideGenerator = services.config.hide_generator_header;
  const { allow, block } = lists;
  return (ctx) => {
    const address = clientAddress(ctx.req, services.trustedProxies);
    if ((allow && !allow.includes(address)) || block?.includes(address)) {
      writeError(ctx.req, ctx.res, 403, Messages.ipDisallowed, { hideGenerator });
      return true;
    }
    return false;
  };
}

export const ipAccessStep: StepDescriptor = {
  name: 'ip-access',
  enabledFor: (api) => api.ipAccess !== undefined,
  build: (api, services) => ({ request: ipAccess(api.ipAccess!, services) }),
};
