// URL rewrites through a real gateway and a real echo upstream: the exact path and query the upstream receives,
// Classic (match_pattern groups, context variables, triggers on header / query / meta / payload, any and all,
// reverse, trigger captures) and OAS (urlRewrite with a trigger); requests the pattern does not match go through
// unchanged; a pattern that is not valid RE2 (a backreference, lookaround), and a tyk:// target naming no API, refuse
// the API (looping itself: looping.test.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey, classicApi, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Echo, type Upstream } from '../../support/upstream.ts';

describe('URL rewrites', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  let key: string;
  const last = (): Echo => upstream.requests.at(-1)!;

  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway({ transform_max_body_bytes: 64 });
    const classic = classicApi('rw-classic', '/rw', `${upstream.url}/base`, {
      extended_paths: {
        url_rewrites: [
          { path: '/users/{id}', method: 'GET', match_pattern: '^/users/(\\w+)(\\?.*)?$', rewrite_to: '/v2/people/$1$2' },
          {
            path: '/orders/{id}',
            method: 'GET',
            match_pattern: '/orders/(\\d+)',
            rewrite_to: '/orders/$1?by=$gw_context.request_data_by',
            triggers: [
              {
                on: 'all',
                options: { header_matches: { 'X-Beta': { match_rx: '^(on|yes)$' } }, session_meta_matches: { tier: { match_rx: 'gold' } } },
                rewrite_to: '/beta/orders/$1/$tyk_context.trigger-0-X-Beta-0',
              },
              {
                on: 'any',
                options: { query_val_matches: { legacy: { match_rx: '1' } }, header_matches: { 'X-Client': { match_rx: '.', reverse: true } } },
                rewrite_to: '/legacy/orders/$1',
              },
            ],
          },
          {
            path: '/search',
            method: 'POST',
            match_pattern: '/search',
            rewrite_to: '/search/all',
            triggers: [{ on: 'any', options: { payload_matches: { match_rx: '"kind":"(\\w+)"' } }, rewrite_to: '/search/$tyk_context.trigger-0-payload-0' }],
          },
        ],
      },
    });
    expect((await gw.admin('POST', '/gw/apis', classic)).status).toBe(200);
    const oas = {
      openapi: '3.0.3',
      info: { title: 'oas', version: '1' },
      paths: { '/items/{id}': { get: { operationId: 'getItem', responses: {} } } },
      'x-gw-api-gateway': {
        info: { id: 'rw-oas', name: 'rw oas', state: { active: true } },
        upstream: { url: upstream.url },
        server: { listenPath: { value: '/rw-oas', strip: true } },
        middleware: {
          operations: {
            getItem: {
              urlRewrite: {
                enabled: true,
                pattern: '/items/(\\d+)',
                rewriteTo: '/catalogue/$1',
                triggers: [{ condition: 'any', rules: [{ in: 'header', name: 'X-Archive', pattern: 'true' }], rewriteTo: '/archive/$1' }],
              },
            },
          },
        },
      },
    };
    expect((await gw.admin('POST', '/gw/apis/oas', oas)).status).toBe(200);
    await gw.reload();
    key = await addKey(gw, ['rw-classic'], { meta_data: { tier: 'gold' } });
  });

  it("Classic: groups of match_pattern (query included) under the target URL's base path", async () => {
    const result = await gw.call('/rw/users/ada?full=1', { headers: { authorization: key } });
    expect(result.status).toBe(200);
    expect(last().url).toBe('/base/v2/people/ada?full=1');
    await gw.call('/rw/users/ada', { headers: { authorization: key } });
    expect(last().url).toBe('/base/v2/people/ada');
  });

  it('Classic: no trigger holds -> rewrite_to with context variables; an `all` trigger needs every condition; an `any` trigger one, reverse included', async () => {
    await gw.call('/rw/orders/42?by=me', { headers: { authorization: key, 'x-client': 'web' } });
    expect(last().url).toBe('/base/orders/42?by=me');
    await gw.call('/rw/orders/42', { headers: { authorization: key, 'x-client': 'web', 'x-beta': 'yes' } });
    expect(last().url).toBe('/base/beta/orders/42/yes');
    await gw.call('/rw/orders/42', { headers: { authorization: key, 'x-client': 'web', 'x-beta': 'no' } });
    expect(last().url).toBe('/base/orders/42?by=');
    await gw.call('/rw/orders/42?legacy=1', { headers: { authorization: key, 'x-client': 'web' } });
    expect(last().url).toBe('/base/legacy/orders/42');
    await gw.call('/rw/orders/43', { headers: { authorization: key } });
    expect(last().url).toBe('/base/legacy/orders/43');
  });

  it('Classic: a payload trigger reads the body (the upstream still gets it); beyond transform_max_body_bytes 413', async () => {
    const result = await gw.call('/rw/search', { method: 'POST', headers: { authorization: key }, body: '{"kind":"books"}' });
    expect(result.status).toBe(200);
    expect(last().url).toBe('/base/search/books');
    expect(last().body).toBe('{"kind":"books"}');
    await gw.call('/rw/search', { method: 'POST', headers: { authorization: key }, body: '{}' });
    expect(last().url).toBe('/base/search/all');
    const big = await gw.call('/rw/search', { method: 'POST', headers: { authorization: key }, body: 'x'.repeat(65) });
    expect(big.status).toBe(413);
  });

  it('Classic: other paths and methods go through unchanged', async () => {
    await gw.call('/rw/other?q=1', { headers: { authorization: key } });
    expect(last().url).toBe('/base/other?q=1');
    await gw.call('/rw/users/ada', { method: 'DELETE', headers: { authorization: key } });
    expect(last().url).toBe('/base/users/ada');
  });

  it('OAS: urlRewrite with a header trigger', async () => {
    await gw.call('/rw-oas/items/5');
    expect(last().url).toBe('/catalogue/5');
    await gw.call('/rw-oas/items/5', { headers: { 'x-archive': 'true' } });
    expect(last().url).toBe('/archive/5');
  });

  it('refuses invalid, RE2-foreign and looping rewrites, naming the field', async () => {
    const refuse = async (rewrite: Record<string, unknown>, message: string): Promise<void> => {
      const api = classicApi('rw-bad', '/rw-bad', upstream.url, {
        extended_paths: { url_rewrites: [{ path: '/a', method: 'GET', match_pattern: '/a', rewrite_to: '/b', ...rewrite }] },
      });
      const created = await gw.admin('POST', '/gw/apis', api);
      expect(created.status).toBe(400);
      expect(created.json<{ message: string }>().message).toContain(message);
    };
    await refuse({ match_pattern: '/a/(' }, 'extended_paths.url_rewrites[0].match_pattern is not a valid RE2 regular expression');
    await refuse(
      { match_pattern: '/a/(\\w)\\1' },
      'extended_paths.url_rewrites[0].match_pattern is not a valid RE2 regular expression (backreferences are not supported',
    );
    await refuse({ rewrite_to: 'tyk:///b' }, 'extended_paths.url_rewrites[0].rewrite_to names no API to loop to');
    await refuse(
      { triggers: [{ on: 'any', options: { header_matches: { 'X-A': { match_rx: '[' } } }, rewrite_to: '/c' }] },
      'extended_paths.url_rewrites[0].triggers[0].options.header_matches.X-A.match_rx is not a valid RE2 regular expression',
    );
  });
});
