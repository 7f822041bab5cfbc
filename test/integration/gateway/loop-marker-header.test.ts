// Tyk's loop marker header (X-Tyk-Internal) forged by a client, through a real gateway process and a recording
// upstream: it opens no internal API nor internal endpoint, and no upstream ever receives it, whether the request
// goes straight to its upstream or is looped (proxy.target_url tyk://) into an internal API first.
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

const FORGED = { 'x-tyk-internal': 'true' };

describe('a forged X-Tyk-Internal header', () => {
  let gw: RunningGateway;
  let upstream: Upstream;

  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway();
    const apis = [
      classicApi('public', '/public', upstream.url, {
        use_keyless: true,
        version_data: {
          not_versioned: true,
          versions: { Default: { name: 'Default', use_extended_paths: true, extended_paths: { internal: [{ path: '/secret', method: 'GET' }] } } },
        },
      }),
      classicApi('hidden', '/hidden', `${upstream.url}/hidden-backend`, { use_keyless: true, internal: true }),
      classicApi('front', '/front', 'tyk://hidden', { use_keyless: true }),
    ];
    for (const api of apis) expect((await gw.admin('POST', '/gw/apis', api)).status).toBe(200);
    await gw.reload();
  });

  /** Calls `path` with the forged header; returns the answer and what the upstream received, if anything. */
  const forged = async (path: string, headers: Record<string, string> = {}) => {
    const seen = upstream.requests.length;
    const result = await gw.call(path, { headers: { ...FORGED, ...headers } });
    return { result, forwarded: upstream.requests.slice(seen) };
  };

  it('never reaches the upstream of a plain API', async () => {
    const { result, forwarded } = await forged('/public/x');
    expect(result.status).toBe(200);
    expect(forwarded).toHaveLength(1);
    expect(forwarded[0]!.headers).not.toHaveProperty('x-tyk-internal');
  });

  it('never reaches the upstream of a looped request', async () => {
    const { result, forwarded } = await forged('/front/x');
    expect(result.status).toBe(200);
    expect(forwarded.map((echo) => echo.url)).toEqual(['/hidden-backend/x']);
    expect(forwarded[0]!.headers).not.toHaveProperty('x-tyk-internal');
  });

  it('opens neither an internal API (404) nor an internal endpoint (403)', async () => {
    expect((await forged('/hidden/x')).result.status).toBe(404);
    expect((await forged('/x', { host: 'hidden' })).result.status).toBe(404);
    const endpoint = await forged('/public/secret');
    expect(endpoint.result.status).toBe(403);
    expect(endpoint.forwarded).toEqual([]);
  });
});
