// IP allow and block lists and internal APIs (security issue 23 item 3) against real gateway processes on loopback:
// Classic allowed_ips / blacklisted_ips (CIDR and single addresses, IPv4 and IPv6, an IPv4 client on a dual-stack
// listener), OAS server.ipAccessControl, X-Forwarded-For believed only from trusted_proxies, entries that are not
// addresses refused at write, and `internal` (Classic) / info.state.internal (OAS) APIs answered 404 to clients.
import { beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { addApi, classicApi, errorBody, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';
import { waitUntil } from '../../support/wait.ts';

const DISALLOWED = errorBody('access from this IP has been disallowed');

const oasApi = (id: string, listenPath: string, upstreamUrl: string, server: Record<string, unknown> = {}, state: Record<string, unknown> = {}) => ({
  openapi: '3.0.3',
  info: { title: id, version: '1.0.0' },
  paths: {},
  'x-gw-api-gateway': {
    info: { name: id, id, state: { active: true, ...state } },
    upstream: { url: upstreamUrl },
    server: { listenPath: { value: listenPath, strip: true }, ...server },
  },
});

describe('IP lists without trusted proxies (the default)', () => {
  let gw: RunningGateway;
  let upstream: Upstream;

  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway();
    await addApi(
      gw,
      classicApi('allow-other', '/allow-other', upstream.url, { use_keyless: true, enable_ip_whitelisting: true, allowed_ips: ['10.0.0.0/8', '203.0.113.7'] }),
    );
    await addApi(
      gw,
      classicApi('allow-loopback', '/allow-loopback', upstream.url, { use_keyless: true, enable_ip_whitelisting: true, allowed_ips: ['127.0.0.0/8'] }),
    );
    await addApi(
      gw,
      classicApi('block-loopback', '/block-loopback', upstream.url, { use_keyless: true, enable_ip_blacklisting: true, blacklisted_ips: ['127.0.0.1'] }),
    );
    await addApi(gw, classicApi('block-other', '/block-other', upstream.url, { use_keyless: true, blacklisted_ips: ['10.0.0.0/8'] }));
    await addApi(gw, classicApi('lists-off', '/lists-off', upstream.url, { use_keyless: true, ip_access_control_disabled: true, allowed_ips: ['10.0.0.1'] }));
  });

  it('refuses a client outside the allow list with 403 and serves one inside it', async () => {
    const refused = await gw.call('/allow-other/x');
    expect([refused.status, refused.text]).toEqual([403, DISALLOWED]);
    expect((await gw.call('/allow-loopback/x')).status).toBe(200);
  });

  it('refuses a client in the block list (a single address) and serves one outside it', async () => {
    const refused = await gw.call('/block-loopback/x');
    expect([refused.status, refused.text]).toEqual([403, DISALLOWED]);
    expect((await gw.call('/block-other/x')).status).toBe(200);
  });

  it('believes no X-Forwarded-For or X-Real-IP from a peer that is not a trusted proxy', async () => {
    const spoofed = await gw.call('/allow-other/x', { headers: { 'x-forwarded-for': '203.0.113.7', 'x-real-ip': '10.1.1.1' } });
    expect(spoofed.status).toBe(403);
    expect((await gw.call('/block-loopback/x', { headers: { 'x-forwarded-for': '198.51.100.1' } })).status).toBe(403);
  });

  it('ignores the lists with ip_access_control_disabled and no enable flag', async () => {
    expect((await gw.call('/lists-off/x')).status).toBe(200);
  });

  it('applies OAS server.ipAccessControl when enabled, not when disabled', async () => {
    const post = async (doc: unknown) => expect((await gw.admin('POST', '/gw/apis/oas', doc)).status).toBe(200);
    await post(oasApi('oas-block', '/oas-block', upstream.url, { ipAccessControl: { enabled: true, block: ['127.0.0.0/8'] } }));
    await post(oasApi('oas-allow', '/oas-allow', upstream.url, { ipAccessControl: { enabled: true, allow: ['127.0.0.1'] } }));
    await post(oasApi('oas-off', '/oas-off', upstream.url, { ipAccessControl: { enabled: false, allow: ['10.0.0.1'] } }));
    await gw.reload();
    const refused = await gw.call('/oas-block/x');
    expect([refused.status, refused.text]).toEqual([403, DISALLOWED]);
    expect((await gw.call('/oas-allow/x')).status).toBe(200);
    expect((await gw.call('/oas-off/x')).status).toBe(200);
  });

  it('refuses a definition whose list holds something that is not an address, naming the field', async () => {
    const classic = await gw.admin(
      'POST',
      '/gw/apis',
      classicApi('typo', '/typo', upstream.url, { use_keyless: true, blacklisted_ips: ['10.0.0.1', '10.0.0.300'] }),
    );
    expect(classic.status).toBe(400);
    expect(classic.text).toContain('blacklisted_ips[1] is not an IP address or CIDR range');
    const oas = await gw.admin('POST', '/gw/apis/oas', oasApi('oas-typo', '/oas-typo', upstream.url, { ipAccessControl: { enabled: true, allow: ['bob'] } }));
    expect(oas.status).toBe(400);
    expect(oas.text).toContain('server.ipAccessControl.allow[0]');
  });
});

