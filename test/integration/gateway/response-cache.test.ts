// Response caching (cache_options + extended_paths.cache / advance_cache_config) through a real gateway process in
// front of a real echo upstream, on the embedded store and on a real Redis: a miss goes upstream and a hit does not
// (X-Gw-Cached-Response: 1, the same bytes), entries expire after their TTL, unsafe methods are never cached, and
// statuses, Set-Cookie, upstream cache control, cache_by_headers and the entry size bound decide what is kept; the
// OAS form (middleware.global.cache, operations.<id>.cache) likewise.
// Expiry is waited for (polling until the answer is fresh again), never slept.
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey, classicApi, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startRedis } from '../../support/redis.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';
import { waitUntil } from '../../support/wait.ts';

const CACHED = 'x-gw-cached-response';

describe.each(['embedded', 'redis'] as const)('response cache on the %s store', (storeKind) => {
  let gw: RunningGateway;
  let other: RunningGateway | undefined;
  let redisPort = 0;
  let upstream: Upstream;
  const calls = (path: string): number => upstream.requests.filter((r) => r.url === path).length;

  beforeAll(async () => {
    upstream = await startUpstream((req, res) => {
      if (req.url === '/cookie') {
        res.writeHead(200, { 'set-cookie': 'session=abc', 'content-type': 'text/plain' });
        res.end(`cookie ${calls('/cookie')}`);
        return true;
      }
      if (req.url === '/etag') {
        res.writeHead(200, { etag: '"v1"', 'content-type': 'text/plain' });
        res.end('tagged');
        return true;
      }
      if (req.url?.startsWith('/controlled')) {
        res.writeHead(200, { 'x-gw-cache-action-set': '1', 'x-gw-cache-action-set-ttl': '60', 'content-type': 'text/plain' });
        res.end(`controlled ${calls(req.url)}`);
        return true;
      }
      return false;
    });
    const config: Record<string, unknown> = { cache_max_entry_bytes: 1000 };
    if (storeKind === 'redis') {
      const redis = await startRedis();
      redisPort = redis.port;
      config.storage = { type: 'redis', host: '127.0.0.1', port: redis.port, key_prefix: 'gwcache:' };
    }
    gw = await startGateway(config);
    const apis = [
      classicApi('cached', '/cached', upstream.url, {
        use_keyless: true,
        cache_options: { enable_cache: true, cache_timeout: 60, cache_response_codes: [200], cache_by_headers: ['X-Tenant'] },
        extended_paths: {
          cache: ['/items', '/status/{code}', '/cookie', '/bytes/{n}', '/posted', '/etag'],
          advance_cache_config: [{ path: '/short', method: 'GET', timeout: 1 }],
        },
      }),
      classicApi('controlled', '/controlled-api', upstream.url, {
        use_keyless: true,
        cache_options: { enable_cache: true, cache_all_safe_requests: true, enable_upstream_cache_control: true },
      }),
      classicApi('private', '/private', upstream.url, { use_basic_auth: true, cache_options: { enable_cache: true }, extended_paths: { cache: ['/mine'] } }),
      classicApi('metered', '/metered', upstream.url, { cache_options: { enable_cache: true }, extended_paths: { cache: ['/usage'] } }),
      classicApi('uncached', '/uncached', upstream.url, { use_keyless: true, cache_options: { enable_cache: false }, extended_paths: { cache: ['/items'] } }),
    ];
    for (const api of apis) {
      const created = await gw.admin('POST', '/gw/apis', api);
      expect(created.status, created.text).toBe(200);
    }
    const oas = {
      openapi: '3.0.3',
      info: { title: 'oas cache', version: '1' },
      paths: { '/report': { get: { operationId: 'report', responses: {} } }, '/live': { get: { operationId: 'live', responses: {} } } },
      'x-gw-api-gateway': {
        info: { id: 'oas-cache', name: 'oas cache', state: { active: true } },
        upstream: { url: upstream.url },
        server: { listenPath: { value: '/oas-cache', strip: true } },
        middleware: { global: { cache: { enabled: true, timeout: 60 } }, operations: { report: { cache: { enabled: true } } } },
      },
    };
    const oasCreated = await gw.admin('POST', '/gw/apis/oas', oas);
    expect(oasCreated.status, oasCreated.text).toBe(200);
    await gw.reload();
    if (storeKind === 'redis') other = await startGateway(config);
  });

  it('answers a repeated GET from the cache: the upstream is called once, the hit carries X-Gw-Cached-Response and the same bytes', async () => {
    const miss = await gw.call('/cached/items?page=1');
    expect(miss.status).toBe(200);
    expect(miss.headers[CACHED]).toBeUndefined();
    const hit = await gw.call('/cached/items?page=1');
    expect(hit.status).toBe(200);
    expect(hit.headers[CACHED]).toBe('1');
    expect(hit.text).toBe(miss.text);
    expect(hit.headers['x-upstream']).toBe('yes');
    expect(calls('/items?page=1')).toBe(1);
    // Another query is another entry.
    expect((await gw.call('/cached/items?page=2')).headers[CACHED]).toBeUndefined();
    expect(calls('/items?page=2')).toBe(1);
  });

  it('answers a cached answer whose ETag the client names in If-None-Match with 304 and no body', async () => {
    expect((await gw.call('/cached/etag')).text).toBe('tagged');
    const notModified = await gw.call('/cached/etag', { headers: { 'if-none-match': '"v1"' } });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');
    expect(notModified.headers[CACHED]).toBe('1');
    const other = await gw.call('/cached/etag', { headers: { 'if-none-match': '"v0"' } });
    expect(other.status).toBe(200);
    expect(other.text).toBe('tagged');
    expect(calls('/etag')).toBe(1);
  });

  it('expires an entry after its TTL (advance_cache_config timeout: 1 s): the upstream is asked again', async () => {
    expect((await gw.call('/cached/short')).headers[CACHED]).toBeUndefined();
    expect((await gw.call('/cached/short')).headers[CACHED]).toBe('1');
    expect(calls('/short')).toBe(1);
    await waitUntil('the cached answer to expire', async () => (await gw.call('/cached/short')).headers[CACHED] === undefined);
    expect(calls('/short')).toBe(2);
    expect((await gw.call('/cached/short')).headers[CACHED]).toBe('1');
  });

  it('never caches a POST, and caches nothing while enable_cache is off', async () => {
    for (let i = 0; i < 2; i++) {
      const posted = await gw.call('/cached/posted', { method: 'POST', body: 'x' });
      expect(posted.status).toBe(200);
      expect(posted.headers[CACHED]).toBeUndefined();
    }
    expect(calls('/posted')).toBe(2);
    for (let i = 0; i < 2; i++) expect((await gw.call('/uncached/items')).headers[CACHED]).toBeUndefined();
    expect(calls('/items')).toBe(2);
  });

  it('keeps only cache_response_codes, no Set-Cookie answer and no body over cache_max_entry_bytes', async () => {
    for (let i = 0; i < 2; i++) expect((await gw.call('/cached/status/503')).status).toBe(503);
    expect(calls('/status/503')).toBe(2);
    for (let i = 0; i < 2; i++) expect((await gw.call('/cached/cookie')).headers[CACHED]).toBeUndefined();
    expect(calls('/cookie')).toBe(2);
    for (let i = 0; i < 2; i++) expect((await gw.call('/cached/bytes/1001')).text).toHaveLength(1001);
    expect(calls('/bytes/1001')).toBe(2);
    await gw.call('/cached/bytes/1000');
    expect((await gw.call('/cached/bytes/1000')).headers[CACHED]).toBe('1');
  });

  it('keys by cache_by_headers: another X-Tenant is another entry', async () => {
    expect((await gw.call('/cached/items?t', { headers: { 'x-tenant': 'a' } })).headers[CACHED]).toBeUndefined();
    expect((await gw.call('/cached/items?t', { headers: { 'x-tenant': 'b' } })).headers[CACHED]).toBeUndefined();
    expect((await gw.call('/cached/items?t', { headers: { 'x-tenant': 'a' } })).headers[CACHED]).toBe('1');
    expect(calls('/items?t')).toBe(2);
  });

  it('with enable_upstream_cache_control caches only answers the upstream marked with X-Gw-Cache-Action-Set', async () => {
    for (let i = 0; i < 2; i++) expect((await gw.call('/controlled-api/plain')).headers[CACHED]).toBeUndefined();
    expect(calls('/plain')).toBe(2);
    const first = await gw.call('/controlled-api/controlled');
    const second = await gw.call('/controlled-api/controlled');
    expect(second.headers[CACHED]).toBe('1');
    expect(second.text).toBe(first.text);
    expect(calls('/controlled')).toBe(1);
  });

  it("forgets an API's cached answers on DELETE /gw/cache/{apiId} (Tyk's cache invalidation)", async () => {
    await gw.call('/cached/items?flush');
    expect((await gw.call('/cached/items?flush')).headers[CACHED]).toBe('1');
    const flushed = await gw.admin('DELETE', '/gw/cache/cached');
    expect(flushed.status).toBe(200);
    expect(flushed.json()).toEqual({ status: 'ok', message: 'cache invalidated' });
    expect((await gw.call('/cached/items?flush')).headers[CACHED]).toBeUndefined();
    expect(calls('/items?flush')).toBe(2);
  });

  it("keeps each user's answer to that user: two basic-auth users from one address get their own entries", async () => {
    for (const user of ['alice', 'bob']) {
      const created = await gw.admin('POST', `/gw/keys/${user}`, {
        basic_auth_data: { password: `${user}-pw` },
        access_rights: { private: { api_id: 'private', versions: [] } },
      });
      expect(created.status, created.text).toBe(200);
    }
    const as = (user: string) => ({ headers: { authorization: `Basic ${Buffer.from(`${user}:${user}-pw`).toString('base64')}` } });
    expect((await gw.call('/private/mine', as('alice'))).headers[CACHED]).toBeUndefined();
    expect((await gw.call('/private/mine', as('alice'))).headers[CACHED]).toBe('1');
    const bob = await gw.call('/private/mine', as('bob'));
    expect(bob.status).toBe(200);
    expect(bob.headers[CACHED]).toBeUndefined();
    expect(calls('/mine')).toBe(2);
    expect((await gw.call('/private/mine')).status).toBe(401); // no credentials: refused before the cache
  });

  it("counts a hit against the key's quota and answers it with the key's current X-RateLimit headers", async () => {
    const key = await addKey(gw, ['metered'], { quota_max: 3, quota_renewal_rate: 3600 });
    const get = () => gw.call('/metered/usage', { headers: { authorization: key } });
    const miss = await get();
    expect(miss.headers['x-ratelimit-remaining']).toBe('2');
    const hit = await get();
    expect(hit.headers[CACHED]).toBe('1');
    expect(hit.headers['x-ratelimit-remaining']).toBe('1');
    expect((await get()).headers['x-ratelimit-remaining']).toBe('0');
    expect((await get()).status).toBe(403); // over quota: refused before the cache is asked
    expect(calls('/usage')).toBe(1);
  });

  it('caches the OAS operations whose cache is enabled (middleware.global.cache + operations.<id>.cache)', async () => {
    for (let i = 0; i < 2; i++) await gw.call('/oas-cache/report');
    expect((await gw.call('/oas-cache/report')).headers[CACHED]).toBe('1');
    expect(calls('/report')).toBe(1);
    for (let i = 0; i < 2; i++) expect((await gw.call('/oas-cache/live')).headers[CACHED]).toBeUndefined();
    expect(calls('/live')).toBe(2);
  });

  // Only a Redis store is shared: the embedded store belongs to one gateway (registered for Redis only).
  if (storeKind === 'redis') {
    it('shares entries between the gateways of one Redis', async () => {
      const entries = (): string[] =>
        execFileSync('redis-cli', ['-p', String(redisPort), '--scan', '--pattern', 'gwcache:cache:*'], { encoding: 'utf8' })
          .split('\n')
          .filter(Boolean);
      const before = new Set(entries());
      await gw.call('/cached/items?shared');
      // The answer is stored after it is sent: wait for its entry in Redis before asking the other gateway.
      await waitUntil('the answer stored in Redis', () => entries().some((key) => !before.has(key)));
      await other!.reload();
      const hit = await other!.call('/cached/items?shared');
      expect(hit.headers[CACHED]).toBe('1');
      expect(calls('/items?shared')).toBe(1);
    });
  }
});
