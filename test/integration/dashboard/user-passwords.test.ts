// A user manager setting another user's password and group through Tyk Dashboard's paths (POST
// /api/users/{id}/actions/reset {new_password}; PUT /api/users/{id} {user_group_id}) on a real dashboard and
// PostgreSQL: the set password signs in by e-mail and ends every web session the user had (opened with the access
// key or the old password); one's own change keeps the session it came from; nobody without `users` write, nor
// below the user's rights, nor in another organisation (404 exactly as an unknown id) may do it; the audit log
// records "password set" and never the password. An address two organisations hold signs into the oldest user's
// organisation, another's when the sign-in names it (org_id).
import { beforeAll, describe, expect, it } from 'vitest';
import { createOrg, startDashboard, type Call, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { startPostgres } from '../../support/postgres.ts';

interface Created {
  Meta: { id: string; access_key: string };
}

const NEW_PASSWORD = 'a brand new passphrase';

describe('setting a user password and group through the org API', () => {
  let dashboard: RunningDashboard;
  let acme: TestOrg;
  let other: TestOrg;
  let manager: Call;
  let managerKey: string;

  beforeAll(async () => {
    const postgres = await startPostgres();
    dashboard = await startDashboard({ database_url: postgres.createDatabase('user_passwords') });
    [acme, other] = await Promise.all([createOrg(dashboard, 'Acme'), createOrg(dashboard, 'Other')]);
    managerKey = await acme.user({ users: 'write', user_groups: 'write', apis: 'write', audit_logs: 'read' });
    manager = dashboard.as(managerKey);
  });

  const newUser = async (email: string, permissions: Record<string, string> = { apis: 'read' }): Promise<{ id: string; key: string }> => {
    const created = await manager('POST', '/api/users', { email_address: email, user_permissions: permissions });
    expect(created.status, created.text).toBe(200);
    const { id, access_key } = created.json<Created>().Meta;
    return { id, key: access_key };
  };
  /** A web UI session's cookie, opened with an access key or an e-mail and password. */
  const session = async (body: Record<string, string>): Promise<{ cookie: string; csrf: string }> => {
    const opened = await dashboard.anonymous('POST', '/session', body);
    expect(opened.status, opened.text).toBe(200);
    return { cookie: String(opened.headers['set-cookie']).split(';')[0]!, csrf: opened.json<{ csrf_token: string }>().csrf_token };
  };
  const live = async (cookie: string): Promise<number> => (await dashboard.anonymous('GET', '/api/apis', undefined, { cookie })).status;

  it("sets another user's password: it signs in by e-mail, and every session the user had ends", async () => {
    const user = await newUser('pat@acme.test');
    const byKey = await session({ access_key: user.key });
    expect(await live(byKey.cookie)).toBe(200);
    const first = await manager('POST', `/api/users/${user.id}/actions/reset`, { new_password: 'the first passphrase' });
    expect(first.json()).toEqual({ Status: 'OK', Message: 'Password set', Meta: null });
    expect(await live(byKey.cookie)).toBe(401);
    const byPassword = await session({ email_address: 'pat@acme.test', password: 'the first passphrase' });
    const byKeyAgain = await session({ access_key: user.key });

    expect((await manager('POST', `/api/users/${user.id}/actions/reset`, { new_password: NEW_PASSWORD })).status).toBe(200);
    expect(await live(byPassword.cookie)).toBe(401);
    expect(await live(byKeyAgain.cookie)).toBe(401);
    expect((await dashboard.anonymous('POST', '/session', { email_address: 'pat@acme.test', password: 'the first passphrase' })).status).toBe(401);
    expect(await live((await session({ email_address: 'pat@acme.test', password: NEW_PASSWORD })).cookie)).toBe(200);
    expect((await dashboard.as(user.key)('GET', '/api/apis')).status).toBe(200); // the access key stays the API's credential
  });

  it('keeps the session one sets one’s own password from, and ends one’s other sessions', async () => {
    const user = await newUser('sam@acme.test');
    const here = await session({ access_key: user.key });
    const elsewhere = await session({ access_key: user.key });
    const set = await dashboard.anonymous(
      'POST',
      `/api/users/${user.id}/actions/reset`,
      { new_password: 'sam first passphrase' },
      {
        cookie: here.cookie,
        'x-csrf-token': here.csrf,
      },
    );
    expect(set.status, set.text).toBe(200);
    expect(await live(here.cookie)).toBe(200);
    expect(await live(elsewhere.cookie)).toBe(401);

    const byPassword = await session({ email_address: 'sam@acme.test', password: 'sam first passphrase' });
    const changed = await dashboard.anonymous(
      'POST',
      `/api/users/${user.id}/actions/reset`,
      { new_password: 'sam second passphrase', current_password: 'sam first passphrase' },
      { cookie: byPassword.cookie, 'x-csrf-token': byPassword.csrf },
    );
    expect(changed.status, changed.text).toBe(200);
    expect(await live(byPassword.cookie)).toBe(200);
    expect(await live(here.cookie)).toBe(401);
  });

  it('refuses a caller without users write, a user above the caller, and the operator’s system user (403)', async () => {
    const target = await newUser('lou@acme.test');
    const reader = dashboard.as(await acme.user({ users: 'read', apis: 'write' }));
    const noWrite = await reader('POST', `/api/users/${target.id}/actions/reset`, { new_password: NEW_PASSWORD });
    expect([noWrite.status, noWrite.json()]).toEqual([403, { Status: 'Error', Message: 'access denied: requires users write' }]);

    const keysAdmin = (
      await dashboard.admin('POST', '/admin/users', { org_id: acme.id, email_address: 'kai@acme.test', user_permissions: { keys: 'write' } })
    ).json<Created>().Meta.id;
    const above = await manager('POST', `/api/users/${keysAdmin}/actions/reset`, { new_password: NEW_PASSWORD });
    expect([above.status, above.json<{ Message: string }>().Message]).toEqual([
      403,
      'you cannot manage a user whose permissions exceed your own: they hold keys write, you hold deny',
    ]);
    const system = (await dashboard.admin('POST', '/admin/users', { org_id: acme.id, email_address: 'op@acme.test', system: true })).json<Created>().Meta.id;
    expect((await manager('POST', `/api/users/${system}/actions/reset`, { new_password: NEW_PASSWORD })).status).toBe(403);
    const short = await manager('POST', `/api/users/${target.id}/actions/reset`, { new_password: 'short' });
    expect([short.status, short.text]).toEqual([400, expect.stringContaining('new_password')]);
  });

  it("answers another organisation's user exactly as an unknown id (404), for the password and the group alike", async () => {
    const outsider = (
      await dashboard.admin('POST', '/admin/users', { org_id: other.id, email_address: 'out@other.test', user_permissions: {} })
    ).json<Created>().Meta.id;
    const otherAdmin = dashboard.as(await other.user({ users: 'write', user_groups: 'write' }));
    const ana = await newUser('ana@acme.test');
    expect((await manager('POST', `/api/users/${ana.id}/actions/reset`, { new_password: NEW_PASSWORD })).status).toBe(200);
    for (const [call, id] of [
      [otherAdmin, ana.id],
      [manager, outsider],
    ] as const) {
      const reset = await call('POST', `/api/users/${id}/actions/reset`, { new_password: NEW_PASSWORD });
      const unknown = await call('POST', '/api/users/000000000000000000000000/actions/reset', { new_password: NEW_PASSWORD });
      expect([reset.status, reset.text]).toEqual([404, unknown.text]);
      const moved = await call('PUT', `/api/users/${id}`, { user_group_id: '' });
      expect([moved.status, moved.text]).toEqual([404, (await call('PUT', '/api/users/000000000000000000000000', { user_group_id: '' })).text]);
    }
    expect(await live((await session({ email_address: 'ana@acme.test', password: NEW_PASSWORD })).cookie)).toBe(200);
  });

  it("puts a user in a group through user_group_id, org and admin API alike (the group's permissions apply at once); another organisation's group is refused", async () => {
    const user = await newUser('gil@acme.test', {});
    const group = await manager('POST', '/api/usergroups', { name: 'Readers', user_permissions: { apis: 'read' } });
    const id = group.json<{ Meta: { id: string } }>().Meta.id;
    expect((await dashboard.as(user.key)('GET', '/api/apis')).status).toBe(403);
    const joined = await manager('PUT', `/api/users/${user.id}`, { user_group_id: id });
    expect(joined.json<{ Meta: { user_group_id: string } }>().Meta.user_group_id).toBe(id);
    expect((await dashboard.as(user.key)('GET', '/api/apis')).status).toBe(200);

    const otherGroupId = (await dashboard.as(await other.user({ user_groups: 'write' }))('POST', '/api/usergroups', { name: 'Theirs' })).json<{
      Meta: { id: string };
    }>().Meta.id;
    for (const write of [
      manager('PUT', `/api/users/${user.id}`, { user_group_id: otherGroupId }),
      dashboard.admin('PUT', `/admin/users/${user.id}`, { user_group_id: otherGroupId }),
    ]) {
      const refused = await write;
      expect([refused.status, refused.json<{ Message: string }>().Message]).toEqual([
        400,
        `user_group_id: user group ${otherGroupId} not found in this organisation`,
      ]);
    }
    const left = await dashboard.admin('PUT', `/admin/users/${user.id}`, { user_group_id: '' });
    expect(left.json<{ Meta: { user_group_id: string } }>().Meta.user_group_id).toBe('');
    expect((await dashboard.as(user.key)('GET', '/api/apis')).status).toBe(403);
    const created = await dashboard.admin('POST', '/admin/users', { org_id: acme.id, email_address: 'rae@acme.test', user_group_id: id });
    expect(created.json<{ Meta: { user_group_id: string } }>().Meta.user_group_id).toBe(id);
  });

  it("signs an address two organisations hold into the oldest user's organisation, the other's only when org_id names it", async () => {
    const otherAdmin = dashboard.as(await other.user({ users: 'write' }));
    const acmeUser = await newUser('dual@both.test');
    const otherUser = (await otherAdmin('POST', '/api/users', { email_address: 'dual@both.test', user_permissions: {} })).json<Created>().Meta.id;
    expect((await manager('POST', `/api/users/${acmeUser.id}/actions/reset`, { new_password: 'acme passphrase' })).status).toBe(200);
    expect((await otherAdmin('POST', `/api/users/${otherUser}/actions/reset`, { new_password: 'other passphrase' })).status).toBe(200);
    const orgOf = async (body: Record<string, string>): Promise<unknown> => {
      const opened = await dashboard.anonymous('POST', '/session', { email_address: 'dual@both.test', ...body });
      return opened.status === 200 ? opened.json<{ org: { id: string } }>().org.id : opened.status;
    };
    expect(await orgOf({ password: 'acme passphrase' })).toBe(acme.id);
    expect(await orgOf({ password: 'other passphrase' })).toBe(401);
    expect(await orgOf({ password: 'other passphrase', org_id: other.id })).toBe(other.id);
    expect(await orgOf({ password: 'acme passphrase', org_id: other.id })).toBe(401);
  });

  it('records each password set in the audit log, by whom and for whom, never the password', async () => {
    const user = await newUser('eve@acme.test');
    for (const password of ['eve first passphrase', NEW_PASSWORD]) {
      expect((await manager('POST', `/api/users/${user.id}/actions/reset`, { new_password: password })).status).toBe(200);
    }
    const audit = await manager('GET', `/api/audit?object_id=${user.id}`);
    const entries = audit.json<{ entries: { action: string; object_type: string; via: string }[] }>().entries;
    expect(entries.filter((e) => e.action === 'password set')).toEqual([
      expect.objectContaining({ object_type: 'user', via: 'access key' }),
      expect.objectContaining({ object_type: 'user', via: 'access key' }),
    ]);
    expect(audit.text).not.toContain(NEW_PASSWORD);
    expect(audit.text).not.toContain('eve first passphrase');
    expect(dashboard.output()).not.toContain(NEW_PASSWORD);
  });
});