describe('IP lists behind a trusted proxy, on a dual-stack listener', () => {
  let gw: RunningGateway;
  let port: number;
  const at = (host: string, path: string, headers: Record<string, string> = {}) =>
    request(`http://${host}:${port}${path}`, { headers }).then(async (r) => ({ status: r.statusCode, text: await r.body.text() }));

  beforeAll(async () => {
    const upstream = await startUpstream();
    gw = await startGateway({ listen_address: '::', trusted_proxies: ['127.0.0.1'] });
    port = Number(new URL(gw.url).port);
    await addApi(gw, classicApi('allow-forwarded', '/allow-forwarded', upstream.url, { use_keyless: true, allowed_ips: ['203.0.113.0/24'] }));
    await addApi(gw, classicApi('block-forwarded', '/block-forwarded', upstream.url, { use_keyless: true, blacklisted_ips: ['198.51.100.9'] }));
    await addApi(gw, classicApi('allow-v6', '/allow-v6', upstream.url, { use_keyless: true, allowed_ips: ['::1/128'] }));
  });

  it('reads the client from X-Forwarded-For sent by a trusted proxy (an IPv4 peer seen as ::ffff:127.0.0.1)', async () => {
    expect((await at('127.0.0.1', '/allow-forwarded/x', { 'x-forwarded-for': '203.0.113.5' })).status).toBe(200);
    expect((await at('127.0.0.1', '/allow-forwarded/x', { 'x-forwarded-for': '192.0.2.1' })).status).toBe(403);
    const blocked = await at('127.0.0.1', '/block-forwarded/x', { 'x-forwarded-for': '198.51.100.9' });
    expect([blocked.status, blocked.text]).toEqual([403, DISALLOWED]);
  });

  it('takes the hop the trusted proxy added, not an address the client put in front of it', async () => {
    expect((await at('127.0.0.1', '/allow-forwarded/x', { 'x-forwarded-for': '203.0.113.5, 192.0.2.1' })).status).toBe(403);
    expect((await at('127.0.0.1', '/block-forwarded/x', { 'x-forwarded-for': '198.51.100.9, 192.0.2.1' })).status).toBe(200);
  });

  it('believes no X-Forwarded-For from an untrusted IPv6 peer and matches IPv6 entries', async () => {
    expect((await at('[::1]', '/allow-forwarded/x', { 'x-forwarded-for': '203.0.113.5' })).status).toBe(403);
    expect((await at('[::1]', '/allow-v6/x')).status).toBe(200);
  });
});

describe('internal APIs', () => {
  it("answers 404 on an internal API's listen path (Classic internal, OAS info.state.internal), says so in the load log, and lets a public API share the path", async () => {
    const upstream = await startUpstream();
    const gw = await startGateway();
    await addApi(gw, classicApi('hidden-classic', '/hidden', upstream.url, { use_keyless: true, internal: true }));
    expect((await gw.admin('POST', '/gw/apis/oas', oasApi('hidden-oas', '/hidden-oas', upstream.url, {}, { internal: true }))).status).toBe(200);
    await gw.reload();

    expect((await gw.call('/hidden/x')).status).toBe(404);
    expect((await gw.call('/hidden-oas/x')).status).toBe(404);
    await waitUntil('the load log naming both internal APIs', () =>
      ['hidden-classic', 'hidden-oas'].every((id) => gw.output().includes(`api ${id} is internal: not served to clients`)),
    );

    await addApi(gw, classicApi('public', '/hidden', upstream.url, { use_keyless: true }));
    expect((await gw.call('/hidden/x')).status).toBe(200);
    expect((await gw.admin('GET', '/ready')).json()).toMatchObject({ details: { apis: 3, problems: [] } });
  });
});
