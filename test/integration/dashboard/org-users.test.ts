// The organisation's own users API (/api/users, permission `users`) on a real dashboard and PostgreSQL: a user
// manager lists, creates, re-permissions, re-keys, deactivates and deletes the users of their organisation, never
// above their own permissions, never themselves, never a user who may do more than they may (nor one whose own
// permissions, unused while in a group, would once out of it), never the operator's system user, never another
// organisation's.
import { beforeAll, describe, expect, it } from 'vitest';
import { createOrg, startDashboard, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { startPostgres } from '../../support/postgres.ts';

interface UserView {
  id: string;
  email_address: string;
  active: boolean;
  user_permissions: Record<string, string>;
}

describe("org API: users of the caller's organisation", () => {
  let dashboard: RunningDashboard;
  let acme: TestOrg;
  let other: TestOrg;
  let manager: string;
  let managerId: string;

  beforeAll(async () => {
    const postgres = await startPostgres();
    dashboard = await startDashboard({ database_url: postgres.createDatabase('org_users') });
    acme = await createOrg(dashboard, 'Acme');
    other = await createOrg(dashboard, 'Other');
    manager = await acme.user({ users: 'write', apis: 'write', analytics: 'read' });
    managerId = (await dashboard.as(manager)('GET', '/api/users?p=-2'))
      .json<{ users: UserView[] }>()
      .users.find((u) => u.user_permissions.users === 'write')!.id;
  });

  it("creates a user with at most the manager's own permissions; the new key works, a grant above is refused naming the field", async () => {
    const as = dashboard.as(manager);
    const created = await as('POST', '/api/users', { email_address: 'reader@acme.test', first_name: 'Rea', user_permissions: { apis: 'read' } });
    expect(created.status, created.text).toBe(200);
    const meta = created.json<{ Message: string; Meta: UserView & { access_key: string; org_id: string; system: boolean } }>();
    expect(meta.Message).toBe('User created');
    expect(meta.Meta).toMatchObject({ org_id: acme.id, system: false, user_permissions: { apis: 'read', keys: 'deny', users: 'deny' } });
    expect((await dashboard.as(meta.Meta.access_key)('GET', '/api/apis')).status).toBe(200);

    const above = await as('POST', '/api/users', { email_address: 'keys@acme.test', user_permissions: { keys: 'write' } });
    expect(above.status).toBe(403);
    expect(above.json()).toEqual({ Status: 'Error', Message: 'user_permissions.keys: you cannot grant write: your own permission is deny' });
    const system = await as('POST', '/api/users', { email_address: 'sys@acme.test', system: true });
    expect(system.status).toBe(400);
    expect(system.text).toContain('system');

    const listed = (await as('GET', '/api/users?p=-2')).json<{ users: UserView[] }>().users.map((u) => u.email_address);
    expect(listed).toContain('reader@acme.test');
    const others = (await other.call('GET', '/api/users')).status;
    expect(others).toBe(403); // the other org's all-write user has no `users` permission
  });

  it('sets permissions, resets the key and deactivates; each takes effect at once', async () => {
    const as = dashboard.as(manager);
    const { Meta: user } = (await as('POST', '/api/users', { email_address: 'writer@acme.test', user_permissions: { apis: 'read' } })).json<{
      Meta: UserView & { access_key: string };
    }>();
    const body = {
      name: 'x',
      proxy: { listen_path: '/x/', target_url: 'http://x.internal/' },
      use_keyless: true,
      version_data: { not_versioned: true, versions: { Default: { name: 'Default' } } },
    };
    expect((await dashboard.as(user.access_key)('POST', '/api/apis', body)).status).toBe(403);
    const updated = await as('PUT', `/api/users/${user.id}`, { user_permissions: { apis: 'write' } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.json<{ Meta: UserView }>().Meta.user_permissions.apis).toBe('write');
    expect((await dashboard.as(user.access_key)('POST', '/api/apis', body)).status).toBe(200);

    const reset = (await as('POST', `/api/users/${user.id}/actions/key/reset`)).json<{ Message: string; Meta: { id: string; access_key: string } }>();
    expect(reset.Message).toBe('User key reset');
    expect((await dashboard.as(user.access_key)('GET', '/api/apis')).status).toBe(401);
    expect((await dashboard.as(reset.Meta.access_key)('GET', '/api/apis')).status).toBe(200);

    expect((await as('PUT', `/api/users/${user.id}`, { active: false })).status).toBe(200);
    expect((await dashboard.as(reset.Meta.access_key)('GET', '/api/apis')).status).toBe(401);
    expect((await as('DELETE', `/api/users/${user.id}`)).json()).toEqual({ Status: 'OK', Message: 'User deleted', Meta: null });
    expect((await as('GET', `/api/users/${user.id}`)).status).toBe(404);
  });

  it("never acts on a user holding a permission above the caller's own: no key reset, change or deletion (issue 23 item 6)", async () => {
    const usersOnly = dashboard.as(await acme.user({ users: 'write' }));
    const everything = { apis: 'write', policies: 'write', keys: 'write', certificates: 'write', portal: 'write', analytics: 'write', users: 'write' };
    const created = await dashboard.admin('POST', '/admin/users', { org_id: acme.id, email_address: 'owner@acme.test', user_permissions: everything });
    const owner = created.json<{ Meta: UserView & { access_key: string } }>().Meta;
    const refusal = { Status: 'Error', Message: 'you cannot manage a user whose permissions exceed your own: they hold apis write, you hold deny' };
    for (const [method, path, body] of [
      ['POST', '/actions/key/reset', undefined],
      ['PUT', '', { user_permissions: { apis: 'deny' } }],
      ['PUT', '', { active: false }],
      ['PUT', '', { email_address: 'hijacked@acme.test' }],
      ['DELETE', '', undefined],
    ] as const) {
      const answer = await usersOnly(method, `/api/users/${owner.id}${path}`, body);
      expect(answer.status, `${method} ${path} ${answer.text}`).toBe(403);
      expect(answer.json()).toEqual(refusal);
    }
    expect((await dashboard.as(owner.access_key)('GET', '/api/apis')).status).toBe(200);
    expect((await dashboard.admin('GET', `/admin/users/${owner.id}`)).json<UserView>()).toMatchObject({
      email_address: 'owner@acme.test',
      active: true,
      user_permissions: everything,
    });
    // A user with no more than the caller's own permissions is still theirs to manage.
    const peer = (await usersOnly('POST', '/api/users', { email_address: 'peer@acme.test', user_permissions: { users: 'read' } })).json<{ Meta: UserView }>()
      .Meta;
    expect((await usersOnly('POST', `/api/users/${peer.id}/actions/key/reset`)).status).toBe(200);
    expect((await usersOnly('DELETE', `/api/users/${peer.id}`)).status).toBe(200);
  });

  it("never takes a user out of their group when their own permissions, unused in the group, exceed the caller's", async () => {
    const owner = dashboard.as(await acme.user({ apis: 'write', keys: 'write', users: 'write', user_groups: 'write' }));
    const readers = (await owner('POST', '/api/usergroups', { name: 'Readers', user_permissions: { apis: 'read' } })).json<{ Meta: { id: string } }>().Meta;
    const demoted = (
      await owner('POST', '/api/users', { email_address: 'demoted@acme.test', user_permissions: { apis: 'write', keys: 'write' }, user_group_id: readers.id })
    ).json<{ Meta: UserView & { access_key: string } }>().Meta;
    const usersAndApiReader = dashboard.as(await acme.user({ users: 'write', apis: 'read' }));
    const out = await usersAndApiReader('PUT', `/api/users/${demoted.id}`, { user_group_id: '' });
    expect(out.status, out.text).toBe(403);
    expect(out.json()).toEqual({ Status: 'Error', Message: 'user_permissions.apis: you cannot grant write: your own permission is read' });
    expect((await dashboard.as(demoted.access_key)('DELETE', '/api/apis/any')).status).toBe(403);
    // Leaving with permissions within the caller's own is theirs to do.
    const within = await usersAndApiReader('PUT', `/api/users/${demoted.id}`, { user_group_id: '', user_permissions: { apis: 'read', keys: 'deny' } });
    expect(within.status, within.text).toBe(200);
  });

  it("never reaches itself, the operator's system user or another organisation's users", async () => {
    const as = dashboard.as(manager);
    const self = await as('PUT', `/api/users/${managerId}`, { user_permissions: { keys: 'deny' } });
    expect(self.status).toBe(403);
    expect(self.text).toContain('you cannot change the permissions of yourself');
    expect((await as('PUT', `/api/users/${managerId}`, { active: false })).status).toBe(403);
    expect((await as('DELETE', `/api/users/${managerId}`)).status).toBe(403);
    // Its own names it may change.
    expect((await as('PUT', `/api/users/${managerId}`, { first_name: 'Manager' })).status).toBe(200);

    await acme.user({ apis: 'write' }, { system: true });
    const system = (await as('GET', '/api/users?p=-2')).json<{ users: (UserView & { system: boolean })[] }>().users.find((u) => u.system)!;
    expect((await as('GET', `/api/users/${system.id}`)).status).toBe(200);
    const touched = await as('POST', `/api/users/${system.id}/actions/key/reset`);
    expect(touched.status).toBe(403);
    expect(touched.text).toContain('system user');

    const otherUser = await other.user({ apis: 'read' });
    const otherId = (await dashboard.admin('GET', `/admin/users?org_id=${other.id}`))
      .json<{ users: UserView[] }>()
      .users.find((u) => u.user_permissions.apis === 'read' && u.user_permissions.keys === 'deny')!.id;
    for (const [method, path] of [
      ['GET', ''],
      ['PUT', ''],
      ['DELETE', ''],
      ['POST', '/actions/key/reset'],
    ] as const) {
      const answer = await as(method, `/api/users/${otherId}${path}`, method === 'PUT' ? { first_name: 'x' } : undefined);
      expect(answer.status, `${method} ${path}`).toBe(404);
    }
    expect((await dashboard.as(otherUser)('GET', '/api/apis')).status).toBe(200);
    expect((await as('PUT', `/api/users/${otherId}`, { nickname: 'x' })).status).toBe(400);
  });
});
