// The API-wide rate limit (global_rate_limit): all clients of the API together, keyless ones included.
// Over it: 429 `API Rate Limit Exceeded` with Retry-After, and a RateLimitExceeded event.
import type { Step } from '../../pipeline/contract.ts';
import { Messages, writeError } from '../../pipeline/error-reply.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import { requestEvent, retryAfterSeconds } from '../recording/request-event.ts';
import type { StepDescriptor } from '../../pipeline/step.ts';
import { limitsWaived } from '../../looping/waived-limits.ts';

export function apiRateLimit(limit: { rate: number; perMs: number }, services: PipelineServices): Step {
  const hideGenerator = services.config.hide_generator_header;
  return async (ctx) => {
    if (limitsWaived(ctx)) return false; // a looped request (Tyk's check_limits)
    const result = await services.store.checkLimits({ rate: { key: `api/${ctx.api.spec.id}`, rate: limit.rate, perMs: limit.perMs } }, services.now());
    if (result.outcome !== 'rate_limited') return false;
    services.events.emit(requestEvent(ctx, 'RateLimitExceeded', 'API rate limit exceeded', { scope: 'api' }));
    writeError(ctx.req, ctx.res, 429, Messages.apiRateLimited, { hideGenerator, headers: { 'Retry-After': retryAfterSeconds(result.rate.retryAfterMs) } });
    return true;
  };
}

export const apiRateLimitStep: StepDescriptor = {
  name: 'api-rate-limit',
  enabledFor: (api) => api.globalRateLimit !== undefined,
  build: (api, services) => ({ request: apiRateLimit(api.globalRateLimit!, services) }),
};
