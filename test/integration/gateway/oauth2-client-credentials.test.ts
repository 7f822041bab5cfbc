// The OAuth 2.0 authorization server of a real gateway process, client side: clients managed on
// /gw/oauth/clients (Tyk's shapes and refusals), the client_credentials grant on <listen path>/oauth/token, the
// bearer token used against the API with the client's policy (its rate limit applied), Tyk's bearer refusals,
// revocation through /oauth/revoke, oauth_token_expire, and a deleted client's tokens refused.
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey, classicApi, errorBody, type HttpResult, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { startUpstream } from '../../support/upstream.ts';
import { waitUntil } from '../../support/wait.ts';

interface Client {
  client_id: string;
  secret: string;
  redirect_uri: string;
  policy_id: string;
  api_id: string;
  meta_data: Record<string, unknown>;
}

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const basic = (client: Client) => ({ authorization: `Basic ${Buffer.from(`${client.client_id}:${client.secret}`).toString('base64')}` });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('OAuth 2.0 clients and the client_credentials grant', () => {
  let gw: RunningGateway;
  let client: Client;
  const token = async (who: Client = client): Promise<HttpResult> =>
    gw.call('/oauth-api/oauth/token', { method: 'POST', headers: { ...form, ...basic(who) }, body: 'grant_type=client_credentials' });

  beforeAll(async () => {
    const upstream = await startUpstream();
    gw = await startGateway();
    const oauthMeta = { allowed_access_types: ['client_credentials'], allowed_authorize_types: ['code'], auth_login_redirect: 'http://127.0.0.1:9/login' };
    for (const api of [
      classicApi('oauth', '/oauth-api/', upstream.url, { use_oauth2: true, oauth_meta: oauthMeta }),
      classicApi('plain', '/plain/', upstream.url),
    ]) {
      expect((await gw.admin('POST', '/gw/apis', api)).status).toBe(200);
    }
    const policy = { id: 'oauth-gold', name: 'gold', rate: 3, per: 60, access_rights: { oauth: { api_id: 'oauth', versions: [] } } };
    expect((await gw.admin('POST', '/gw/policies', policy)).status).toBe(200);
    await gw.reload();
    const created = await gw.admin('POST', '/gw/oauth/clients/create', {
      api_id: 'oauth',
      policy_id: 'oauth-gold',
      redirect_uri: 'http://127.0.0.1:9/cb',
      meta_data: { tier: 'gold' },
    });
    expect(created.status, created.text).toBe(200);
    client = created.json<Client>();
  });

  it('creates a client in Tyk shape and refuses what Tyk refuses', async () => {
    expect(client).toMatchObject({ api_id: 'oauth', policy_id: 'oauth-gold', redirect_uri: 'http://127.0.0.1:9/cb', meta_data: { tier: 'gold' } });
    expect(client.client_id).toMatch(/^[0-9a-f]{32}$/);
    expect(client.secret.length).toBeGreaterThanOrEqual(32);
    expect((await gw.admin('GET', `/gw/oauth/clients/oauth/${client.client_id}`)).json()).toEqual(client);
    expect((await gw.admin('GET', '/gw/oauth/clients/oauth')).json()).toEqual([client]);
    const refusals = await Promise.all([
      gw.admin('POST', '/gw/oauth/clients/create', { api_id: 'nope', policy_id: 'oauth-gold' }),
      gw.admin('POST', '/gw/oauth/clients/create', { api_id: 'plain', policy_id: 'oauth-gold' }),
      gw.admin('POST', '/gw/oauth/clients/create', { api_id: 'oauth', policy_id: 'missing' }),
      gw.admin('GET', '/gw/oauth/clients/oauth/unknown'),
    ]);
    expect(refusals.map((r) => [r.status, r.json<{ message: string }>().message])).toEqual([
      [400, "API doesn't exist"],
      [400, 'API is not OAuth2'],
      [400, "Policy doesn't exist"],
      [404, 'OAuth Client ID not found'],
    ]);
  });

  it('issues a bearer token for the client credentials, with no-store headers; a wrong secret or grant is refused', async () => {
    const issued = await token();
    expect(issued.status, issued.text).toBe(200);
    const body = issued.json<Record<string, unknown>>();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(body).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(typeof body.access_token).toBe('string');
    expect(issued.headers['cache-control']).toBe('no-cache, no-store, must-revalidate');
    expect(issued.headers['x-frame-options']).toBe('DENY');
    const wrong = await token({ ...client, secret: 'not-the-secret' });
    expect([wrong.status, wrong.json<{ error: string }>().error]).toEqual([403, 'invalid_client']);
    const password = await gw.call('/oauth-api/oauth/token', { method: 'POST', headers: { ...form, ...basic(client) }, body: 'grant_type=password' });
    expect([password.status, password.json<{ error: string }>().error]).toEqual([403, 'unsupported_grant_type']);
  });

  it("lets the token through with the client's policy: its rate limit applies; revoked, the token is refused", async () => {
    const access = (await token()).json<{ access_token: string }>().access_token;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await gw.call('/oauth-api/anything', { headers: bearer(access) })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const revoked = await gw.call('/oauth-api/oauth/revoke', { method: 'POST', headers: form, body: `token=${access}&token_type_hint=access_token` });
    expect([revoked.status, revoked.json()]).toEqual([200, { status: 'ok', message: 'token revoked successfully' }]);
    const after = await gw.call('/oauth-api/anything', { headers: bearer(access) });
    expect([after.status, after.text]).toEqual([403, errorBody('Key not authorised')]);
  });

  it("answers Tyk's bearer refusals; a key that is not an OAuth token is refused, and /oauth/revoke never deletes it", async () => {
    const answers = await Promise.all([
      gw.call('/oauth-api/x'),
      gw.call('/oauth-api/x', { headers: { authorization: 'Basic abc' } }),
      gw.call('/oauth-api/x', { headers: bearer('unknown-token') }),
    ]);
    expect(answers.map((r) => [r.status, r.text])).toEqual([
      [400, errorBody('Authorization field missing')],
      [400, errorBody('Bearer token malformed')],
      [403, errorBody('Key not authorised')],
    ]);
    const key = await addKey(gw, ['oauth', 'plain']);
    expect((await gw.call('/oauth-api/x', { headers: bearer(key) })).status).toBe(403);
    expect((await gw.call('/oauth-api/oauth/revoke', { method: 'POST', headers: form, body: `token=${key}` })).status).toBe(200);
    expect((await gw.call('/plain/x', { headers: { authorization: key } })).status).toBe(200);
  });

  it('gives tokens the lifetime oauth_token_expire sets; an expired one answers 401 `Key has expired, please renew` until purged', async () => {
    const shortLived = await startGateway({ oauth_token_expire: 1 });
    const upstream = await startUpstream();
    const oauthMeta = { allowed_access_types: ['client_credentials'] };
    expect(
      (await shortLived.admin('POST', '/gw/apis', classicApi('oauth', '/oauth-api/', upstream.url, { use_oauth2: true, oauth_meta: oauthMeta }))).status,
    ).toBe(200);
    const policy = { id: 'p', name: 'p', access_rights: { oauth: { api_id: 'oauth', versions: [] } } };
    expect((await shortLived.admin('POST', '/gw/policies', policy)).status).toBe(200);
    await shortLived.reload();
    const own = (await shortLived.admin('POST', '/gw/oauth/clients/create', { api_id: 'oauth', policy_id: 'p' })).json<Client>();
    const issued = await shortLived.call('/oauth-api/oauth/token', {
      method: 'POST',
      headers: { ...form, ...basic(own) },
      body: 'grant_type=client_credentials',
    });
    const { access_token, expires_in } = issued.json<{ access_token: string; expires_in: number }>();
    expect(expires_in).toBe(1);
    const expired = await waitUntil('the token to expire', async () => {
      const answer = await shortLived.call('/oauth-api/x', { headers: bearer(access_token) });
      return answer.status !== 200 && answer;
    });
    expect([expired.status, expired.text]).toEqual([401, errorBody('Key has expired, please renew')]);
    const purged = await shortLived.admin('DELETE', '/gw/oauth/tokens?scope=lapsed');
    expect([purged.status, purged.json()]).toEqual([200, { status: 'ok', message: 'lapsed tokens purged', purged: 1 }]);
    expect((await shortLived.call('/oauth-api/x', { headers: bearer(access_token) })).text).toBe(errorBody('Key not authorised'));
  });

  it('refuses the tokens of a deleted client: `Key not authorised. OAuth client access was revoked`', async () => {
    const created = await gw.admin('POST', '/gw/oauth/clients/create', { api_id: 'oauth', policy_id: 'oauth-gold', client_id: 'short-lived' });
    const shortLived = created.json<Client>();
    const access = (await token(shortLived)).json<{ access_token: string }>().access_token;
    expect((await gw.call('/oauth-api/x', { headers: bearer(access) })).status).toBe(200);
    expect((await gw.admin('DELETE', '/gw/oauth/clients/oauth/short-lived')).status).toBe(200);
    // Clients are looked up again after a short cache period (Tyk caches them too): polled, not slept.
    const refused = await waitUntil('the deleted client to be noticed', async () => {
      const answer = await gw.call('/oauth-api/x', { headers: bearer(access) });
      return answer.status === 403 && answer;
    });
    expect(refused.text).toBe(errorBody('Key not authorised. OAuth client access was revoked'));
    expect((await token(shortLived)).json<{ error: string }>().error).toBe('invalid_client');
  });
});
