// Whom a gateway fetches JWKS keys from (security issue 23 item 13), with a real gateway process and real loopback
// HTTP servers: jwks.allowed_hosts keeps a JWT API whose jwt_source names another host (an internal address, say)
// from ever reaching it, and a redirect from an allowed host to another one is never followed. The same server
// answers as `localhost` (allowed) and as `127.0.0.1` (not allowed), so the host name alone decides.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addApi, classicApi, errorBody, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream } from '../../support/upstream.ts';
import { waitUntil } from '../../support/wait.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** A loopback server counting the requests it receives by path; `answer` decides each reply. */
async function countingServer(answer: (path: string, res: ServerResponse) => void): Promise<{ port: number; hits: (path: string) => number; server: Server }> {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    answer(path, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, hits: (path) => hits.get(path) ?? 0, server };
}

describe('jwks.allowed_hosts', () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...rsa.publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' };
  let gw: RunningGateway;
  let idp: Awaited<ReturnType<typeof countingServer>>;
  let elsewhere: Awaited<ReturnType<typeof countingServer>>;
  let token: string;
  const servers: Server[] = [];
  afterAll(async () => {
    for (const server of servers) server.closeAllConnections();
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  });

  beforeAll(async () => {
    const upstream = await startUpstream();
    elsewhere = await countingServer((_path, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })));
    idp = await countingServer((path, res) => {
      if (path === '/redirect') res.writeHead(302, { location: `http://127.0.0.1:${elsewhere.port}/jwks` }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
    });
    servers.push(idp.server, elsewhere.server);
    gw = await startGateway({ jwks: { allowed_hosts: ['localhost'] } });
    const jwt = (id: string, source: string) =>
      classicApi(id, `/${id}`, upstream.url, { enable_jwt: true, jwt_signing_method: 'rsa', jwt_source: b64(source), jwt_default_policies: ['jwks-hosts'] });
    expect(
      (
        await gw.admin('POST', '/gw/policies', {
          id: 'jwks-hosts',
          name: 'jwks hosts',
          access_rights: Object.fromEntries(['allowed', 'not-allowed', 'redirected'].map((id) => [id, { api_id: id, versions: [] }])),
        })
      ).status,
    ).toBe(200);
    await addApi(gw, jwt('allowed', `http://localhost:${idp.port}/jwks`));
    await addApi(gw, jwt('not-allowed', `http://127.0.0.1:${idp.port}/internal`));
    await addApi(gw, jwt('redirected', `http://localhost:${idp.port}/redirect`));
    token = await new SignJWT({ sub: 'jwks-user' }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setIssuedAt().setExpirationTime('5m').sign(rsa.privateKey);
  });

  it('fetches from an allowed host', async () => {
    expect((await gw.call('/allowed/x', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect(idp.hits('/jwks')).toBe(1);
  });

  it('never fetches from a host outside the list, refuses the token and logs why', async () => {
    const refused = await gw.call('/not-allowed/x', { headers: { authorization: `Bearer ${token}` } });
    expect([refused.status, refused.text]).toEqual([403, errorBody('Key not authorized')]);
    expect(idp.hits('/internal')).toBe(0);
    await waitUntil('the refusal in the gateway log', () => gw.output().includes('host 127.0.0.1 is not in jwks.allowed_hosts: not fetched'));
  });

  it('does not follow a redirect from an allowed host to another one', async () => {
    const refused = await gw.call('/redirected/x', { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(403);
    expect(idp.hits('/redirect')).toBe(1);
    expect(elsewhere.hits('/jwks')).toBe(0);
    await waitUntil('the redirect in the gateway log', () => gw.output().includes('JWKS answered 302: redirects are not followed'));
  });

  it('refuses a configuration entry that is not a host', async () => {
    const started = startGateway({ jwks: { allowed_hosts: ['https://idp.example.com/jwks'] } });
    await expect(started).rejects.toThrow();
  });
});
