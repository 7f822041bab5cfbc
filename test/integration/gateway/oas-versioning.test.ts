// Tyk's OAS versioning (x-gw-api-gateway.info.versioning on a base API) through a real gateway process and real
// upstreams: the version a request names (header, query parameter, or first path segment) decides which API serves
// it, the base itself (its name or `self`) or a listed version's API by id, with that API's own pipeline
// (authentication, upstream); no version gets the default; an unknown one 404 `This API version does not seem to
// exist` unless fallbackToDefault; no version and no default 403 `Version information not found`;
// stripVersioningData removes the version before it goes on; urlVersioningPattern limits which segments name one;
// a request is handed over once (two bases naming each other do not loop).
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey, errorBody, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

function namedUpstream(name: string): Promise<Upstream> {
  return startUpstream((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ upstream: name, url: req.url, version: req.headers['x-api-version'] ?? null }));
    return true;
  });
}

function oasApi(
  id: string,
  listenPath: string,
  url: string,
  info: Record<string, unknown> = {},
  server: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: id, version: '1' },
    paths: {},
    components: { securitySchemes: { key: { type: 'apiKey', name: 'authorization', in: 'header' } } },
    'x-gw-api-gateway': {
      info: { id, name: id, state: { active: true }, ...info },
      upstream: { url },
      server: { listenPath: { value: listenPath, strip: true }, ...server },
    },
  };
}

const keyed = { authentication: { enabled: true, securitySchemes: { key: { enabled: true } } } };

describe('OAS versioning', () => {
  let gw: RunningGateway;
  let base: Upstream;
  let two: Upstream;
  let three: Upstream;

  beforeAll(async () => {
    [base, two, three] = await Promise.all([namedUpstream('base'), namedUpstream('v2'), namedUpstream('v3')]);
    gw = await startGateway();
    const header = { location: 'header', key: 'x-api-version' };
    const versions = [
      { name: 'v2', id: 'orders-v2' },
      { name: 'v3', id: 'orders-v3' },
    ];
    const apis = [
      oasApi('orders-v2', '/orders-v2', two.url),
      oasApi('orders-v3', '/orders-v3', three.url, {}, keyed),
      oasApi('orders', '/orders', base.url, { versioning: { enabled: true, name: 'v1', default: 'v1', ...header, versions } }),
      oasApi('fallback', '/fallback', base.url, { versioning: { enabled: true, name: 'v1', default: 'v2', fallbackToDefault: true, ...header, versions } }),
      oasApi('no-default', '/no-default', base.url, { versioning: { enabled: true, name: 'v1', ...header, versions } }),
      oasApi('by-query', '/by-query', base.url, {
        versioning: { enabled: true, name: 'v1', default: 'self', location: 'url-param', key: 'version', stripVersioningData: true, versions },
      }),
      oasApi('loop-a', '/loop-a', base.url, { versioning: { enabled: true, name: 'v1', default: 'v1', ...header, versions: [{ name: 'v2', id: 'loop-b' }] } }),
      oasApi('loop-b', '/loop-b', two.url, { versioning: { enabled: true, name: 'b', default: 'b', ...header, versions: [{ name: 'v2', id: 'loop-a' }] } }),
      oasApi('by-url', '/by-url', base.url, {
        versioning: { enabled: true, name: 'v1', default: 'v1', location: 'url', stripVersioningData: true, urlVersioningPattern: '^v[0-9]+$', versions },
      }),
    ];
    for (const api of apis) {
      const created = await gw.admin('POST', '/gw/apis/oas', api);
      expect(created.status, created.text).toBe(200);
    }
    await gw.reload();
  });

  async function served(path: string, headers: Record<string, string> = {}): Promise<{ upstream: string; url: string; version: string | null }> {
    const reply = await gw.call(path, { headers });
    expect(reply.status, reply.text).toBe(200);
    return reply.json();
  }

  it('sends a request naming v2 in the header to the v2 API, and one naming none or v1 to the base', async () => {
    expect(await served('/orders/list', { 'x-api-version': 'v2' })).toEqual({ upstream: 'v2', url: '/list', version: 'v2' });
    expect((await served('/orders/list')).upstream).toBe('base');
    expect((await served('/orders/list', { 'x-api-version': 'v1' })).upstream).toBe('base');
  });

  it("runs the version API's own pipeline: its authentication applies", async () => {
    expect((await gw.call('/orders/list', { headers: { 'x-api-version': 'v3' } })).status).toBe(401);
    const key = await addKey(gw, ['orders-v3']);
    expect((await served('/orders/list', { 'x-api-version': 'v3', authorization: key })).upstream).toBe('v3');
  });

  it('answers 404 for a version not listed, and 403 when none is named and there is no default', async () => {
    const unknown = await gw.call('/orders/list', { headers: { 'x-api-version': 'v9' } });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe(errorBody('This API version does not seem to exist'));
    const missing = await gw.call('/no-default/list');
    expect(missing.status).toBe(403);
    expect(missing.text).toBe(errorBody('Version information not found'));
  });

  it('sends an unknown version to the default with fallbackToDefault, and a request naming none too', async () => {
    expect((await served('/fallback/list', { 'x-api-version': 'v9' })).upstream).toBe('v2');
    expect((await served('/fallback/list')).upstream).toBe('v2');
  });

  it('reads the version from a query parameter and strips it', async () => {
    expect(await served('/by-query/list?version=v2&page=1')).toEqual({ upstream: 'v2', url: '/list?page=1', version: null });
    expect((await served('/by-query/list?page=1')).upstream).toBe('base');
  });

  it('reads the version from the first path segment matching urlVersioningPattern and strips it', async () => {
    expect(await served('/by-url/v2/list')).toEqual({ upstream: 'v2', url: '/list', version: null });
    expect(await served('/by-url/v1/list')).toEqual({ upstream: 'base', url: '/list', version: null });
    expect(await served('/by-url/list')).toEqual({ upstream: 'base', url: '/list', version: null });
  });

  it("hands a request over once: a version's API that is itself a base naming the first serves it", async () => {
    expect((await served('/loop-a/list', { 'x-api-version': 'v2' })).upstream).toBe('v2');
  });

  it('refuses a default that names no version, naming the field', async () => {
    const refused = await gw.admin(
      'POST',
      '/gw/apis/oas',
      oasApi('bad-default', '/bad-default', base.url, {
        versioning: { enabled: true, name: 'v1', default: 'v7', location: 'header', key: 'x-api-version', versions: [] },
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('info.versioning.default');
  });
});
