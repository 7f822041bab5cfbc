// The OAuth 2.0 grants a user takes part in, through a real gateway process: authorization_code (the gateway sends
// the user to the API's auth_login_redirect, a login page the test runs calls authorize-client with the gateway
// secret, the code is exchanged once and a second exchange refused; PKCE), refresh_token (a new pair; the old
// access and refresh tokens stop working), password (a basic-auth user's key becomes the token's session), and
// notifications.oauth_on_keychange_url receiving Tyk's key-change notifications with the shared secret.
import type { IncomingMessage } from 'node:http';
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, http, type HttpResult, type RunningGateway, SECRET, startGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';
import { waitUntil } from '../../support/wait.ts';

interface Client {
  client_id: string;
  secret: string;
}
interface Tokens {
  access_token: string;
  refresh_token?: string;
  token_type: string;
  expires_in: number;
}

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const REDIRECT = 'http://127.0.0.1:9/app/callback';
const OTHER_REDIRECT = 'http://127.0.0.1:9/app/other';

describe('OAuth 2.0 authorization_code, refresh_token and password grants', () => {
  let gw: RunningGateway;
  let client: Client;
  let receiver: Upstream;
  let login: Upstream;
  const loginRequests: string[] = [];

  const tokenRequest = (params: Record<string, string>): Promise<HttpResult> =>
    gw.call('/oauth-api/oauth/token', {
      method: 'POST',
      headers: form,
      body: new URLSearchParams({ client_id: client.client_id, client_secret: client.secret, ...params }).toString(),
    });
  /** The login page's side: authorize-client with the gateway secret, as a Tyk login page does. */
  const authorizeClient = async (params: Record<string, string>): Promise<{ code: string; redirect_to: string; state?: string }> => {
    const answer = await gw.call('/oauth-api/tyk/oauth/authorize-client', {
      method: 'POST',
      headers: { ...form, 'x-gw-authorization': SECRET },
      body: new URLSearchParams(params).toString(),
    });
    expect(answer.status, answer.text).toBe(200);
    return answer.json();
  };
  const notificationsOf = (type: string) =>
    receiver.requests
      .filter((r) => r.url === '/keychange')
      .map((r) => ({ headers: r.headers, body: JSON.parse(r.body) as Record<string, string> }))
      .filter((n) => n.body.notification_type === type);

  beforeAll(async () => {
    const upstream = await startUpstream();
    receiver = await startUpstream();
    // The login page: records what the gateway sent the user with, then authorizes (the user "agreed").
    login = await startUpstream((req: IncomingMessage, res) => {
      const query = new URL(req.url ?? '/', 'http://login').searchParams;
      loginRequests.push(req.url ?? '');
      void authorizeClient(Object.fromEntries(query)).then((granted) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(granted));
      });
      return true;
    });
    gw = await startGateway({ oauth_redirect_uri_separator: ';' });
    const api = classicApi('oauth', '/oauth-api/', upstream.url, {
      use_oauth2: true,
      oauth_meta: {
        allowed_access_types: ['authorization_code', 'refresh_token', 'password'],
        allowed_authorize_types: ['code'],
        auth_login_redirect: `${login.url}/login`,
      },
      notifications: { shared_secret: 'notification-secret', oauth_on_keychange_url: `${receiver.url}/keychange` },
    });
    expect((await gw.admin('POST', '/gw/apis', api)).status).toBe(200);
    expect(
      (await gw.admin('POST', '/gw/policies', { id: 'oauth-policy', name: 'oauth', access_rights: { oauth: { api_id: 'oauth', versions: [] } } })).status,
    ).toBe(200);
    await gw.reload();
    const created = await gw.admin('POST', '/gw/oauth/clients/create', {
      api_id: 'oauth',
      policy_id: 'oauth-policy',
      redirect_uri: `${REDIRECT};${OTHER_REDIRECT}`,
    });
    expect(created.status, created.text).toBe(200);
    client = created.json<Client>();
  });

  it('sends the user to auth_login_redirect, whose authorize-client code is exchanged once; a second exchange is refused', async () => {
    const query = new URLSearchParams({ client_id: client.client_id, redirect_uri: REDIRECT, response_type: 'code', state: 'xyz' }).toString();
    const redirected = await gw.call(`/oauth-api/oauth/authorize?${query}`);
    expect(redirected.status).toBe(307);
    expect(redirected.headers.location).toBe(`${login.url}/login?${query}`);
    const granted = (await http(redirected.headers.location as string)).json<{ code: string; redirect_to: string; state: string }>();
    expect(loginRequests).toEqual([`/login?${query}`]);
    expect(granted.redirect_to).toBe(`${REDIRECT}?code=${granted.code}&state=xyz`);

    const exchanged = await tokenRequest({ grant_type: 'authorization_code', code: granted.code, redirect_uri: REDIRECT });
    expect(exchanged.status, exchanged.text).toBe(200);
    const tokens = exchanged.json<Tokens>();
    expect(Object.keys(tokens).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type']);
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect((await gw.call('/oauth-api/resource', { headers: bearer(tokens.access_token) })).status).toBe(200);
    const again = await tokenRequest({ grant_type: 'authorization_code', code: granted.code, redirect_uri: REDIRECT });
    expect([again.status, again.json<{ error: string }>().error]).toEqual([403, 'invalid_grant']);

    const [notice] = await waitUntil(
      'the new-token notification',
      () =>
        notificationsOf('new').filter((n) => n.body.auth_code === granted.code).length > 0 &&
        notificationsOf('new').filter((n) => n.body.auth_code === granted.code),
    );
    expect(notice!.body).toEqual({
      auth_code: granted.code,
      new_oauth_token: tokens.access_token,
      refresh_token: tokens.refresh_token,
      old_refresh_token: '',
      notification_type: 'new',
    });
    expect(notice!.headers['x-tyk-shared-secret']).toBe('notification-secret');
    expect(notice!.headers['user-agent']).toBe('Tyk-Gatewy-Notifications');
  });

  it('accepts any redirect_uri the client registered (oauth_redirect_uri_separator), and refuses an unknown client or another URI', async () => {
    const other = await authorizeClient({ client_id: client.client_id, redirect_uri: OTHER_REDIRECT, response_type: 'code' });
    expect(other.redirect_to).toBe(`${OTHER_REDIRECT}?code=${other.code}`);
    const unknown = await gw.call(`/oauth-api/oauth/authorize?client_id=nobody&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code`);
    const elsewhere = await gw.call(`/oauth-api/oauth/authorize?client_id=${client.client_id}&redirect_uri=http://evil.example/cb&response_type=code`);
    expect([unknown.status, unknown.json<{ status: string }>().status, elsewhere.status]).toEqual([403, 'error', 403]);
  });

  it('checks the PKCE code_verifier of a code authorized with a code_challenge', async () => {
    const verifier = 'a-long-random-verifier-a-long-random-verifier-0123';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const params = { client_id: client.client_id, redirect_uri: REDIRECT, response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256' };
    const first = await authorizeClient(params);
    const wrong = await tokenRequest({ grant_type: 'authorization_code', code: first.code, code_verifier: 'not-the-verifier' });
    expect([wrong.status, wrong.json<{ error: string }>().error]).toEqual([403, 'invalid_grant']);
    const second = await authorizeClient(params);
    expect((await tokenRequest({ grant_type: 'authorization_code', code: second.code, code_verifier: verifier })).status).toBe(200);
  });

  it('refreshes: a new pair, the old access and refresh tokens refused, a refresh notification sent', async () => {
    const { code } = await authorizeClient({ client_id: client.client_id, redirect_uri: REDIRECT, response_type: 'code' });
    const first = (await tokenRequest({ grant_type: 'authorization_code', code })).json<Tokens>();
    const refreshed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token! });
    expect(refreshed.status, refreshed.text).toBe(200);
    const second = refreshed.json<Tokens>();
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await gw.call('/oauth-api/r', { headers: bearer(second.access_token) })).status).toBe(200);
    expect((await gw.call('/oauth-api/r', { headers: bearer(first.access_token) })).status).toBe(403);
    const reused = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token! });
    expect([reused.status, reused.json<{ error: string }>().error]).toEqual([403, 'invalid_grant']);
    const [notice] = await waitUntil('the refresh notification', () => {
      const found = notificationsOf('refresh').filter((n) => n.body.old_refresh_token === first.refresh_token);
      return found.length > 0 && found;
    });
    expect(notice!.body).toMatchObject({ new_oauth_token: second.access_token, refresh_token: second.refresh_token, notification_type: 'refresh' });
  });

  it("issues a token for a basic-auth user's password, carrying that user's key; a wrong password is refused", async () => {
    const user = await gw.admin('POST', '/gw/keys/alice', {
      basic_auth_data: { password: 'alice-password' },
      access_rights: { oauth: { api_id: 'oauth', versions: [] } },
      meta_data: { user: 'alice' },
    });
    expect(user.status, user.text).toBe(200);
    const wrong = await tokenRequest({ grant_type: 'password', username: 'alice', password: 'wrong' });
    expect([wrong.status, wrong.json<{ error: string }>().error]).toEqual([403, 'access_denied']);
    const issued = await tokenRequest({ grant_type: 'password', username: 'alice', password: 'alice-password' });
    expect(issued.status, issued.text).toBe(200);
    const tokens = issued.json<Tokens>();
    expect(typeof tokens.refresh_token).toBe('string');
    expect((await gw.call('/oauth-api/r', { headers: bearer(tokens.access_token) })).status).toBe(200);
    const stored = await gw.admin('GET', `/gw/keys/${tokens.access_token}`);
    expect(stored.json()).toMatchObject({ oauth_client_id: client.client_id, meta_data: { user: 'alice' } });
    expect(stored.json()).not.toHaveProperty('basic_auth_data');
  });
});
