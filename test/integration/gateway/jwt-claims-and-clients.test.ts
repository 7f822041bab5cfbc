// The JWT settings beyond signature and session, end to end: jwt_client_base_field (the base policy from the key
// a claim names), the OAS JWT scheme's claim checks (allowedIssuers, allowedAudiences, jtiValidation,
// allowedSubjects) and the JWKS cache flush of the management API. A real gateway process, a real upstream,
// tokens minted here with jose, JWKS from a real loopback HTTP server.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicApi, errorBody, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

const SECRET = new TextEncoder().encode('the-hmac-secret-of-the-claims-test');
const b64 = (text: string | Uint8Array) => Buffer.from(text).toString('base64');

function mint(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('5m').sign(SECRET);
}

describe('JWT client keys, OAS claim checks and the JWKS flush', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  let jwks: { keys: JWK[]; fetches: number };
  let jwksServer: Server;
  let jwksUrl: string;
  afterAll(async () => {
    jwksServer.closeAllConnections();
    await new Promise((resolve) => jwksServer.close(resolve));
  });

  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway();
    jwks = { keys: [], fetches: 0 };
    jwksServer = createServer((_req, res) => {
      jwks.fetches++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: jwks.keys }));
    });
    await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks.json`;

    const hmac = { enable_jwt: true, jwt_signing_method: 'hmac', jwt_source: b64(SECRET) };
    for (const api of [
      classicApi('jwt-client', '/jwt-client', upstream.url, {
        ...hmac,
        jwt_client_base_field: 'client_id',
        jwt_policy_field_name: 'pol',
        jwt_default_policies: ['client-default'],
      }),
      classicApi('jwt-jwks', '/jwt-jwks', upstream.url, {
        enable_jwt: true,
        jwt_signing_method: 'rsa',
        jwt_source: jwksUrl,
        jwt_default_policies: ['client-default'],
      }),
    ]) {
      expect((await gw.admin('POST', '/gw/apis', api)).status).toBe(200);
    }
    const rights = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, { api_id: id, versions: [] }]));
    for (const policy of [
      { id: 'client-default', name: 'default', access_rights: rights(['jwt-client', 'jwt-jwks', 'oas-client']), quota_max: 2, quota_renewal_rate: 3600 },
      { id: 'client-gold', name: 'gold', access_rights: rights(['jwt-client', 'oas-client']), quota_max: 5, quota_renewal_rate: 3600 },
      { id: 'oas-claims', name: 'oas claims', access_rights: rights(['oas-claims']), quota_max: 100, quota_renewal_rate: 3600 },
    ]) {
      expect((await gw.admin('POST', '/gw/policies', policy)).status).toBe(200);
    }
    const oasApi = (id: string, bearer: Record<string, unknown>) => ({
      openapi: '3.0.3',
      info: { title: id, version: '1.0.0' },
      paths: {},
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
      'x-gw-api-gateway': {
        info: { name: id, id, state: { active: true } },
        upstream: { url: upstream.url },
        server: {
          listenPath: { value: `/${id}/`, strip: true },
          authentication: { enabled: true, securitySchemes: { bearer: { enabled: true, source: b64(SECRET), signingMethod: 'hmac', ...bearer } } },
        },
      },
    });
    const claimChecks = {
      defaultPolicies: ['oas-claims'],
      allowedIssuers: ['https://idp.example.com'],
      allowedAudiences: ['gw-api', 'gw-admin'],
      jtiValidation: { enabled: true },
      allowedSubjects: ['alice', 'bob'],
    };
    expect((await gw.admin('POST', '/gw/apis/oas', oasApi('oas-claims', claimChecks))).status).toBe(200);
    expect((await gw.admin('POST', '/gw/apis/oas', oasApi('oas-client', { clientBaseField: 'cid', defaultPolicies: ['client-default'] }))).status).toBe(200);
    await gw.reload();
  });

  it('jwt_client_base_field (OAS clientBaseField): the first policy of the key the claim names is the base policy; the policy claim wins; else the defaults', async () => {
    expect((await gw.admin('POST', '/gw/keys/acme-client', { apply_policies: ['client-gold'] })).status).toBe(200);
    const limit = async (claims: Record<string, unknown>) => {
      const result = await gw.call('/jwt-client/x', { headers: { authorization: `Bearer ${await mint(claims)}` } });
      expect(result.status).toBe(200);
      return result.headers['x-ratelimit-limit'];
    };
    expect(await limit({ sub: 'client-user-1', client_id: 'acme-client' })).toBe('5'); // client-gold's quota
    expect(await limit({ sub: 'client-user-2', client_id: 'acme-client', pol: 'client-default' })).toBe('2'); // the policy claim first
    expect(await limit({ sub: 'client-user-3', client_id: 'no-such-key' })).toBe('2'); // no key: the defaults
    expect(await limit({ sub: 'client-user-4' })).toBe('2');
    const oas = await gw.call('/oas-client/x', { headers: { authorization: `Bearer ${await mint({ sub: 'client-user-5', cid: 'acme-client' })}` } });
    expect([oas.status, oas.headers['x-ratelimit-limit']]).toEqual([200, '5']); // OAS clientBaseField
  });

  it("OAS: checks iss, aud, jti and the subject with Tyk's 401 answers", async () => {
    const good = { iss: 'https://idp.example.com', aud: ['other', 'gw-api'], jti: 'id-1', sub: 'alice' };
    const call = async (claims: Record<string, unknown>) => {
      const result = await gw.call('/oas-claims/x', { headers: { authorization: `Bearer ${await mint(claims)}` } });
      return [result.status, result.text];
    };
    expect((await call(good))[0]).toBe(200);
    expect((await call({ ...good, aud: 'gw-admin', sub: 'bob' }))[0]).toBe(200);
    const { iss: _iss, ...noIss } = good;
    expect(await call(noIss)).toEqual([401, errorBody('Key not authorized: issuer claim is required but not present in token')]);
    expect(await call({ ...good, iss: 'https://evil.example.com' })).toEqual([
      401,
      errorBody('Key not authorized: invalid issuer claim: https://evil.example.com'),
    ]);
    const { aud: _aud, ...noAud } = good;
    expect(await call(noAud)).toEqual([401, errorBody('Key not authorized: audience claim is required but not present in token')]);
    expect(await call({ ...good, aud: ['a', 'b'] })).toEqual([401, errorBody('Key not authorized: no matching audience found in token: [a b]')]);
    const { jti: _jti, ...noJti } = good;
    expect(await call(noJti)).toEqual([401, errorBody('Key not authorized: JWT ID (jti) claim is required but not present in token')]);
    expect(await call({ ...good, sub: 'carol' })).toEqual([401, errorBody('Key not authorized: invalid subject value: carol')]);
  });

  it('DELETE /gw/cache/jwks/{apiId} and /gw/cache/jwks forget the fetched keys: a key rotated under the same kid is used at once', async () => {
    const first = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const second = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = async (key: typeof first) => ({ ...(await exportJWK(key.publicKey)), kid: 'signing', alg: 'RS256', use: 'sig' });
    const token = (key: typeof first, sub: string) =>
      new SignJWT({ sub }).setProtectedHeader({ alg: 'RS256', kid: 'signing' }).setExpirationTime('5m').sign(key.privateKey);
    const status = async (jwt: string) => (await gw.call('/jwt-jwks/x', { headers: { authorization: `Bearer ${jwt}` } })).status;

    jwks.keys = [await jwk(first)];
    const before = await token(first, 'rot-1');
    expect(await status(before)).toBe(200);
    jwks.keys = [await jwk(second)]; // rotated at the identity provider, same kid: the gateway's keys are fresh for 240 s
    expect(await status(await token(second, 'rot-2'))).toBe(403);
    expect(await status(before)).toBe(200); // verified a moment ago

    const unauthorised = await gw.call('/gw/cache/jwks/jwt-jwks', { method: 'DELETE', headers: { 'x-gw-authorization': 'wrong' } });
    expect(unauthorised.status).toBe(403);
    const flushed = await gw.admin('DELETE', '/gw/cache/jwks/jwt-jwks');
    expect([flushed.status, flushed.text]).toEqual([200, '{"status":"ok","message":"cache invalidated"}\n']);
    const fetchesBefore = jwks.fetches;
    expect(await status(await token(second, 'rot-3'))).toBe(200);
    expect(jwks.fetches).toBe(fetchesBefore + 1);
    expect(await status(before)).toBe(403); // its key is gone: verified again after the flush, not served from memory

    jwks.keys = [await jwk(first)];
    expect(await status(await token(first, 'rot-4'))).toBe(403);
    const all = await gw.admin('DELETE', '/gw/cache/jwks');
    expect([all.status, all.text]).toEqual([200, '{"status":"ok","message":"cache invalidated"}\n']);
    expect(await status(await token(first, 'rot-5'))).toBe(200);
    expect((await gw.admin('DELETE', '/gw/cache/jwks/no-such-api')).status).toBe(200); // as Tyk: nothing cached for it
  });
});
