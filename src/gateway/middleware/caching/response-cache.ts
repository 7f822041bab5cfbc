// Response caching (Classic cache_options + extended_paths.cache / advance_cache_config, compiled by
// definition/response-cache.ts), on the embedded store or Redis (Store.getCachedResponse / putCachedResponse;
// DELETE /gw/cache/{apiId} empties an API's: admin/cache.ts).
// Only safe requests (GET, HEAD, OPTIONS) on a cached endpoint (or every one with cache_all_safe_requests) are
// looked up. The key, as Tyk's: the API, the method, the path and query (and the upstream path a URL rewrite
// chose), the values of cache_by_headers, and who asks — the session's key (whatever the authentication mode), or
// the client's address for a keyless request — so one client's answer is never another's; hashed (SHA-256), so no
// credential reaches the store.
// A hit is replayed as the upstream's answer through the response phase (every response step runs as for a fresh
// answer: rate-limit headers, CORS, transforms) with `X-Gw-Cached-Response: 1` (Tyk's
// X-Tyk-Cached-Response), and `If-None-Match` matching its ETag turns it into a 304 (Tyk's rule); the
// upstream is not called. A miss goes upstream with a capture (response-cache-capture.ts) that stores the answer.
// Placed last before the upstream call, after authentication, limits and request transforms. A store that fails a
// lookup is logged and the request goes upstream: the cache never fails a request.
import { createHash } from 'node:crypto';
import type { CacheEndpointRule, CacheSpec } from '../../definition/version-spec.ts';
import type { ProxyContext, ResponseHead, Step } from '../../pipeline/contract.ts';
import { endpointRule } from '../../pipeline/endpoint-rule.ts';
import { beginResponse } from '../../pipeline/response-phase.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import { decodeCachedAnswer, type CachedAnswer } from './cached-answer.ts';
import { CacheCapture } from './response-cache-capture.ts';
import { anyVersion, type StepDescriptor } from '../../pipeline/step.ts';

const CACHED_RESPONSE_HEADER = 'x-gw-cached-response';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function responseCache(services: PipelineServices): Step {
  const { store, log } = services;
  const maxBytes = services.config.cache_max_entry_bytes;
  const now = (): number => services.now();
  return (ctx) => {
    const cache = ctx.version!.cache;
    if (!cache || !SAFE_METHODS.has(ctx.method)) return false;
    const endpoint = cachedEndpoint(cache, ctx);
    if (endpoint === undefined) return false;
    const key = cacheKey(ctx, cache);
    return store.getCachedResponse(ctx.api.spec.id, key, now()).then(
      (entry) => {
        const answer = entry && decodeCachedAnswer(entry);
        if (answer) {
          replay(ctx, answer);
          return true;
        }
        const statuses = endpoint !== true && endpoint.statuses.length > 0 ? endpoint.statuses : cache.statuses;
        const ttlMs = (endpoint !== true && endpoint.ttlMs) || cache.ttlMs;
        ctx.responseCapture = new CacheCapture({ store, apiId: ctx.api.spec.id, key, cache, statuses, ttlMs, maxBytes, log, now });
        return false;
      },
      (error: unknown) => {
        log.warn(
          { api_id: ctx.api.spec.id, err: error instanceof Error ? error.message : String(error) },
          'response cache: lookup failed, asking the upstream',
        );
        return false;
      },
    );
  };
}

/** The endpoint rule that caches this request, `true` for cache_all_safe_requests, undefined: not cached. */
function cachedEndpoint(cache: CacheSpec, ctx: ProxyContext): CacheEndpointRule | true | undefined {
  return endpointRule(cache.endpoints, ctx) ?? (cache.allSafeRequests ? true : undefined);
}

function cacheKey(ctx: ProxyContext, cache: CacheSpec): string {
  const hash = createHash('sha256');
  const part = (value: string): void => {
    hash.update(String(value.length));
    hash.update(':');
    hash.update(value);
  };
  part(ctx.method);
  part(ctx.path + ctx.query);
  part(ctx.upstreamPath ?? '');
  for (const name of cache.keyHeaders) {
    const value = ctx.req.headers[name];
    part(Array.isArray(value) ? value.join(', ') : (value ?? ''));
  }
  // Who asks: the session's key (every authentication mode: token, basic, JWT, HMAC), else the credential, else the peer.
  part(ctx.key !== undefined ? `k${ctx.key.storageId}` : ctx.token !== undefined ? `t${ctx.token}` : `a${ctx.req.socket.remoteAddress ?? ''}`);
  return hash.digest('hex');
}

function replay(ctx: ProxyContext, answer: CachedAnswer): void {
  const headers: ResponseHead['headers'] = { ...answer.headers, [CACHED_RESPONSE_HEADER]: '1' };
  let status = answer.status;
  let body: Buffer | undefined = answer.body;
  const etag = headers.etag;
  const ifNoneMatch = ctx.req.headers['if-none-match'];
  if (typeof etag === 'string' && ifNoneMatch !== undefined && ifNoneMatch.includes(etag)) {
    status = 304;
    body = undefined;
  } else if (ctx.method !== 'HEAD') {
    headers['content-length'] = answer.body.length; // the body as stored, also for an answer that came chunked
  }
  const sink = beginResponse(ctx, { status, headers, origin: 'upstream' });
  if (!sink) return;
  if (body !== undefined && body.length > 0) sink.write(body);
  sink.end();
}

export const responseCacheStep: StepDescriptor = {
  name: 'response-cache',
  enabledFor: (api) => anyVersion(api, (v) => v.cache),
  build: (_api, services) => ({ request: responseCache(services) }),
};
