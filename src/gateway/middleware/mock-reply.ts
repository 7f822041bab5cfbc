// Answers a request with a mock (Classic method_actions `reply`, OAS mockResponse): the configured code, headers
// and body, written as is, plus the X-RateLimit headers when the request went through the limits.
import type { EndpointEntry, MockReply } from '../definition/api-spec.ts';
import type { ProxyContext } from '../proxy/context.ts';
import { rateLimitHeaderPairs } from './rate-limit-headers.ts';

/** The first entry matching the request path and method. */
export function matchEntry(entries: readonly EndpointEntry[], path: string, method: string): EndpointEntry | undefined {
  for (const entry of entries) {
    if ((entry.methods.size === 0 || entry.methods.has(method)) && entry.pattern.test(path)) return entry;
  }
  return undefined;
}

export function writeMock(ctx: ProxyContext, reply: MockReply): void {
  const headers: [string, string][] = [...reply.headers, ...rateLimitHeaderPairs(ctx.rateLimitHeaders)];
  ctx.res.writeHead(reply.code, headers.flat());
  ctx.res.end(reply.body);
}
