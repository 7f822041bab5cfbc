// Answers a request with a mock (Classic method_actions `reply`, OAS mockResponse): the configured code, headers
// and body. The answer goes through the API's response phase like the upstream's (so the X-RateLimit headers of a
// request that went through the limits are added there, not here).
import type { EndpointEntry, MockReply } from '../../definition/version-spec.ts';
import type { ProxyContext, ResponseHead } from '../../pipeline/contract.ts';
import { respond } from '../../pipeline/response-phase.ts';

/** The first entry matching the request path and method. */
export function matchEntry(entries: readonly EndpointEntry[], path: string, method: string): EndpointEntry | undefined {
  for (const entry of entries) {
    if ((entry.methods.size === 0 || entry.methods.has(method)) && entry.pattern.test(path)) return entry;
  }
  return undefined;
}

export function writeMock(ctx: ProxyContext, reply: MockReply): void {
  const headers: ResponseHead['headers'] = {};
  for (const [name, value] of reply.headers) {
    const key = name.toLowerCase();
    const prior = headers[key];
    headers[key] = prior === undefined ? value : [...(Array.isArray(prior) ? prior : [String(prior)]), value];
  }
  respond(ctx.res, { status: reply.code, headers, origin: 'mock' }, reply.body);
}
