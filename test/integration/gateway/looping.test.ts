// Internal looping (Tyk's tyk://) through a real gateway process and a real echo upstream. Tyk's documented sample,
// "multiple auth types for a single API": one keyless entry API whose URL rewrite triggers loop basic-auth requests
// into one internal API and bearer-token requests into another, both proxying to the same backend with a header
// telling which; the internal APIs' own authentication applies (Tyk's 401 and 403), they are unreachable on their
// listen paths (404), and nothing internal reaches the upstream or the client. Then the control parameters
// (method, loop_limit with Tyk's default 5 and its 500, the loop URL's query kept and the client's dropped), a name
// no API has (500), another organisation's API (500, as a name no API has: gw's difference), internal endpoints (403 direct, served to loops), rate limits skipped on a loop unless check_limits=true, proxy.target_url tyk://, and OAS
// (urlRewrite rewriteTo, upstream.url).
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey, classicApi, errorBody, startGateway, type HttpResult, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Echo, type Upstream } from '../../support/upstream.ts';

/** A Classic API's only version, with global request headers. */
function withHeaders(headers: Record<string, string>): Record<string, unknown> {
  return { version_data: { not_versioned: true, versions: { Default: { name: 'Default', use_extended_paths: true, global_headers: headers } } } };
}

function loopRule(path: string, rewriteTo: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { path, method: 'GET', match_pattern: `${path.replace('{rest}', '')}([^?]*)`, rewrite_to: rewriteTo, ...extra };
}

