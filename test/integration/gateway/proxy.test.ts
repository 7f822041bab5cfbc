// The proxy: routing, forwarding, streaming, and the path tricks that must never reach a protected API without a
// credential. A real gateway process, real upstream servers.
import { beforeAll, describe, expect, it } from 'vitest';
import { addApi, addKey, classicApi, rawHttp, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Echo, type Upstream } from '../../support/upstream.ts';

describe('proxy', () => {
  let gw: RunningGateway;
  let open: Upstream;
  let secret: Upstream;
  let other: Upstream;
  beforeAll(async () => {
    [open, secret, other] = await Promise.all([startUpstream(), startUpstream(), startUpstream()]);
    gw = await startGateway({ upstream_hosts: { 'echo.default.svc': '127.0.0.1' } });
    for (const api of [
      classicApi('public', '/public', open.url, { use_keyless: true }),
      classicApi('private', '/private', secret.url),
      classicApi('a', '/a', open.url, { use_keyless: true, proxy: { listen_path: '/a', target_url: `${open.url}/from-a`, strip_listen_path: true } }),
      classicApi('ab', '/ab', other.url, { use_keyless: true }),
      classicApi('a-deep', '/a/deep', other.url, { use_keyless: true }),
      classicApi('nostrip', '/nostrip', open.url, { use_keyless: true, proxy: { listen_path: '/nostrip/', target_url: open.url, strip_listen_path: false } }),
      classicApi('svc', '/svc', '', {
        use_keyless: true,
        proxy: { listen_path: '/svc', target_url: `echo.default.svc:${other.port}`, strip_listen_path: true },
      }),
      classicApi('hosted', '/', other.url, { use_keyless: true, domain: 'api.example.com' }),
      classicApi('inactive', '/inactive', open.url, { use_keyless: true, active: false }),
      classicApi('preserve', '/preserve', open.url, {
        use_keyless: true,
        proxy: { listen_path: '/preserve', target_url: open.url, strip_listen_path: true, preserve_host_header: true },
      }),
    ]) {
      const created = await gw.admin('POST', '/gw/apis', api);
      expect(created.status, created.text).toBe(200);
    }
    await gw.reload();
  });

  const lastEcho = async (path: string, headers: Record<string, string> = {}): Promise<Echo> => (await gw.call(path, { headers })).json<Echo>();

  it('routes to the longest listen path on segment boundaries: /a never serves /ab', async () => {
    expect((await lastEcho('/a/x')).url).toBe('/from-a/x');
    expect((await lastEcho('/ab/x')).url).toBe('/x');
    const deep = await gw.call('/a/deep/y');
    expect(deep.json<Echo>().url).toBe('/y');
    expect(other.requests.at(-1)?.url).toBe('/y');
  });

  it("strips the listen path only when asked, and joins the target's base path", async () => {
    expect((await lastEcho('/nostrip/get?x=1')).url).toBe('/nostrip/get?x=1');
    expect((await lastEcho('/a')).url).toBe('/from-a/');
  });

  it('reaches a <service>.<namespace>.svc:<port> target (resolved through upstream_hosts here)', async () => {
    const echo = await lastEcho('/svc/hello');
    expect(echo.url).toBe('/hello');
    expect(echo.headers.host).toBe(`echo.default.svc:${other.port}`);
  });

  it('serves a domain-bound API only on its host', async () => {
    expect((await gw.call('/anything', { headers: { host: 'api.example.com' } })).json<Echo>().url).toBe('/anything');
    expect((await gw.call('/anything')).status).toBe(404);
  });

  it('does not serve an inactive API', async () => {
    expect((await gw.call('/inactive/x')).status).toBe(404);
  });

  it('answers 404 with the error body for a path no API serves', async () => {
    const result = await gw.call('/nothing/here');
    expect(result.status).toBe(404);
    expect(result.headers['x-generator']).toBe('gw');
  });

  it("sets X-Forwarded-*, sets Host to the upstream's unless preserved, and drops hop-by-hop headers", async () => {
    const echo = (
      await rawHttp(gw.url, '/public/h', {
        'x-forwarded-for': '10.1.1.1',
        connection: 'keep-alive, x-secret-hop',
        'x-secret-hop': 'y',
        te: 'trailers',
        'x-kept': 'k',
      })
    ).json<Echo>();
    expect(echo.headers['x-forwarded-for']).toBe('127.0.0.1'); // the client is no trusted proxy (http-semantics.test.ts)
    expect(echo.headers['x-forwarded-proto']).toBe('http');
    expect(echo.headers['x-forwarded-host']).toBe(new URL(gw.url).host);
    expect(echo.headers.host).toBe(new URL(open.url).host);
    expect(echo.headers['x-secret-hop']).toBeUndefined();
    expect(echo.headers.te).toBeUndefined();
    expect(echo.headers['x-kept']).toBe('k');
    expect((await lastEcho('/preserve/h', { host: 'client.example' })).headers.host).toBe('client.example');
  });

  it("passes the upstream's status and headers back", async () => {
    const result = await gw.call('/public/status/418');
    expect(result.status).toBe(418);
    expect(result.headers['x-upstream']).toBe('yes');
  });

  it('streams large bodies both ways without buffering them', async () => {
    const size = 32 * 1024 * 1024;
    const down = await gw.call(`/public/bytes/${size}`);
    expect(down.status).toBe(200);
    expect(down.text.length).toBe(size);
    const body = Buffer.alloc(8 * 1024 * 1024, 0x62);
    const up = await gw.call('/public/upload', { method: 'POST', body, headers: { 'content-type': 'application/octet-stream' } });
    expect(up.json<Echo>().bodyBytes).toBe(body.length);
  });

  it('aborts the upstream call when the client hangs up', async () => {
    let upstreamSawClose = false;
    const hanging = await startUpstream((_req, res) => {
      res.on('close', () => (upstreamSawClose = true));
      return true; // never answers
    });
    await addApi(gw, classicApi('hanging', '/hanging', hanging.url, { use_keyless: true }));
    const controller = new AbortController();
    const call = fetch(`${gw.url}/hanging/x`, { signal: controller.signal }).catch((error: Error) => error.name);
    await expect.poll(() => hanging.requests.length).toBe(1);
    controller.abort();
    expect(await call).toBe('AbortError');
    await expect.poll(() => upstreamSawClose, { timeout: 5000 }).toBe(true);
  });

  it('answers 500 `There was a problem proxying the request` when the upstream is down', async () => {
    const gone = await startUpstream();
    await addApi(gw, classicApi('gone', '/gone', gone.url, { use_keyless: true }));
    await gone.close();
    const result = await gw.call('/gone/x');
    expect(result.status).toBe(500);
    expect(result.text).toBe('{\n    "error": "There was a problem proxying the request"\n}');
  });

  describe('path tricks never reach the protected API without a credential', () => {
    const tricks = [
      '/public/../private/secret',
      '/public/%2e%2e/private/secret',
      '/public/%2E%2E/private/secret',
      '/public/.%2e/private/secret',
      '//private/secret',
      '/public//../private/secret',
      '/public/./../private/secret',
      '/PRIVATE/secret',
      '/privatex/../private/secret',
    ];

    it.each(tricks)('%s', async (path) => {
      const before = secret.requests.length;
      const result = await rawHttp(gw.url, path);
      expect([401, 404]).toContain(result.status);
      expect(secret.requests.length).toBe(before);
    });

    it.each(['/public/..%2fprivate/secret', '/public/%2e%2e%2fprivate/secret', '/public%2F..%2Fprivate/secret', '/public/..%5cprivate/secret'])(
      'refuses encoded slashes outright: %s',
      async (path) => {
        const before = secret.requests.length;
        const result = await rawHttp(gw.url, path);
        expect(result.status).toBe(400);
        expect(secret.requests.length).toBe(before);
      },
    );

    it('forwards exactly the normalised path it authorised', async () => {
      const key = await addKey(gw, ['private']);
      const result = await rawHttp(gw.url, '/public/../private/a/./b/../c', { authorization: key });
      expect(result.status).toBe(200);
      expect(secret.requests.at(-1)?.url).toBe('/a/c');
    });
  });
});
