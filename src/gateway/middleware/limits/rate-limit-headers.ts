// X-RateLimit-Limit / -Remaining / -Reset: a response step, joined by every API that runs the key limits step
// (key-limits.ts decides the values and stores them in the context; this step writes them on whatever answers:
// the upstream, a mock, or a refusal). The quota by default, the rate limit with rate_limit_response_headers:
// rate_limits. Reset is a Unix timestamp in seconds. Never decides anything itself.
import type { ResponseStep } from '../../pipeline/contract.ts';

export const rateLimitHeaders: ResponseStep = {
  name: 'rate-limit-headers',
  head(ctx, head) {
    const values = ctx.rateLimitHeaders;
    if (!values) return;
    head.headers['x-ratelimit-limit'] = String(values.limit);
    head.headers['x-ratelimit-remaining'] = String(values.remaining);
    head.headers['x-ratelimit-reset'] = String(values.reset);
  },
};
