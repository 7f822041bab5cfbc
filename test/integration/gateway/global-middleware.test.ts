// The version-wide middleware of Tyk's samples, through a real gateway process to a real echo upstream:
// global request and response headers, the legacy `paths` endpoint lists, and CORS (Classic and OAS).
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey, classicApi, errorBody, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { startUpstream, type Echo, type Upstream } from '../../support/upstream.ts';

describe('version-wide middleware', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway();
    const apis = [
      classicApi('headers', '/headers', upstream.url, {
        use_keyless: true,
        version_data: {
          not_versioned: true,
          versions: {
            Default: {
              name: 'Default',
              global_headers: { 'X-Env': 'prod', 'X-Client': 'replaced' },
              global_headers_remove: ['X-Secret'],
              global_response_headers: { 'X-Served-By': 'gw' },
              global_response_headers_remove: ['X-Upstream'],
            },
          },
        },
      }),
      classicApi('legacy', '/legacy', upstream.url, {
        version_data: {
          not_versioned: true,
          versions: {
            Default: { name: 'Default', use_extended_paths: false, paths: { ignored: ['/health'], white_list: ['/pets/{id}'], black_list: ['/pets/secret'] } },
          },
        },
      }),
      classicApi('cors', '/cors', upstream.url, {
        CORS: {
          enable: true,
          allowed_origins: ['https://*.example.com', 'https://app.test'],
          allowed_methods: ['GET', 'POST', 'PUT'],
          allowed_headers: ['Authorization', 'Content-Type'],
          exposed_headers: ['x-total'],
          allow_credentials: true,
          max_age: 600,
        },
      }),
      classicApi('cors-pass', '/cors-pass', upstream.url, { use_keyless: true, CORS: { enable: true, options_passthrough: true } }),
    ];
    for (const api of apis) expect((await gw.admin('POST', '/gw/apis', api)).status, JSON.stringify(api)).toBe(200);
    const oas = {
      openapi: '3.0.3',
      info: { title: 'oas cors', version: '1' },
      paths: {},
      'x-gw-api-gateway': {
        info: { id: 'oas-cors', name: 'oas cors', state: { active: true } },
        upstream: { url: upstream.url },
        server: { listenPath: { value: '/oas-cors', strip: true } },
        middleware: { global: { cors: { enabled: true, allowedMethods: ['GET'] } } },
      },
    };
    expect((await gw.admin('POST', '/gw/apis/oas', oas)).status).toBe(200);
    await gw.reload();
  });

  describe('global headers', () => {
    it('sets global_headers and removes global_headers_remove on the request the upstream receives', async () => {
      const result = await gw.call('/headers/anything', { headers: { 'x-secret': 's3cret', 'x-client': 'original', 'x-kept': 'yes' } });
      expect(result.status).toBe(200);
      const echo = result.json<Echo>();
      expect(echo.headers['x-env']).toBe('prod');
      expect(echo.headers['x-client']).toBe('replaced');
      expect(echo.headers['x-secret']).toBeUndefined();
      expect(echo.headers['x-kept']).toBe('yes');
    });

    it('sets global_response_headers and removes global_response_headers_remove on the upstream answer', async () => {
      const result = await gw.call('/headers/anything');
      expect(result.headers['x-served-by']).toBe('gw');
      expect(result.headers['x-upstream']).toBeUndefined();
      expect(result.headers['content-type']).toBe('application/json');
    });

    it('refuses a global header value naming a context variable, naming the field', async () => {
      const api = classicApi('ctx-header', '/ctx-header', upstream.url, {
        use_keyless: true,
        version_data: { not_versioned: true, versions: { Default: { name: 'Default', global_headers: { 'X-Id': '$tyk_context.request_id' } } } },
      });
      const result = await gw.admin('POST', '/gw/apis', api);
      expect(result.status).toBe(400);
      expect(result.text).toContain('version_data.versions.Default.global_headers.X-Id');
    });
  });

  describe('legacy paths lists', () => {
    it('serves an ignored path without a key', async () => {
      const result = await gw.call('/legacy/health');
      expect(result.status).toBe(200);
      expect(result.json<Echo>().url).toBe('/health');
    });

    it('forbids a path outside the white_list, and a black_listed one in every spelling', async () => {
      const key = await addKey(gw, ['legacy']);
      expect((await gw.call('/legacy/pets/7', { headers: { authorization: key } })).status).toBe(200);
      const outside = await gw.call('/legacy/owners', { headers: { authorization: key } });
      expect(outside.status).toBe(403);
      expect(outside.text).toBe(errorBody('Requested endpoint is forbidden'));
      for (const path of ['/legacy/pets/secret', '/legacy/pets/secret/', '/legacy/PETS/Secret']) {
        const blocked = await gw.call(path, { headers: { authorization: key } });
        expect(blocked.status, path).toBe(403);
        expect(blocked.text).toBe(errorBody('Requested endpoint is forbidden'));
      }
    });

    it('still asks for a key on a white_listed path', async () => {
      expect((await gw.call('/legacy/pets/7')).status).toBe(401);
    });
  });

  describe('CORS', () => {
    const preflight = (origin: string, method = 'PUT', requestHeaders = 'content-type,authorization') => ({
      method: 'OPTIONS' as const,
      headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': requestHeaders },
    });

    it("answers a preflight from an allowed (wildcard) origin itself, before authentication, with Tyk's headers", async () => {
      const before = upstream.requests.length;
      const result = await gw.call('/cors/pets', preflight('https://shop.example.com'));
      expect(result.status).toBe(204);
      expect(result.text).toBe('');
      expect(result.headers['access-control-allow-origin']).toBe('https://shop.example.com');
      expect(result.headers['access-control-allow-methods']).toBe('PUT');
      expect(result.headers['access-control-allow-headers']).toBe('Content-Type, Authorization');
      expect(result.headers['access-control-allow-credentials']).toBe('true');
      expect(result.headers['access-control-max-age']).toBe('600');
      expect(result.headers.vary).toBe('Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
      expect(upstream.requests.length).toBe(before);
    });

    it('gives a preflight no CORS headers when its origin, method or headers are not allowed', async () => {
      for (const [origin, method] of [
        ['https://evil.test', 'PUT'],
        ['https://example.com', 'PUT'],
        ['https://app.test', 'DELETE'],
      ] as const) {
        const result = await gw.call('/cors/pets', preflight(origin, method));
        expect(result.status, `${origin} ${method}`).toBe(204);
        expect(result.headers['access-control-allow-origin'], `${origin} ${method}`).toBeUndefined();
      }
      const headers = await gw.call('/cors/pets', {
        method: 'OPTIONS',
        headers: { origin: 'https://app.test', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-other' },
      });
      expect(headers.headers['access-control-allow-origin']).toBeUndefined();
    });

    it("adds the CORS headers to actual answers: the gateway's refusals and the upstream's", async () => {
      const refused = await gw.call('/cors/pets', { headers: { origin: 'https://app.test' } });
      expect(refused.status).toBe(401);
      expect(refused.headers['access-control-allow-origin']).toBe('https://app.test');
      expect(refused.headers['access-control-expose-headers']).toBe('X-Total');
      const key = await addKey(gw, ['cors']);
      const served = await gw.call('/cors/pets', { headers: { origin: 'https://app.test', authorization: key } });
      expect(served.status).toBe(200);
      expect(served.headers['access-control-allow-origin']).toBe('https://app.test');
      expect(served.headers['access-control-allow-credentials']).toBe('true');
      expect(served.headers.vary).toBe('Origin');
    });

    it('forwards a preflight to the upstream with options_passthrough, adding the headers to its answer', async () => {
      const result = await gw.call('/cors-pass/pets', preflight('https://anywhere.test', 'POST', 'content-type'));
      expect(result.status).toBe(200);
      expect(result.json<Echo>().method).toBe('OPTIONS');
      expect(result.headers['access-control-allow-origin']).toBe('*');
      expect(result.headers['access-control-allow-methods']).toBe('POST');
    });

    it('serves OAS middleware.global.cors: every origin and the default headers by default, only the allowed methods', async () => {
      const allowed = await gw.call('/oas-cors/pets', preflight('https://anywhere.test', 'GET', 'content-type'));
      expect(allowed.status).toBe(204);
      expect(allowed.headers['access-control-allow-origin']).toBe('*');
      expect(
        (await gw.call('/oas-cors/pets', preflight('https://anywhere.test', 'GET', 'authorization'))).headers['access-control-allow-origin'],
      ).toBeUndefined();
      const other = await gw.call('/oas-cors/pets', preflight('https://anywhere.test', 'POST', 'content-type'));
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
      const actual = await gw.call('/oas-cors/pets', { headers: { origin: 'https://anywhere.test' } });
      expect(actual.status).toBe(200);
      expect(actual.headers['access-control-allow-origin']).toBe('*');
    });
  });

  describe('fields of Tyk not implemented yet', () => {
    it("accepts Tyk's samples with those sections empty or disabled, and refuses them in use naming the field", async () => {
      const sample = classicApi('sample', '/sample', upstream.url, {
        use_keyless: true,
        use_oauth2: false,
        cache_options: { enable_cache: false, cache_timeout: 60 },
        custom_middleware: { pre: [], post: [], post_key_auth: [], auth_check: { name: '', path: '' }, response: [], driver: '' },
        extended_paths: { circuit_breakers: [], cache: [], track_endpoints: [] },
      });
      expect((await gw.admin('POST', '/gw/apis', sample)).status).toBe(200);
      const cases: [Record<string, unknown>, string][] = [
        [
          { custom_middleware: { pre: [{ name: 'hook', path: 'hook.so' }], driver: 'goplugin' } },
          'custom_middleware: Go plugins are not supported by this gateway (JavaScript plugins with driver otto are)',
        ],
      ];
      for (const [extra, message] of cases) {
        const result = await gw.admin('POST', '/gw/apis', classicApi('refused', '/refused', upstream.url, { use_keyless: true, ...extra }));
        expect(result.status, message).toBe(400);
        expect(result.text).toContain(message);
      }
    });
  });
});
