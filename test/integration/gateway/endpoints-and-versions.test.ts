// Per-endpoint behaviour: enforced timeouts (Classic hard_timeouts, OAS enforceTimeout), mocks and endpoint lists,
// and API versions, with Tyk's codes and messages. A real gateway process and real upstreams.
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey, classicApi, errorBody, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { startUpstream, type Echo, type Upstream } from '../../support/upstream.ts';

describe('endpoints and versions', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway({ proxy_default_timeout: 1.5 });
    const classic = [
      classicApi('timed', '/timed', upstream.url, {
        use_keyless: true,
        extended_paths: { hard_timeouts: [{ path: '/delay/{ms}', method: 'GET', timeout: 1 }] },
      }),
      classicApi('mocked', '/mocked', upstream.url, {
        extended_paths: {
          white_list: [
            { path: '/status/{code}', method_actions: { GET: { action: 'reply', code: 202, data: '{"mocked":true}', headers: { 'x-mock': 'white' } } } },
            { path: '/allowed', method_actions: { GET: { action: 'no_action' } } },
          ],
          black_list: [
            { path: '/admin', method: 'GET' },
            { path: '/teapot', method_actions: { GET: { action: 'reply', code: 418, data: 'short and stout' } } },
          ],
          ignored: [{ path: '/health', method_actions: { GET: { action: 'no_action' } } }],
        },
      }),
      classicApi('by-header', '/by-header', upstream.url, {
        use_keyless: true,
        definition: { location: 'header', key: 'x-api-version', strip_versioning_data: true },
        version_data: {
          not_versioned: false,
          default_version: 'v1',
          versions: { v1: { name: 'v1' }, v2: { name: 'v2', override_target: `${upstream.url}/v2-target` }, old: { name: 'old', expires: '2020-01-01 00:00' } },
        },
      }),
      classicApi('by-param', '/by-param', upstream.url, {
        use_keyless: true,
        definition: { location: 'url-param', key: 'version', strip_versioning_data: true },
        version_data: { not_versioned: false, versions: { v1: { name: 'v1' } } },
      }),
      classicApi('by-url', '/by-url', upstream.url, {
        use_keyless: true,
        definition: { location: 'url', strip_versioning_data: true, fallback_to_default: true },
        version_data: { not_versioned: false, default_version: 'v1', versions: { v1: { name: 'v1' }, v2: { name: 'v2' } } },
      }),
    ];
    for (const api of classic) expect((await gw.admin('POST', '/gw/apis', api)).status, JSON.stringify(api)).toBe(200);
    const oas = {
      openapi: '3.0.3',
      info: { title: 'oas', version: '1' },
      components: { securitySchemes: { key: { type: 'apiKey', name: 'X-Key', in: 'header' } } },
      security: [{ key: [] }],
      paths: {
        '/delay/{ms}': { get: { operationId: 'slow', responses: {} } },
        '/pets/{id}': { get: { operationId: 'getPet', responses: {} } },
      },
      'x-gw-api-gateway': {
        info: { id: 'oas-ops', name: 'oas ops', state: { active: true } },
        upstream: { url: upstream.url },
        server: { listenPath: { value: '/oas-ops', strip: true }, authentication: { enabled: true, securitySchemes: { key: { enabled: true } } } },
        operations: {
          slow: { enforceTimeout: { enabled: true, value: 0.5 } },
          getPet: { mockResponse: { enabled: true, code: 200, body: '{"name":"rex"}', headers: [{ name: 'x-mock', value: 'oas' }] } },
        },
        skipQuota: true,
      },
    };
    expect((await gw.admin('POST', '/gw/apis/oas', oas)).status).toBe(200);
    await gw.reload();
  });

  describe('enforced timeouts', () => {
    it('answers 504 `Upstream service reached hard timeout.` when the upstream is slower than hard_timeouts', async () => {
      const started = Date.now();
      const result = await gw.call('/timed/delay/3000');
      expect(result.status).toBe(504);
      expect(result.text).toBe(errorBody('Upstream service reached hard timeout.'));
      expect(Date.now() - started).toBeLessThan(2500);
      expect((await gw.call('/timed/delay/200')).status).toBe(200);
    });

    it('applies proxy_default_timeout where no enforced timeout is set', async () => {
      expect((await gw.call('/by-header/delay/2500')).status).toBe(504);
    });

    it('applies an OAS enforceTimeout to its operation', async () => {
      const key = await addKey(gw, ['oas-ops']);
      expect((await gw.call('/oas-ops/delay/1200', { headers: { 'x-key': key } })).status).toBe(504);
      expect((await gw.call('/oas-ops/delay/100', { headers: { 'x-key': key } })).status).toBe(200);
    });
  });

  describe('mocks and endpoint lists', () => {
    it('answers a Classic mock before authentication, with its code, headers and body', async () => {
      const before = upstream.requests.length;
      const result = await gw.call('/mocked/status/500');
      expect(result.status).toBe(202);
      expect(result.headers['x-mock']).toBe('white');
      expect(result.text).toBe('{"mocked":true}');
      expect(upstream.requests.length).toBe(before);
    });

    it('forbids black-listed endpoints and, with a white list, everything it does not list', async () => {
      const key = await addKey(gw, ['mocked']);
      const headers = { authorization: key };
      expect(await gw.call('/mocked/admin', { headers })).toMatchObject({ status: 403, text: errorBody('Requested endpoint is forbidden') });
      expect(await gw.call('/mocked/not-listed', { headers })).toMatchObject({ status: 403, text: errorBody('Requested endpoint is forbidden') });
      expect((await gw.call('/mocked/allowed', { headers })).status).toBe(200);
      expect((await gw.call('/mocked/allowed', { method: 'POST', headers })).status).toBe(403);
      expect((await gw.call('/mocked/teapot')).status).toBe(418);
    });

    it('serves ignored endpoints without authentication', async () => {
      expect((await gw.call('/mocked/health')).status).toBe(200);
      expect((await gw.call('/mocked/allowed')).status).toBe(401);
    });

    it('answers an OAS mockResponse after authentication', async () => {
      expect((await gw.call('/oas-ops/pets/1')).status).toBe(401);
      const key = await addKey(gw, ['oas-ops'], { quota_max: 1, quota_renewal_rate: 60 });
      for (let i = 0; i < 3; i++) {
        const mocked = await gw.call('/oas-ops/pets/1', { headers: { 'x-key': key } });
        expect(mocked).toMatchObject({ status: 200, text: '{"name":"rex"}' }); // skipQuota: the quota of 1 does not apply
        expect(mocked.headers['x-mock']).toBe('oas');
      }
    });
  });

  describe('versions', () => {
    it('chooses the version from a header, applies the default, strips the header, and uses override_target', async () => {
      const v1 = await gw.call('/by-header/x', { headers: { 'x-api-version': 'v1' } });
      expect(v1.status).toBe(200);
      expect(v1.json<Echo>().headers['x-api-version']).toBeUndefined();
      expect((await gw.call('/by-header/x')).status).toBe(200);
      expect((await gw.call('/by-header/x', { headers: { 'x-api-version': 'v2' } })).json<Echo>().url).toBe('/v2-target/x');
    });

    it("refuses unknown and expired versions with Tyk's messages", async () => {
      expect(await gw.call('/by-header/x', { headers: { 'x-api-version': 'v9' } })).toMatchObject({
        status: 403,
        text: errorBody('This API version does not seem to exist'),
      });
      expect(await gw.call('/by-header/x', { headers: { 'x-api-version': 'old' } })).toMatchObject({
        status: 403,
        text: errorBody('Api Version has expired, please check documentation or contact administrator'),
      });
    });

    it('reads a url-param version and refuses a request naming none when there is no default', async () => {
      const result = await gw.call('/by-param/x?version=v1&a=1');
      expect(result.status).toBe(200);
      expect(result.json<Echo>().url).toBe('/x?a=1');
      expect(await gw.call('/by-param/x')).toMatchObject({ status: 403, text: errorBody('Version information not found') });
    });

    it('reads the version from the first path segment, strips it, and falls back to the default', async () => {
      expect((await gw.call('/by-url/v2/items')).json<Echo>().url).toBe('/items');
      expect((await gw.call('/by-url/v9/items')).status).toBe(200); // fallback_to_default
    });
  });
});
