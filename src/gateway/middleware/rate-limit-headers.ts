// X-RateLimit-Limit / -Remaining / -Reset on answered requests: the quota by default, the rate limit with
// rate_limit_response_headers: rate_limits (set in key-limits.ts). Reset is a Unix timestamp in seconds.
import type { RateLimitHeaders } from '../proxy/context.ts';

export function rateLimitHeaderPairs(values: RateLimitHeaders | undefined): [string, string][] {
  if (!values) return [];
  return [
    ['X-RateLimit-Limit', String(values.limit)],
    ['X-RateLimit-Remaining', String(values.remaining)],
    ['X-RateLimit-Reset', String(values.reset)],
  ];
}
