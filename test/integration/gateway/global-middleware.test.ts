// The version-wide middleware of the anchor's samples, through a real gateway process to a real echo upstream:
// global request and response headers, and the legacy `paths` endpoint lists.
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey, classicApi, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Echo, type Upstream } from '../../support/upstream.ts';

const ERROR = (message: string) => `{\n    "error": "${message}"\n}`;

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
          versions: { Default: { name: 'Default', use_extended_paths: false, paths: { ignored: ['/health'], white_list: ['/pets/{id}'], black_list: ['/pets/secret'] } } },
        },
      }),
    ];
    for (const api of apis) expect((await gw.admin('POST', '/gw/apis', api)).status, JSON.stringify(api)).toBe(200);
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
      expect(outside.text).toBe(ERROR('Requested endpoint is forbidden'));
      for (const path of ['/legacy/pets/secret', '/legacy/pets/secret/', '/legacy/PETS/Secret']) {
        const blocked = await gw.call(path, { headers: { authorization: key } });
        expect(blocked.status, path).toBe(403);
        expect(blocked.text).toBe(ERROR('Requested endpoint is forbidden'));
      }
    });

    it('still asks for a key on a white_listed path', async () => {
      expect((await gw.call('/legacy/pets/7')).status).toBe(401);
    });
  });
});
