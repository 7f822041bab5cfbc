// JWT and basic authentication end to end, and several modes on one API: a real gateway process, a real upstream,
// tokens minted here with jose (HS256, RS256, PS256, ES256), JWKS served by real loopback HTTP servers (key
// rotation; one that never answers), basic-auth keys created through the management API.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicApi, errorBody, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

const HMAC_SECRET = 'a-shared-hmac-secret-of-the-test';
const b64 = (text: string) => Buffer.from(text).toString('base64');
const basic = (user: string, password: string) => `Basic ${b64(`${user}:${password}`)}`;
const now = () => Math.floor(Date.now() / 1000);

async function mint(
  alg: string,
  key: CryptoKey | KeyObject | Uint8Array,
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg, ...header })
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(key);
}

/** A JWKS server whose key set the test replaces; counts its fetches. `hang` never answers. */
async function jwksServer(options: { hang?: boolean } = {}): Promise<{ url: string; keys: JWK[]; fetches: () => number; server: Server }> {
  const state = { keys: [] as JWK[], fetches: 0 };
  const server = createServer((_req, res) => {
    state.fetches++;
    if (options.hang) return; // never answers: the gateway's fetch timeout must end it
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: state.keys }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`,
    get keys() {
      return state.keys;
    },
    set keys(keys: JWK[]) {
      state.keys = keys;
    },
    fetches: () => state.fetches,
    server,
  };
}

describe('JWT and basic authentication', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  let rsa: { publicKey: KeyObject; privateKey: KeyObject };
  let ec: { publicKey: CryptoKey; privateKey: CryptoKey };
  let jwks: Awaited<ReturnType<typeof jwksServer>>;
  let down: Awaited<ReturnType<typeof jwksServer>>;
  const servers: Server[] = [];
  afterAll(async () => {
    for (const server of servers) server.closeAllConnections();
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  });

  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway();
    rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }); // a Node key signs both RS256 and PS256
    ec = await generateKeyPair('ES256', { extractable: true });
    jwks = await jwksServer();
    down = await jwksServer({ hang: true });
    servers.push(jwks.server, down.server);
    jwks.keys = [{ ...(await exportJWK(rsa.publicKey)), kid: 'first', alg: 'RS256', use: 'sig' }];
    const jwt = (extra: Record<string, unknown>) => ({ enable_jwt: true, jwt_policy_field_name: 'pol', jwt_default_policies: ['jwt-default'], ...extra });
    const apis = [
      classicApi('jwt-hmac', '/jwt-hmac', upstream.url, jwt({ jwt_signing_method: 'hmac', jwt_source: b64(HMAC_SECRET) })),
      classicApi(
        'jwt-rsa',
        '/jwt-rsa',
        upstream.url,
        jwt({ jwt_signing_method: 'rsa', jwt_source: b64(await exportSPKI(rsa.publicKey)), jwt_expires_at_validation_skew: 30 }),
      ),
      classicApi(
        'jwt-ec',
        '/jwt-ec',
        upstream.url,
        jwt({ jwt_signing_method: 'ecdsa', jwt_source: b64(await exportSPKI(ec.publicKey)), jwt_identity_base_field: 'user.id' }),
      ),
      classicApi('jwt-jwks', '/jwt-jwks', upstream.url, jwt({ jwt_signing_method: 'rsa', jwt_source: b64(jwks.url) })),
      classicApi('jwt-down', '/jwt-down', upstream.url, jwt({ jwt_signing_method: 'rsa', jwt_source: down.url })),
      classicApi(
        'jwt-scopes',
        '/jwt-scopes',
        upstream.url,
        jwt({ jwt_signing_method: 'hmac', jwt_source: b64(HMAC_SECRET), jwt_default_policies: [], jwt_scope_to_policy_mapping: { 'read:all': 'jwt-default' } }),
      ),
      classicApi('basic', '/basic', upstream.url, { use_basic_auth: true }),
      classicApi('basic-body', '/basic-body', upstream.url, {
        use_basic_auth: true,
        basic_auth: { extract_from_body: true, body_user_regexp: '<user>([^<]*)</user>', body_password_regexp: '<password>([^<]*)</password>' },
      }),
      classicApi('both', '/both', upstream.url, {
        use_basic_auth: true,
        enable_jwt: true,
        jwt_signing_method: 'hmac',
        jwt_source: b64(HMAC_SECRET),
        jwt_default_policies: ['both-jwt'],
        auth_configs: { jwt: { auth_header_name: 'X-Jwt' } },
        base_identity_provided_by: 'jwt_claim',
        strip_auth_data: true,
      }),
    ];
    for (const api of apis) expect((await gw.admin('POST', '/gw/apis', api)).status).toBe(200);
    const jwtApis = ['jwt-hmac', 'jwt-rsa', 'jwt-ec', 'jwt-jwks', 'jwt-down', 'jwt-scopes'];
    for (const policy of [
      {
        id: 'jwt-default',
        name: 'jwt default',
        access_rights: Object.fromEntries(jwtApis.map((id) => [id, { api_id: id, versions: [] }])),
        quota_max: 3,
        quota_renewal_rate: 3600,
      },
      { id: 'jwt-other', name: 'grants another API only', access_rights: { basic: { api_id: 'basic', versions: [] } } },
      { id: 'both-jwt', name: 'both, JWT side', access_rights: { both: { api_id: 'both', versions: [] } }, quota_max: 7, quota_renewal_rate: 3600 },
      {
        id: 'both-basic',
        name: 'both, basic side',
        access_rights: Object.fromEntries(['both', 'basic', 'basic-body'].map((id) => [id, { api_id: id, versions: [] }])),
        quota_max: 1000,
        quota_renewal_rate: 3600,
      },
    ]) {
      expect((await gw.admin('POST', '/gw/policies', policy)).status).toBe(200);
    }
    const oas = {
      openapi: '3.0.3',
      info: { title: 'oas-jwt', version: '1.0.0' },
      paths: {},
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, user: { type: 'http', scheme: 'basic' } } },
      security: [{ bearer: [] }],
      'x-gw-api-gateway': {
        info: { name: 'oas-jwt', id: 'oas-jwt', state: { active: true } },
        upstream: { url: upstream.url },
        server: {
          listenPath: { value: '/oas-jwt/', strip: true },
          authentication: {
            enabled: true,
            securitySchemes: {
              bearer: {
                enabled: true,
                source: b64(await exportSPKI(ec.publicKey)),
                signingMethod: 'ecdsa',
                identityBaseField: 'email',
                defaultPolicies: ['oas-jwt'],
              },
            },
          },
        },
      },
    };
    expect((await gw.admin('POST', '/gw/apis/oas', oas)).status).toBe(200);
    const noSource = structuredClone(oas);
    noSource['x-gw-api-gateway'].info.id = 'oas-no-source';
    const { source: _dropped, ...withoutSource } = noSource['x-gw-api-gateway'].server.authentication.securitySchemes.bearer;
    noSource['x-gw-api-gateway'].server.authentication.securitySchemes = {
      bearer: withoutSource,
    } as (typeof oas)['x-gw-api-gateway']['server']['authentication']['securitySchemes'];
    const refused = await gw.admin('POST', '/gw/apis/oas', noSource);
    expect(refused.status).toBe(400);
    expect(refused.json<{ message: string }>().message).toContain('x-gw-api-gateway.server.authentication.securitySchemes.bearer.source is required');
    expect(
      (await gw.admin('POST', '/gw/policies', { id: 'oas-jwt', name: 'oas', access_rights: { 'oas-jwt': { api_id: 'oas-jwt', versions: [] } } })).status,
    ).toBe(200);
    await gw.reload();
  });

  it("OAS: an http bearer scheme with bearerFormat JWT uses the extension's JWT settings", async () => {
    const token = await mint('ES256', ec.privateKey, { email: 'oas@example.com' });
    expect((await gw.call('/oas-jwt/x', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    const hs = await mint('HS256', new TextEncoder().encode(HMAC_SECRET), { email: 'oas@example.com' });
    const refused = await gw.call('/oas-jwt/x', { headers: { authorization: `Bearer ${hs}` } });
    expect([refused.status, refused.text]).toEqual([403, errorBody('Key not authorized: Unexpected signing method')]);
    expect((await gw.admin('GET', '/gw/apis/oas-jwt')).json()).toMatchObject({ enable_jwt: true, jwt_signing_method: 'ecdsa' });
  });

  it('admits HS256, RS256, PS256 and ES256 tokens signed with the configured key', async () => {
    const hs = await mint('HS256', new TextEncoder().encode(HMAC_SECRET), { sub: 'hs-user' });
    expect((await gw.call('/jwt-hmac/x', { headers: { authorization: `Bearer ${hs}` } })).status).toBe(200);
    for (const alg of ['RS256', 'PS256']) {
      const token = await mint(alg, rsa.privateKey, { sub: `${alg}-user` });
      expect((await gw.call('/jwt-rsa/x', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    }
    const es = await mint('ES256', ec.privateKey, { user: { id: 'nested-user' } });
    expect((await gw.call('/jwt-ec/x', { headers: { authorization: es } })).status).toBe(200);
  });

  it("refuses a missing token, garbage, alg none, algorithm confusion and a wrong key with Tyk's answers", async () => {
    const missing = await gw.call('/jwt-rsa/x');
    expect([missing.status, missing.text]).toEqual([400, errorBody('Authorization field missing')]);
    const garbage = await gw.call('/jwt-rsa/x', { headers: { authorization: 'Bearer not.a.jwt' } });
    expect([garbage.status, garbage.text]).toEqual([403, errorBody('Key not authorized')]);
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'x' })).toString('base64url')}.`;
    const unsigned = await gw.call('/jwt-rsa/x', { headers: { authorization: `Bearer ${none}` } });
    expect([unsigned.status, unsigned.text]).toEqual([403, errorBody('Key not authorized: Unexpected signing method')]);
    // Algorithm confusion: an HMAC token keyed with the API's public RSA key.
    const confused = await mint('HS256', new TextEncoder().encode(await exportSPKI(rsa.publicKey)), { sub: 'attacker' });
    const confusion = await gw.call('/jwt-rsa/x', { headers: { authorization: `Bearer ${confused}` } });
    expect([confusion.status, confusion.text]).toEqual([403, errorBody('Key not authorized: Unexpected signing method')]);
    const other = await generateKeyPair('RS256');
    const forged = await gw.call('/jwt-rsa/x', { headers: { authorization: `Bearer ${await mint('RS256', other.privateKey, { sub: 'x' })}` } });
    expect([forged.status, forged.text]).toEqual([403, errorBody('Key not authorized')]);
  });

  it('checks exp, nbf and iat with the configured skews', async () => {
    const sign = (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: 'RS256' }).sign(rsa.privateKey);
    const call = async (claims: Record<string, unknown>) => {
      const result = await gw.call('/jwt-rsa/x', { headers: { authorization: `Bearer ${await sign({ sub: 'times', ...claims })}` } });
      return [result.status, result.text];
    };
    expect(await call({ exp: now() - 120 })).toEqual([401, errorBody('Key not authorized: token has expired')]);
    expect((await call({ exp: now() - 5 }))[0]).toBe(200); // within jwt_expires_at_validation_skew (30 s)
    expect(await call({ nbf: now() + 600 })).toEqual([401, errorBody('Key not authorized: token is not valid yet')]);
    expect(await call({ iat: now() + 600 })).toEqual([401, errorBody('Key not authorized: token used before issued')]);
  });

  it('builds a session per identity from the policy: quota counted per identity, access rights enforced', async () => {
    const key = new TextEncoder().encode(HMAC_SECRET);
    const alice = await mint('HS256', key, { sub: 'quota-alice' });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await gw.call('/jwt-hmac/x', { headers: { authorization: `Bearer ${alice}` } })).status);
    expect(statuses).toEqual([200, 200, 200, 403]);
    const bob = await mint('HS256', key, { sub: 'quota-bob' });
    const first = await gw.call('/jwt-hmac/x', { headers: { authorization: `Bearer ${bob}` } });
    expect(first.status).toBe(200);
    expect(first.headers['x-ratelimit-limit']).toBe('3');
    const elsewhere = await mint('HS256', key, { sub: 'quota-carol', pol: 'jwt-other' });
    const refused = await gw.call('/jwt-hmac/x', { headers: { authorization: `Bearer ${elsewhere}` } });
    expect([refused.status, refused.text]).toEqual([403, errorBody('Access to this API has been disallowed')]);
    const unknown = await mint('HS256', key, { sub: 'quota-dave', pol: 'no-such-policy' });
    const unknownPolicy = await gw.call('/jwt-hmac/x', { headers: { authorization: `Bearer ${unknown}` } });
    expect([unknownPolicy.status, unknownPolicy.text]).toEqual([403, errorBody('key not authorized: no matching policy')]);
    const nobody = await mint('HS256', key, { name: 'no subject' });
    const noIdentity = await gw.call('/jwt-hmac/x', { headers: { authorization: `Bearer ${nobody}` } });
    expect([noIdentity.status, noIdentity.text]).toEqual([403, errorBody('no suitable claims for user ID were found')]);
  });

  it('maps scopes to policies', async () => {
    const key = new TextEncoder().encode(HMAC_SECRET);
    const reader = await mint('HS256', key, { sub: 'scoped', scope: 'openid read:all' });
    expect((await gw.call('/jwt-scopes/x', { headers: { authorization: `Bearer ${reader}` } })).status).toBe(200);
    const writer = await mint('HS256', key, { sub: 'scoped-2', scope: 'write:all' });
    const refused = await gw.call('/jwt-scopes/x', { headers: { authorization: `Bearer ${writer}` } });
    expect([refused.status, refused.text]).toEqual([403, errorBody('key not authorized: no matching policy found in scope claim')]);
  });

  it('verifies with JWKS keys by kid, refetching on a new kid after rotation', async () => {
    const first = await mint('RS256', rsa.privateKey, { sub: 'jwks-user' }, { kid: 'first' });
    expect((await gw.call('/jwt-jwks/x', { headers: { authorization: `Bearer ${first}` } })).status).toBe(200);
    expect((await gw.call('/jwt-jwks/x', { headers: { authorization: `Bearer ${first}` } })).status).toBe(200);
    expect(jwks.fetches()).toBe(1); // cached: not fetched per request

    const rotated = await generateKeyPair('RS256', { extractable: true });
    jwks.keys = [{ ...(await exportJWK(rotated.publicKey)), kid: 'second', alg: 'RS256' }];
    const second = await mint('RS256', rotated.privateKey, { sub: 'jwks-user' }, { kid: 'second' });
    // The gateway refetches on an unknown kid, at most once per interval (10 s): poll until the new key is used.
    const deadline = Date.now() + 30_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await gw.call('/jwt-jwks/x', { headers: { authorization: `Bearer ${second}` } })).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 500));
    }
    expect(status).toBe(200);
    expect(jwks.fetches()).toBeLessThanOrEqual(3);
    const unknownKid = await mint('RS256', rotated.privateKey, { sub: 'jwks-user' }, { kid: 'never-published' });
    const refused = await gw.call('/jwt-jwks/x', { headers: { authorization: `Bearer ${unknownKid}` } });
    expect([refused.status, refused.text]).toEqual([403, errorBody('Key not authorized')]);
  });

  it('a JWKS endpoint that never answers blocks neither other APIs nor the gateway, and is refused in the end', async () => {
    const token = await mint('RS256', rsa.privateKey, { sub: 'down-user' }, { kid: 'first' });
    let settled = false;
    const pending = gw.call('/jwt-down/x', { headers: { authorization: `Bearer ${token}` } }).finally(() => {
      settled = true;
    });
    while (down.fetches() === 0) await new Promise((r) => setTimeout(r, 20));
    const hs = await mint('HS256', new TextEncoder().encode(HMAC_SECRET), { sub: 'meanwhile' });
    expect((await gw.call('/jwt-hmac/x', { headers: { authorization: `Bearer ${hs}` } })).status).toBe(200);
    expect(settled).toBe(false); // the other API answered while this one still waited for its JWKS
    const result = await pending;
    expect([result.status, result.text]).toEqual([403, errorBody('Key not authorized')]);
  });

  it('basic auth: a key created with basic_auth_data is named org+username, stored without its password, and checked', async () => {
    const created = await gw.admin('POST', '/gw/keys/alice', { basic_auth_data: { password: 'plain-secret-password' }, apply_policies: ['both-basic'] });
    expect(created.status).toBe(200);
    expect(created.json<{ key: string }>().key).toBe('alice');
    const shown = (await gw.admin('GET', '/gw/keys/alice')).json<{ basic_auth_data: { password: string; hash_type: string } }>();
    expect(shown.basic_auth_data).toEqual({ password: '', hash_type: 'bcrypt' });
    const stored = readdirSync(join(gw.dir, 'data'))
      .map((file) => readFileSync(join(gw.dir, 'data', file), 'utf8'))
      .join('');
    expect(stored).not.toContain('plain-secret-password');
    expect(stored).toMatch(/\$2[aby]\$10\$/);

    expect((await gw.call('/basic/x', { headers: { authorization: basic('alice', 'plain-secret-password') } })).status).toBe(200);
    expect((await gw.call('/basic/x', { headers: { authorization: basic('alice', 'plain-secret-password') } })).status).toBe(200);
    for (const [user, password] of [
      ['alice', 'wrong'],
      ['mallory', 'plain-secret-password'],
    ] as const) {
      const refused = await gw.call('/basic/x', { headers: { authorization: basic(user, password) } });
      expect([refused.status, refused.text, refused.headers['www-authenticate']]).toEqual([401, errorBody('User not authorised'), 'Basic realm="basic"']);
    }
    const missing = await gw.call('/basic/x');
    expect([missing.status, missing.text, missing.headers['www-authenticate']]).toEqual([401, errorBody('Authorization field missing'), 'Basic realm="basic"']);
    const malformed = await gw.call('/basic/x', { headers: { authorization: 'Basic' } });
    expect([malformed.status, malformed.text]).toEqual([400, errorBody('Attempted access with malformed header, header not in basic auth format')]);
    const notPair = await gw.call('/basic/x', { headers: { authorization: `Basic ${b64('no-colon')}` } });
    expect([notPair.status, notPair.text]).toEqual([400, errorBody('Attempted access with malformed header, values not in basic auth format')]);

    // A changed password takes effect at once; the old one is refused even though it was verified (cached) before.
    expect((await gw.admin('PUT', '/gw/keys/alice', { basic_auth_data: { password: 'new-password' }, apply_policies: ['both-basic'] })).status).toBe(200);
    expect((await gw.call('/basic/x', { headers: { authorization: basic('alice', 'plain-secret-password') } })).status).toBe(401);
    expect((await gw.call('/basic/x', { headers: { authorization: basic('alice', 'new-password') } })).status).toBe(200);
  });

  it('basic auth: credentials from the body when configured, the body still reaching the upstream', async () => {
    expect((await gw.admin('POST', '/gw/keys/soap-user', { basic_auth_data: { password: 'soap-password' }, apply_policies: ['both-basic'] })).status).toBe(200);
    const envelope = '<login><user>soap-user</user><password>soap-password</password></login>';
    const seen = upstream.requests.length;
    const ok = await gw.call('/basic-body/login', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: envelope });
    expect(ok.status).toBe(200);
    expect(upstream.requests.slice(seen).map((r) => r.body)).toEqual([envelope]);
    const wrong = await gw.call('/basic-body/login', { method: 'POST', body: envelope.replace('soap-password', 'nope') });
    expect([wrong.status, wrong.text]).toEqual([401, errorBody('User not authorised')]);
    const noUser = await gw.call('/basic-body/login', { method: 'POST', body: '<login/>' });
    expect([noUser.status, noUser.text]).toEqual([400, errorBody('Body do not contain username')]);
    // The header still works on such an API.
    expect((await gw.call('/basic-body/x', { headers: { authorization: basic('soap-user', 'soap-password') } })).status).toBe(200);
  });

  it('several modes: every enabled mode must pass, and the session comes from the one base_identity_provided_by names', async () => {
    expect((await gw.admin('POST', '/gw/keys/both-user', { basic_auth_data: { password: 'both-password' }, apply_policies: ['both-basic'] })).status).toBe(200);
    const token = await mint('HS256', new TextEncoder().encode(HMAC_SECRET), { sub: 'both-identity' });
    const onlyBasic = await gw.call('/both/x', { headers: { authorization: basic('both-user', 'both-password') } });
    expect([onlyBasic.status, onlyBasic.text]).toEqual([400, errorBody('Authorization field missing')]);
    const onlyJwt = await gw.call('/both/x', { headers: { 'x-jwt': token } });
    expect(onlyJwt.status).toBe(401);
    const wrongPassword = await gw.call('/both/x', { headers: { authorization: basic('both-user', 'nope'), 'x-jwt': token } });
    expect(wrongPassword.status).toBe(401);
    const seen = upstream.requests.length;
    const both = await gw.call('/both/x', { headers: { authorization: basic('both-user', 'both-password'), 'x-jwt': token } });
    expect(both.status).toBe(200);
    // strip_auth_data removes every mode's credential.
    expect(upstream.requests.slice(seen).map((r) => [r.headers.authorization, r.headers['x-jwt']])).toEqual([[undefined, undefined]]);
    // The JWT's policy (quota 7) is the session's, not the basic key's (quota 1000).
    expect(both.headers['x-ratelimit-limit']).toBe('7');
  });
});
