// strip_auth_data for every authentication mode, end to end: a real gateway process, a recording upstream, one API
// per mode (custom header, query parameter and cookie names included). Each request is admitted with its mode's
// credential, and the upstream must not see it (Tyk Gateway's StripAuth, after authentication).
import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey, classicApi, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { startUpstream, type Echo, type Upstream } from '../../support/upstream.ts';

const JWT_SECRET = 'a-shared-jwt-secret-of-the-strip-test';
const b64 = (text: string) => Buffer.from(text).toString('base64');
const oauthMeta = { allowed_access_types: ['client_credentials'], allowed_authorize_types: ['code'], auth_login_redirect: 'http://127.0.0.1:9/login' };

interface Case {
  /** The API's id and listen path. */
  api: string;
  definition: Record<string, unknown>;
  /** The request's path (query included) and headers carrying the credential. */
  request: () => Promise<{ path: string; headers: Record<string, string> }>;
  /** What the upstream saw of the credential: every entry must be undefined (or the credential-free remainder). */
  seen: (echo: Echo) => Record<string, unknown>;
  expected: Record<string, unknown>;
}

describe('strip_auth_data', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  const keys: Record<string, string> = {};
  const stripped = (extra: Record<string, unknown>) => ({ strip_auth_data: true, ...extra });

  const cases: Case[] = [
    {
      api: 'token-header',
      definition: stripped({ use_standard_auth: true, auth_configs: { authToken: { auth_header_name: 'X-Api-Key' } } }),
      request: async () => ({ path: '/token-header/x', headers: { 'x-api-key': keys['token-header']! } }),
      seen: (echo) => ({ key: echo.headers['x-api-key'] }),
      expected: { key: undefined },
    },
    {
      api: 'token-query',
      definition: stripped({ use_standard_auth: true, auth_configs: { authToken: { use_param: true, param_name: 'api_key', disable_header: true } } }),
      request: async () => ({ path: `/token-query/x?keep=1&api_key=${keys['token-query']}`, headers: {} }),
      seen: (echo) => ({ url: echo.url }),
      expected: { url: '/x?keep=1' },
    },
    {
      api: 'token-cookie',
      definition: stripped({ use_standard_auth: true, auth_configs: { authToken: { use_cookie: true, cookie_name: 'gw_session', disable_header: true } } }),
      request: async () => ({ path: '/token-cookie/x', headers: { cookie: `gw_session=${keys['token-cookie']}; other=1` } }),
      seen: (echo) => ({ cookie: echo.headers.cookie }),
      expected: { cookie: 'other=1' },
    },
    {
      api: 'basic',
      definition: stripped({ use_basic_auth: true, auth_configs: { basic: { auth_header_name: 'X-Basic' } } }),
      request: async () => ({ path: '/basic/x', headers: { 'x-basic': `Basic ${b64('strip-user:strip-password')}` } }),
      seen: (echo) => ({ basic: echo.headers['x-basic'] }),
      expected: { basic: undefined },
    },
    {
      api: 'jwt',
      definition: stripped({ enable_jwt: true, jwt_signing_method: 'hmac', jwt_source: b64(JWT_SECRET), jwt_default_policies: ['strip-jwt'] }),
      request: async () => {
        const token = await new SignJWT({ sub: 'strip-subject' })
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(Buffer.from(JWT_SECRET));
        return { path: '/jwt/x', headers: { authorization: `Bearer ${token}` } };
      },
      seen: (echo) => ({ authorization: echo.headers.authorization }),
      expected: { authorization: undefined },
    },
    {
      api: 'hmac',
      definition: stripped({ enable_signature_checking: true, hmac_allowed_clock_skew: 60_000 }),
      request: async () => {
        const date = new Date().toUTCString();
        const signature = createHmac('sha256', keys['hmac-secret']!).update(`date: ${date}`).digest('base64');
        const authorization = `Signature keyId="${keys.hmac}",algorithm="hmac-sha256",headers="date",signature="${encodeURIComponent(signature)}"`;
        return { path: '/hmac/x', headers: { date, authorization } };
      },
      seen: (echo) => ({ authorization: echo.headers.authorization }),
      expected: { authorization: undefined },
    },
    {
      api: 'oauth',
      definition: stripped({ use_oauth2: true, oauth_meta: oauthMeta }),
      request: async () => ({ path: '/oauth/x', headers: { authorization: `Bearer ${keys.oauth}` } }),
      seen: (echo) => ({ authorization: echo.headers.authorization }),
      expected: { authorization: undefined },
    },
  ];

  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway();
    for (const { api, definition } of cases)
      expect((await gw.admin('POST', '/gw/apis', classicApi(api, `/${api}`, upstream.url, definition))).status).toBe(200);
    for (const policy of [
      { id: 'strip-jwt', name: 'jwt', access_rights: { jwt: { api_id: 'jwt', versions: [] } } },
      { id: 'strip-oauth', name: 'oauth', access_rights: { oauth: { api_id: 'oauth', versions: [] } } },
      { id: 'strip-basic', name: 'basic', access_rights: { basic: { api_id: 'basic', versions: [] } } },
    ]) {
      expect((await gw.admin('POST', '/gw/policies', policy)).status).toBe(200);
    }
    await gw.reload();
    for (const api of ['token-header', 'token-query', 'token-cookie']) keys[api] = await addKey(gw, [api]);
    keys.hmac = await addKey(gw, ['hmac'], { hmac_enabled: true });
    keys['hmac-secret'] = (await gw.admin('GET', `/gw/keys/${keys.hmac}`)).json<{ hmac_string: string }>().hmac_string;
    const user = await gw.admin('POST', '/gw/keys/strip-user', { basic_auth_data: { password: 'strip-password' }, apply_policies: ['strip-basic'] });
    expect(user.status, user.text).toBe(200);
    const client = await gw.admin('POST', '/gw/oauth/clients/create', { api_id: 'oauth', policy_id: 'strip-oauth', redirect_uri: 'http://127.0.0.1:9/cb' });
    expect(client.status, client.text).toBe(200);
    const { client_id, secret } = client.json<{ client_id: string; secret: string }>();
    const issued = await gw.call('/oauth/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${b64(`${client_id}:${secret}`)}` },
      body: 'grant_type=client_credentials',
    });
    expect(issued.status, issued.text).toBe(200);
    keys.oauth = issued.json<{ access_token: string }>().access_token;
  });

  it.each(cases.map((c) => [c.api, c] as const))('%s: the request is admitted and its credential never reaches the upstream', async (_name, c) => {
    const { path, headers } = await c.request();
    const seen = upstream.requests.length;
    const result = await gw.call(path, { headers });
    expect(result.status, result.text).toBe(200);
    const forwarded = upstream.requests.slice(seen);
    expect(forwarded).toHaveLength(1);
    expect(c.seen(forwarded[0]!)).toEqual(c.expected);
  });
});