describe('internal looping', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  let tokenKey: string;
  let otherKey: string;
  const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const last = (): Echo => upstream.requests.at(-1)!;
  const expectNothingInternal = (result: HttpResult, echo: Echo): void => {
    for (const name of [...Object.keys(echo.headers), ...Object.keys(result.headers)]) expect(name).not.toMatch(/tyk-internal|loop/i);
  };

  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway();
    const apis = [
      // Tyk's sample: the entry API chooses by the Authorization header's scheme.
      classicApi('entry', '/entry', upstream.url, {
        use_keyless: true,
        extended_paths: {
          url_rewrites: [
            {
              path: '/{rest}',
              method: 'GET',
              match_pattern: '^/([^?]*)',
              rewrite_to: 'tyk://token-api/$1',
              triggers: [
                { on: 'any', options: { header_matches: { Authorization: { match_rx: '^Basic ' } } }, rewrite_to: 'tyk://basic-api/$1' },
                { on: 'any', options: { header_matches: { Authorization: { match_rx: '^Bearer ' } } }, rewrite_to: 'tyk://Token API/$1' },
              ],
            },
          ],
        },
      }),
      classicApi('basic-api', '/basic-internal', `${upstream.url}/backend`, {
        internal: true,
        use_basic_auth: true,
        ...withHeaders({ 'X-Auth-Type': 'basic' }),
      }),
      {
        ...classicApi('token-api', '/token-internal', `${upstream.url}/backend`, { internal: true, ...withHeaders({ 'X-Auth-Type': 'token' }) }),
        name: 'Token API',
      },
      classicApi('other', '/other', upstream.url),
      classicApi('controls', '/controls', upstream.url, {
        use_keyless: true,
        extended_paths: {
          url_rewrites: [
            loopRule('/method/{rest}', 'tyk://self/echo/$1?method=POST&from=loop'),
            loopRule('/forever', 'tyk://self/forever'),
            loopRule('/twice', 'tyk://self/forever?loop_limit=2'),
            loopRule('/nowhere', 'tyk://no-such-api/x'),
            loopRule('/reveal', 'tyk://self/secret'),
            loopRule('/foreign-id', 'tyk://foreign-internal/x'),
            loopRule('/foreign-name', 'tyk://Foreign Internal/x'),
          ],
          internal: [{ path: '/secret', method: 'GET' }],
        },
      }),
      classicApi('metered', '/metered', upstream.url, {
        use_keyless: true,
        global_rate_limit: { rate: 3, per: 3600 },
        extended_paths: {
          url_rewrites: [loopRule('/free/{rest}', 'tyk://self/echo/$1'), loopRule('/checked/{rest}', 'tyk://self/echo/$1?check_limits=true')],
        },
      }),
      classicApi('forwarder', '/forwarder', 'tyk://token-api/forwarded', { use_keyless: true }),
      // Another organisation's keyless internal API: no loop of this organisation's APIs reaches it.
      {
        ...classicApi('foreign-internal', '/foreign-internal', `${upstream.url}/foreign`, { internal: true, use_keyless: true }),
        name: 'Foreign Internal',
        org_id: 'another-org',
      },
      { ...classicApi('foreign-forwarder', '/foreign-forwarder', 'tyk://foreign-internal/x', { use_keyless: true }) },
    ];
    for (const api of apis) expect((await gw.admin('POST', '/gw/apis', api)).status).toBe(200);
    const oas = {
      openapi: '3.0.3',
      info: { title: 'loop-oas', version: '1' },
      paths: { '/orders/{id}': { get: { operationId: 'getOrder', responses: {} } } },
      'x-gw-api-gateway': {
        info: { id: 'loop-oas', name: 'loop oas', state: { active: true } },
        upstream: { url: 'tyk://token-api/from-oas' },
        server: { listenPath: { value: '/loop-oas', strip: true } },
        middleware: { operations: { getOrder: { urlRewrite: { enabled: true, pattern: '/orders/(\\d+)', rewriteTo: 'tyk://basic-api/oas-orders/$1' } } } },
      },
    };
    expect((await gw.admin('POST', '/gw/apis/oas', oas)).status).toBe(200);
    await gw.reload();
    tokenKey = await addKey(gw, ['token-api']);
    otherKey = await addKey(gw, ['other']);
    const alice = await gw.admin('POST', '/gw/keys/alice', {
      basic_auth_data: { password: 'alice-password' },
      access_rights: { 'basic-api': { api_id: 'basic-api', versions: [] } },
    });
    expect(alice.status).toBe(200);
  });

  it("Tyk's sample: basic-auth and bearer requests loop into their internal APIs and reach one backend, told apart by a header", async () => {
    const viaBasic = await gw.call('/entry/orders/7?a=b', { headers: { authorization: basic('alice', 'alice-password') } });
    expect(viaBasic.status).toBe(200);
    expect(last()).toMatchObject({ method: 'GET', url: '/backend/orders/7' }); // the client's query is dropped (Tyk)
    expect(last().headers['x-auth-type']).toBe('basic');
    expectNothingInternal(viaBasic, last());

    const viaToken = await gw.call('/entry/orders/8', { headers: { authorization: `Bearer ${tokenKey}` } });
    expect(viaToken.status).toBe(200);
    expect(last()).toMatchObject({ url: '/backend/orders/8' });
    expect(last().headers['x-auth-type']).toBe('token');
    expectNothingInternal(viaToken, last());
  });

  it("the internal API's authentication applies to the looped request, with Tyk's answers", async () => {
    const before = upstream.requests.length;
    const wrongPassword = await gw.call('/entry/orders/7', { headers: { authorization: basic('alice', 'wrong') } });
    expect(wrongPassword.status).toBe(401);
    const keyForAnotherApi = await gw.call('/entry/orders/7', { headers: { authorization: `Bearer ${otherKey}` } });
    expect(keyForAnotherApi.status).toBe(403);
    expect(keyForAnotherApi.text).toBe(errorBody('Access to this API has been disallowed'));
    const noCredential = await gw.call('/entry/orders/7');
    expect(noCredential.status).toBe(401);
    expect(noCredential.text).toBe(errorBody('Authorization field missing'));
    expect(upstream.requests.length).toBe(before);
  });

  it('internal APIs are not served on their listen paths (404), only through loops', async () => {
    expect((await gw.call('/basic-internal/orders/7', { headers: { authorization: basic('alice', 'alice-password') } })).status).toBe(404);
    expect((await gw.call('/token-internal/orders/7', { headers: { authorization: tokenKey } })).status).toBe(404);
  });

  it("method= overrides the looped request's method; the loop URL's other parameters are kept, the client's dropped", async () => {
    const result = await gw.call('/controls/method/x?client=1');
    expect(result.status).toBe(200);
    expect(last()).toMatchObject({ method: 'POST', url: '/echo/x?from=loop' });
  });

  it("more loops than the limit (Tyk's default 5, or loop_limit) answer 500 with Tyk's message; an unknown target 500", async () => {
    const forever = await gw.call('/controls/forever');
    expect(forever.status).toBe(500);
    expect(forever.text).toBe(errorBody('Loop level too deep. Found more than 5 loops in single request'));
    const twice = await gw.call('/controls/twice');
    expect(twice.status).toBe(500);
    expect(twice.text).toBe(errorBody('Loop level too deep. Found more than 2 loops in single request'));
    const nowhere = await gw.call('/controls/nowhere');
    expect(nowhere.status).toBe(500);
    expect(nowhere.text).toBe(errorBody("Can't detect loop target"));
  });

  it('a looped request skips the rate limit it already passed, unless check_limits=true', async () => {
    // global_rate_limit 3 an hour. Each request spends one on its way in; its loop spends none (Tyk), so both of
    // these pass (were loops counted, the second would be the fourth)...
    expect((await gw.call('/metered/free/a')).status).toBe(200);
    expect((await gw.call('/metered/free/b')).status).toBe(200);
    // ...and a loop with check_limits=true spends one: the third on the way in, the fourth in the loop.
    const checked = await gw.call('/metered/checked/c');
    expect(checked.status).toBe(429);
    expect(checked.text).toBe(errorBody('API Rate Limit Exceeded'));
  });

  it('proxy.target_url tyk://<api>/base forwards every request, its path and query, through that API', async () => {
    const result = await gw.call('/forwarder/items?page=2', { headers: { authorization: tokenKey } });
    expect(result.status).toBe(200);
    expect(last()).toMatchObject({ url: '/backend/forwarded/items?page=2' });
    expect(last().headers['x-auth-type']).toBe('token');
  });

  it('OAS: urlRewrite rewriteTo and upstream.url loop the same way', async () => {
    const rewritten = await gw.call('/loop-oas/orders/9', { headers: { authorization: basic('alice', 'alice-password') } });
    expect(rewritten.status).toBe(200);
    expect(last()).toMatchObject({ url: '/backend/oas-orders/9' });
    expect(last().headers['x-auth-type']).toBe('basic');
    const forwarded = await gw.call('/loop-oas/other', { headers: { authorization: tokenKey } });
    expect(forwarded.status).toBe(200);
    expect(last()).toMatchObject({ url: '/backend/from-oas/other' });
  });

  it("never loops into another organisation's API, by id, by name or as target_url: Tyk's 500 for a target no API has", async () => {
    const before = upstream.requests.length;
    for (const path of ['/controls/foreign-id', '/controls/foreign-name']) {
      const result = await gw.call(path);
      expect(result.status, path).toBe(500);
      expect(result.text).toBe(errorBody("Can't detect loop target"));
    }
    const forwarded = await gw.call('/foreign-forwarder/y');
    expect(forwarded.status).toBe(500);
    expect(forwarded.text).toBe(errorBody("Couldn't detect target"));
    expect(upstream.requests.length).toBe(before);
  });

  it('an internal endpoint answers a direct call 403 `Requested endpoint is forbidden` (Tyk) and a loop normally', async () => {
    const direct = await gw.call('/controls/secret');
    expect(direct.status).toBe(403);
    expect(direct.text).toBe(errorBody('Requested endpoint is forbidden'));
    const looped = await gw.call('/controls/reveal');
    expect(looped.status).toBe(200);
    expect(last()).toMatchObject({ url: '/secret' });
  });
});
