// The web UI's administrator sessions over plain HTTP, on a real PostgreSQL and on PGlite: POST /session/admin with
// the admin secret sets an HttpOnly, SameSite=Strict administrator cookie that opens /admin (never /api), with the
// session's x-csrf-token on writes; the secret is never echoed; a user's session never opens /admin; a changed admin
// secret ends every administrator session; sign-out ends it on the server. Also: the admin API refuses to deactivate
// the operator's system user (naming it), unless `system` is unset first.
import { readFileSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_SECRET, createOrg, startDashboard, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { ENGINES, useDatabases } from '../../support/postgres.ts';

interface AdminView {
  admin: boolean;
  csrf_token: string;
  expires_at: string;
}

describe.each(ENGINES)('dashboard administrator sessions on %s', (engine) => {
  const db = useDatabases(engine);
  let dashboard: RunningDashboard;
  let a: TestOrg;

  beforeAll(async () => {
    dashboard = await startDashboard(db.config({ admin_session_ttl_seconds: 600 }));
    a = await createOrg(dashboard, 'A');
  });

  const signIn = async (): Promise<{ cookie: string; view: AdminView }> => {
    const response = await dashboard.anonymous('POST', '/session/admin', { admin_secret: ADMIN_SECRET });
    expect(response.status).toBe(200);
    return { cookie: String(response.headers['set-cookie']).split(';')[0]!, view: response.json<AdminView>() };
  };

  it('exchanges the admin secret for an HttpOnly SameSite=Strict administrator cookie that opens /admin, never echoing the secret', async () => {
    const response = await dashboard.anonymous('POST', '/session/admin', { admin_secret: ADMIN_SECRET });
    expect(response.status).toBe(200);
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/^gw_admin_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=600$/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.text).not.toContain(ADMIN_SECRET);
    expect(setCookie).not.toContain(ADMIN_SECRET);
    const view = response.json<AdminView>();
    expect(view.admin).toBe(true);
    const cookie = setCookie.split(';')[0]!;
    expect((await dashboard.anonymous('GET', '/session/admin', undefined, { cookie })).json<AdminView>().csrf_token).toBe(view.csrf_token);

    const listed = await dashboard.anonymous('GET', '/admin/organisations?p=-2', undefined, { cookie });
    expect(listed.status).toBe(200);
    expect(listed.json<{ organisations: { id: string }[] }>().organisations.map((o) => o.id)).toContain(a.id);
    // Writes need the session's CSRF token (and a same-site Origin).
    expect((await dashboard.anonymous('POST', '/admin/organisations', { owner_name: 'No token' }, { cookie })).status).toBe(403);
    const foreign = await dashboard.anonymous(
      'POST',
      '/admin/organisations',
      { owner_name: 'Foreign' },
      { cookie, 'x-csrf-token': view.csrf_token, origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    const created = await dashboard.anonymous('POST', '/admin/organisations', { owner_name: 'By session' }, { cookie, 'x-csrf-token': view.csrf_token });
    expect(created.status, created.text).toBe(200);
    // Only /admin: the administrator cookie is no user of any organisation.
    expect((await dashboard.anonymous('GET', '/api/apis', undefined, { cookie })).status).toBe(401);
  });

  it('refuses a wrong or missing secret (401; 400 naming admin_secret) and a sign-in from another origin', async () => {
    const wrong = await dashboard.anonymous('POST', '/session/admin', { admin_secret: 'not-the-secret' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const missing = await dashboard.anonymous('POST', '/session/admin', {});
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('admin_secret');
    const foreign = await dashboard.anonymous('POST', '/session/admin', { admin_secret: ADMIN_SECRET }, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['set-cookie']).toBeUndefined();
    expect((await dashboard.anonymous('GET', '/session/admin')).status).toBe(401);
    expect(
      (await dashboard.anonymous('GET', '/admin/organisations', undefined, { cookie: 'gw_admin_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })).status,
    ).toBe(401);
  });

  it("never lets a user's session (or its token under the administrator cookie's name) open /admin", async () => {
    const session = await dashboard.anonymous('POST', '/session', { access_key: a.key });
    const userCookie = String(session.headers['set-cookie']).split(';')[0]!;
    const csrf = session.json<{ csrf_token: string }>().csrf_token;
    expect((await dashboard.anonymous('GET', '/admin/organisations', undefined, { cookie: userCookie })).status).toBe(401);
    expect((await dashboard.anonymous('POST', '/admin/organisations', { owner_name: 'x' }, { cookie: userCookie, 'x-csrf-token': csrf })).status).toBe(401);
    const renamed = userCookie.replace(/^gw_session=/, 'gw_admin_session=');
    expect((await dashboard.anonymous('GET', '/admin/organisations', undefined, { cookie: renamed })).status).toBe(401);
    expect((await dashboard.anonymous('GET', '/session/admin', undefined, { cookie: userCookie })).status).toBe(401);
  });

  it('signs out on the server: the old cookie opens nothing', async () => {
    const { cookie, view } = await signIn();
    expect((await dashboard.anonymous('DELETE', '/session/admin', undefined, { cookie })).status).toBe(403);
    const out = await dashboard.anonymous('DELETE', '/session/admin', undefined, { cookie, 'x-csrf-token': view.csrf_token });
    expect(out.status).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/^gw_admin_session=; .*Max-Age=0/);
    expect((await dashboard.anonymous('GET', '/admin/organisations', undefined, { cookie })).status).toBe(401);
  });

  it("refuses to deactivate the operator's system user through the admin API, naming it; deactivates it once no longer system", async () => {
    const operatorEmail = `operator-${engine}-${process.pid}@a.test`;
    const created = await dashboard.admin('POST', '/admin/users', {
      org_id: a.id,
      email_address: operatorEmail,
      system: true,
      user_permissions: { apis: 'write' },
    });
    expect(created.status, created.text).toBe(200);
    const { id, access_key } = created.json<{ Meta: { id: string; access_key: string } }>().Meta;
    const refused = await dashboard.admin('PUT', `/admin/users/${id}`, { active: false });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('active');
    expect(refused.text).toContain(operatorEmail);
    expect(refused.text).toContain('system user');
    expect((await dashboard.as(access_key)('GET', '/api/apis')).status).toBe(200);
    // On purpose: unset system and deactivate in one change.
    expect((await dashboard.admin('PUT', `/admin/users/${id}`, { system: false, active: false })).status).toBe(200);
    expect((await dashboard.as(access_key)('GET', '/api/apis')).status).toBe(401);
  });

  it('ends every administrator session when the admin secret changes', async () => {
    const { cookie } = await signIn();
    expect((await dashboard.anonymous('GET', '/admin/organisations', undefined, { cookie })).status).toBe(200);
    const config = JSON.parse(readFileSync(dashboard.configFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(dashboard.configFile, JSON.stringify({ ...config, admin_secret: 'a-new-admin-secret-for-tests' }));
    try {
      await dashboard.restart();
      expect((await dashboard.anonymous('GET', '/admin/organisations', undefined, { cookie })).status).toBe(401);
      expect((await dashboard.anonymous('GET', '/session/admin', undefined, { cookie })).status).toBe(401);
    } finally {
      writeFileSync(dashboard.configFile, JSON.stringify(config));
      await dashboard.restart();
    }
  });
});
