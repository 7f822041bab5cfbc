// The web UI's sign-in sessions over plain HTTP, on a real PostgreSQL and on PGlite: POST /session with an access
// key sets an HttpOnly, SameSite=Strict cookie; the cookie reaches /api through the same permission checks as the
// Authorization header (never more), its writes need the session's x-csrf-token and a same-site Origin; an
// Authorization header, when sent, is the credential (a cookie never rescues a wrong one); a key reset or a
// deactivation ends the user's sessions; sign-out ends it on the server; a session expires after
// session_ttl_seconds; session_cookie_secure marks the cookie Secure.
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, createOrg, startDashboard, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { ENGINES, useDatabases } from '../../support/postgres.ts';
import { waitUntil } from '../../support/wait.ts';

interface SessionView {
  user: { id: string; email_address: string; user_permissions: Record<string, string> };
  org: { id: string; operator_managed: boolean };
  csrf_token: string;
  expires_at: string;
}

describe.each(ENGINES)('dashboard web UI sessions on %s', (engine) => {
  const db = useDatabases(engine);
  let dashboard: RunningDashboard;
  let a: TestOrg;

  beforeAll(async () => {
    dashboard = await startDashboard(db.config());
    a = await createOrg(dashboard, 'A');
  });

  const signIn = async (accessKey: string): Promise<{ cookie: string; session: SessionView; setCookie: string }> => {
    const response = await dashboard.anonymous('POST', '/session', { access_key: accessKey });
    expect(response.status).toBe(200);
    const setCookie = String(response.headers['set-cookie']);
    return { cookie: setCookie.split(';')[0]!, session: response.json<SessionView>(), setCookie };
  };
  const withCookie = (cookie: string, extra: Record<string, string> = {}): Record<string, string> => ({ cookie, ...extra });

  it('signs in with an access key into an HttpOnly SameSite=Strict cookie; never echoes the key', async () => {
    const response = await dashboard.anonymous('POST', '/session', { access_key: a.key });
    expect(response.status).toBe(200);
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/^gw_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=28800$/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.text).not.toContain(a.key);
    expect(setCookie).not.toContain(a.key);
    expect(response.json<SessionView>()).toMatchObject({ org: { id: a.id, operator_managed: false }, user: { user_permissions: { apis: 'write' } } });
    const cookie = setCookie.split(';')[0]!;
    expect((await dashboard.anonymous('GET', '/session', undefined, withCookie(cookie))).json<SessionView>().csrf_token).toBe(
      response.json<SessionView>().csrf_token,
    );
  });

  it('refuses a wrong or missing key (401, 400 naming access_key) and a sign-in from another origin', async () => {
    expect((await dashboard.anonymous('POST', '/session', { access_key: 'nope' })).status).toBe(401);
    const missing = await dashboard.anonymous('POST', '/session', {});
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('access_key');
    const foreign = await dashboard.anonymous('POST', '/session', { access_key: a.key }, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['set-cookie']).toBeUndefined();
    expect((await dashboard.anonymous('GET', '/session')).status).toBe(401);
    expect((await dashboard.anonymous('GET', '/api/apis', undefined, { cookie: 'gw_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })).status).toBe(401);
  });

  it('reads with the cookie; writes need x-csrf-token and a same-site Origin', async () => {
    const { cookie, session } = await signIn(a.key);
    expect((await dashboard.anonymous('GET', '/api/apis', undefined, withCookie(cookie))).status).toBe(200);
    const noToken = await dashboard.anonymous('POST', '/api/apis', classicApi('No token', '/no-token/'), withCookie(cookie));
    expect(noToken.status).toBe(403);
    expect(noToken.text).toContain('x-csrf-token');
    const wrongToken = await dashboard.anonymous(
      'POST',
      '/api/apis',
      classicApi('Wrong token', '/wrong-token/'),
      withCookie(cookie, { 'x-csrf-token': 'x'.repeat(32) }),
    );
    expect(wrongToken.status).toBe(403);
    const foreign = await dashboard.anonymous(
      'POST',
      '/api/apis',
      classicApi('Foreign', '/foreign/'),
      withCookie(cookie, { 'x-csrf-token': session.csrf_token, origin: 'https://evil.example' }),
    );
    expect(foreign.status).toBe(403);
    expect(foreign.text).toContain('Origin');
    const ok = await dashboard.anonymous(
      'POST',
      '/api/apis',
      classicApi('By session', '/by-session/'),
      withCookie(cookie, { 'x-csrf-token': session.csrf_token, origin: dashboard.url }),
    );
    expect(ok.status).toBe(200);
    const names = (await a.call('GET', '/api/apis?p=-2')).json<{ apis: { api_definition: { name: string } }[] }>().apis.map((x) => x.api_definition.name);
    expect(names).toEqual(['By session']);
  });

  it('goes through the same permission checks as the Authorization header, and a sent header is the credential', async () => {
    const readOnly = await a.user({ apis: 'read' });
    const { cookie, session } = await signIn(readOnly);
    const write = await dashboard.anonymous(
      'POST',
      '/api/apis',
      classicApi('Read-only', '/read-only/'),
      withCookie(cookie, { 'x-csrf-token': session.csrf_token }),
    );
    expect(write.status).toBe(403);
    expect(write.text).toContain('requires apis write');
    expect((await dashboard.anonymous('GET', '/api/portal/policies', undefined, withCookie(cookie))).status).toBe(403);
    // A cookie never rescues a wrong Authorization header, nor lifts a read-only one.
    const writer = await signIn(a.key);
    expect((await dashboard.anonymous('GET', '/api/apis', undefined, withCookie(writer.cookie, { authorization: 'wrong' }))).status).toBe(401);
    const mixed = await dashboard.anonymous(
      'POST',
      '/api/apis',
      classicApi('Mixed', '/mixed/'),
      withCookie(writer.cookie, { authorization: readOnly, 'x-csrf-token': writer.session.csrf_token }),
    );
    expect(mixed.status).toBe(403);
  });

  it('ends the sessions of a user whose key is reset or who is deactivated', async () => {
    const key = await a.user({ apis: 'read' });
    const first = await signIn(key);
    const reset = await dashboard.admin('POST', `/admin/users/${first.session.user.id}/actions/key/reset`);
    expect(reset.status).toBe(200);
    expect((await dashboard.anonymous('GET', '/api/apis', undefined, withCookie(first.cookie))).status).toBe(401);
    const second = await signIn(reset.json<{ Meta: { access_key: string } }>().Meta.access_key);
    expect((await dashboard.anonymous('GET', '/api/apis', undefined, withCookie(second.cookie))).status).toBe(200);
    expect((await dashboard.admin('PUT', `/admin/users/${second.session.user.id}`, { active: false })).status).toBe(200);
    expect((await dashboard.anonymous('GET', '/api/apis', undefined, withCookie(second.cookie))).status).toBe(401);
    expect((await dashboard.anonymous('GET', '/session', undefined, withCookie(second.cookie))).status).toBe(401);
  });

  it('signs out on the server: the old cookie opens nothing afterwards', async () => {
    const { cookie, session } = await signIn(a.key);
    expect((await dashboard.anonymous('DELETE', '/session', undefined, withCookie(cookie))).status).toBe(403);
    const out = await dashboard.anonymous('DELETE', '/session', undefined, withCookie(cookie, { 'x-csrf-token': session.csrf_token }));
    expect(out.status).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/^gw_session=; .*Max-Age=0/);
    expect((await dashboard.anonymous('GET', '/api/apis', undefined, withCookie(cookie))).status).toBe(401);
    expect((await dashboard.anonymous('GET', '/session', undefined, withCookie(cookie))).status).toBe(401);
  });

  it('expires a session after session_ttl_seconds; session_cookie_secure marks the cookie Secure', async () => {
    const short = await startDashboard(db.config({ session_ttl_seconds: 2, session_cookie_secure: true }));
    const org = await createOrg(short, 'Short');
    const response = await short.anonymous('POST', '/session', { access_key: org.key });
    expect(response.status).toBe(200);
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/; Max-Age=2; Secure$/);
    const cookie = setCookie.split(';')[0]!;
    await waitUntil('the session to expire', async () => (await short.anonymous('GET', '/api/apis', undefined, { cookie })).status === 401, {
      timeoutMs: 30_000,
      intervalMs: 250,
    });
    expect((await short.anonymous('GET', '/session', undefined, { cookie })).status).toBe(401);
    expect((await short.anonymous('GET', '/api/apis', undefined, { authorization: org.key })).status).toBe(200);
  });
});
