// The dashboard's admin API and the credentials of every interface, on a real PostgreSQL and on PGlite:
// organisations, users and an organisation's user groups read (gw's documented answer shapes, access keys shown
// once and stored hashed), permission changes taking effect, key reset, deactivation, deletion (an organisation
// takes everything with it), and the configuration refusing to start without its secrets (exit 2 naming them).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runGw } from '../../support/cli.ts';
import { rawHttp } from '../../support/gateway.ts';
import { classicApi, createOrg, startDashboard, matching, type RunningDashboard } from '../../support/dashboard.ts';
import { ENGINES, useDatabases } from '../../support/postgres.ts';

describe('gw dashboard configuration', () => {
  it('refuses to start without admin_secret or node_secret, naming them (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-dashboard-config-'));
    const file = join(dir, 'dashboard.json');
    writeFileSync(file, JSON.stringify({ node_secret: 'n', database_url: 'memory:' }));
    const missing = await runGw(['dashboard', '--config', file], { GW_DASHBOARD_ADMIN_SECRET: undefined, GW_DASHBOARD_NODE_SECRET: undefined });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('admin_secret');
    expect(missing.stderr).not.toContain('node_secret');

    writeFileSync(file, JSON.stringify({ admin_secret: 'a', database_url: 'memory:' }));
    const badEnv = await runGw(['dashboard', '--config', file], { GW_DASHBOARD_NODE_SECRET: 'n', GW_DASHBOARD_LISTEN_PORT: 'eighty' });
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toContain('GW_DASHBOARD_LISTEN_PORT');
  });
});

describe.each(ENGINES)('dashboard admin API on %s', (engine) => {
  const db = useDatabases(engine);
  let dashboard: RunningDashboard;
  beforeAll(async () => {
    dashboard = await startDashboard(db.config({ max_body_bytes: 65_536 }));
  });

  it('answers 401 Not authorised without the admin secret, and never leaks it to the log', async () => {
    for (const headers of [{}, { 'admin-auth': 'wrong' }, { authorization: 'dashboard-admin-secret-for-tests' }] as Record<string, string>[]) {
      const response = await dashboard.anonymous('GET', '/admin/organisations', undefined, headers);
      expect(response.status).toBe(401);
      expect(response.json()).toEqual({ Status: 'Error', Message: 'Not authorised' });
    }
    expect((await dashboard.anonymous('GET', '/api/apis')).json()).toEqual({ Status: 'Error', Message: 'Not authorised' });
    expect((await dashboard.anonymous('GET', '/api/apis', undefined, { authorization: 'nobody' })).status).toBe(401);
    expect(dashboard.output()).not.toContain('dashboard-admin-secret-for-tests');
  });

  it('cannot be bypassed with percent-escaped paths the router decodes', async () => {
    for (const path of ['/%61dmin/organisations', '/%73ystem/node/config', '/%61pi/apis', '/admin/%6Frganisations']) {
      const response = await rawHttp(dashboard.url, path);
      expect(response.status, path).toBe(401);
    }
  });

  it('creates, lists, reads, updates and deletes organisations', async () => {
    const created = await dashboard.admin('POST', '/admin/organisations', { owner_name: 'Acme', cname: 'acme.example' });
    expect(created.status).toBe(200);
    const body = created.json<{ Meta: string }>();
    expect(body).toEqual({ Status: 'OK', Message: 'Org created', Meta: matching(/^[0-9a-f]{24}$/) });
    const id = body.Meta;

    const explicit = await dashboard.admin('POST', '/admin/organisations', { owner_name: 'Chosen', id: 'chosen-org-1' });
    expect(explicit.json()).toEqual({ Status: 'OK', Message: 'Org created', Meta: 'chosen-org-1' });
    expect((await dashboard.admin('POST', '/admin/organisations', { owner_name: 'Again', id: 'chosen-org-1' })).status).toBe(409);
    expect((await dashboard.admin('POST', '/admin/organisations', { owner_name: 'Twin', cname: 'acme.example' })).status).toBe(409);
    // The portal matches its host without case: a cname differing only in case is the same domain.
    expect((await dashboard.admin('POST', '/admin/organisations', { owner_name: 'Twin', cname: 'ACME.Example' })).status).toBe(409);
    // A cname is a domain name only: it becomes https://<cname>/… in the organisation's portal e-mails.
    for (const cname of ['evil.example/reset?x=', 'acme.example:8443', 'https://acme.example', 'user@evil.example', 'a..example', '-a.example']) {
      const refused = await dashboard.admin('POST', '/admin/organisations', { owner_name: 'Odd', cname });
      expect(refused.status, cname).toBe(400);
      expect(refused.json<{ Message: string }>().Message, cname).toMatch(/^cname: must be a domain name/);
    }
    const mixed = await dashboard.admin('POST', '/admin/organisations', { owner_name: 'Mixed', cname: 'Developers.Mixed.Example' });
    expect((await dashboard.admin('GET', `/admin/organisations/${mixed.json<{ Meta: string }>().Meta}`)).json()).toMatchObject({
      cname: 'developers.mixed.example',
    });
    expect((await dashboard.admin('PUT', `/admin/organisations/${mixed.json<{ Meta: string }>().Meta}`, { cname: 'x.example/path' })).status).toBe(400);

    const missingName = await dashboard.admin('POST', '/admin/organisations', { cname: 'x' });
    expect(missingName.status).toBe(400);
    expect(missingName.json<{ Message: string }>().Message).toContain('owner_name');
    expect((await dashboard.admin('POST', '/admin/organisations', '{"owner_name":')).json<{ Message: string }>().Message).toMatch(/^Request malformed/);

    const read = await dashboard.admin('GET', `/admin/organisations/${id}`);
    expect(read.json()).toMatchObject({ id, owner_name: 'Acme', cname: 'acme.example', operator_managed: false });
    const list = await dashboard.admin('GET', '/admin/organisations?p=-2');
    expect(list.json<{ organisations: { id: string }[] }>().organisations.map((o) => o.id)).toEqual(expect.arrayContaining([id, 'chosen-org-1']));

    const updated = await dashboard.admin('PUT', `/admin/organisations/${id}`, { operator_managed: true });
    expect(updated.json()).toEqual({ Status: 'OK', Message: 'Org updated', Meta: null });
    expect((await dashboard.admin('GET', `/admin/organisations/${id}`)).json()).toMatchObject({ owner_name: 'Acme', operator_managed: true });
    expect((await dashboard.admin('PUT', '/admin/organisations/missing', { owner_name: 'x' })).status).toBe(404);

    expect((await dashboard.admin('DELETE', '/admin/organisations/chosen-org-1')).json()).toEqual({ Status: 'OK', Message: 'Org deleted', Meta: null });
    expect((await dashboard.admin('GET', '/admin/organisations/chosen-org-1')).status).toBe(404);
    expect((await dashboard.admin('DELETE', '/admin/organisations/chosen-org-1')).status).toBe(404);
    expect((await dashboard.admin('PATCH', `/admin/organisations/${id}`, {})).status).toBe(405);
  });

  it('creates users with an access key shown once; permissions, deactivation, key reset and deletion take effect', async () => {
    const org = await dashboard.admin('POST', '/admin/organisations', { owner_name: 'Users Inc' });
    const orgId = org.json<{ Meta: string }>().Meta;
    const created = await dashboard.admin('POST', '/admin/users', {
      org_id: orgId,
      email_address: `reader-${engine}@example.test`,
      first_name: 'Rea',
      last_name: 'Der',
      active: true,
      user_permissions: { apis: 'read' },
    });
    expect(created.status).toBe(200);
    const meta = created.json<{ Status: string; Message: string; Meta: { id: string; access_key: string } }>();
    expect(meta).toMatchObject({ Status: 'OK', Message: 'User created' });
    expect(meta.Meta).toMatchObject({
      org_id: orgId,
      email_address: `reader-${engine}@example.test`,
      first_name: 'Rea',
      active: true,
      system: false,
      user_permissions: { apis: 'read', policies: 'deny', keys: 'deny', certificates: 'deny', portal: 'deny' },
      access_key: matching(/^[0-9a-f]{32}$/),
    });
    const { id, access_key: key } = meta.Meta;
    const user = dashboard.as(key);
    expect(dashboard.output()).not.toContain(key);

    const read = await dashboard.admin('GET', `/admin/users/${id}`);
    expect(read.json()).toMatchObject({ id, org_id: orgId });
    expect(read.text).not.toContain(key);
    expect(read.text).not.toContain('access_key');
    const listed = await dashboard.admin('GET', `/admin/users?org_id=${orgId}`);
    expect(listed.json<{ users: { id: string }[]; pages: number }>()).toMatchObject({ users: [{ id }], pages: 1 });

    expect((await user('GET', '/api/apis')).status).toBe(200);
    const denied = await user('POST', '/api/apis', classicApi('x', '/users-x'));
    expect(denied.status).toBe(403);
    expect(denied.json()).toEqual({ Status: 'Error', Message: 'access denied: requires apis write' });

    const updated = await dashboard.admin('PUT', `/admin/users/${id}`, { user_permissions: { apis: 'write' } });
    expect(updated.json()).toMatchObject({ Status: 'OK', Message: 'User updated', Meta: { id, user_permissions: { apis: 'write', keys: 'deny' } } });
    expect((await user('POST', '/api/apis', classicApi('x', '/users-x'))).status).toBe(200);
    expect((await dashboard.admin('PUT', `/admin/users/${id}`, { org_id: 'elsewhere' })).status).toBe(400);

    await dashboard.admin('PUT', `/admin/users/${id}`, { active: false });
    expect((await user('GET', '/api/apis')).status).toBe(401);
    await dashboard.admin('PUT', `/admin/users/${id}`, { active: true });
    expect((await user('GET', '/api/apis')).status).toBe(200);

    const reset = await dashboard.admin('POST', `/admin/users/${id}/actions/key/reset`);
    const fresh = reset.json<{ Meta: { id: string; access_key: string } }>();
    expect(fresh).toMatchObject({ Status: 'OK', Message: 'User key reset', Meta: { id } });
    expect(fresh.Meta.access_key).not.toBe(key);
    expect((await user('GET', '/api/apis')).status).toBe(401);
    expect((await dashboard.as(fresh.Meta.access_key)('GET', '/api/apis')).status).toBe(200);

    expect((await dashboard.admin('DELETE', `/admin/users/${id}`)).json()).toEqual({ Status: 'OK', Message: 'User deleted', Meta: null });
    expect((await dashboard.as(fresh.Meta.access_key)('GET', '/api/apis')).status).toBe(401);
    expect((await dashboard.admin('GET', `/admin/users/${id}`)).status).toBe(404);
    expect((await dashboard.admin('POST', `/admin/users/${id}/actions/key/reset`)).status).toBe(404);
  });

  it('refuses bad users naming the field: unknown organisation, bad permission, duplicate email', async () => {
    const org = await createOrg(dashboard, 'Checks');
    const base = { org_id: org.id, email_address: `dup-${engine}@example.test`, first_name: 'a', last_name: 'b', active: true };
    const unknownOrg = await dashboard.admin('POST', '/admin/users', { ...base, org_id: 'no-such-org' });
    expect(unknownOrg.status).toBe(400);
    expect(unknownOrg.json<{ Message: string }>().Message).toContain('org_id');
    const badPermission = await dashboard.admin('POST', '/admin/users', { ...base, user_permissions: { apis: 'admin' } });
    expect(badPermission.status).toBe(400);
    expect(badPermission.json<{ Message: string }>().Message).toContain('user_permissions.apis');
    const badEmail = await dashboard.admin('POST', '/admin/users', { ...base, email_address: 'not-an-email' });
    expect(badEmail.json<{ Message: string }>().Message).toContain('email_address');
    expect((await dashboard.admin('POST', '/admin/users', base)).status).toBe(200);
    const duplicate = await dashboard.admin('POST', '/admin/users', base);
    expect(duplicate.status).toBe(409);
    expect(duplicate.json<{ Message: string }>().Message).toContain('email_address');
  });

  it("lists an organisation's user groups (its own only); 400 without org_id, 404 for an unknown organisation", async () => {
    const [acme, other] = [await createOrg(dashboard, 'Grouped'), await createOrg(dashboard, 'Elsewhere')];
    const manager = async (org: typeof acme) => dashboard.as(await org.user({ user_groups: 'write' }));
    expect((await (await manager(acme))('POST', '/api/usergroups', { name: 'Support' })).status).toBe(200);
    expect((await (await manager(other))('POST', '/api/usergroups', { name: 'Not Acme' })).status).toBe(200);

    const listed = await dashboard.admin('GET', `/admin/usergroups?org_id=${acme.id}&p=-2`);
    expect(listed.status).toBe(200);
    expect(listed.json()).toMatchObject({ groups: [{ name: 'Support', org_id: acme.id }] });
    expect((await dashboard.admin('GET', '/admin/usergroups')).json()).toEqual({
      Status: 'Error',
      Message: 'org_id: the organisation whose groups to list is required',
    });
    expect((await dashboard.admin('GET', '/admin/usergroups?org_id=nosuchorg')).status).toBe(404);
    expect((await dashboard.anonymous('GET', `/admin/usergroups?org_id=${acme.id}`)).status).toBe(401);
  });

  it('answers 413 to a body over max_body_bytes and 404 to an unknown path', async () => {
    const org = await createOrg(dashboard, 'Big');
    const big = await org.call('POST', '/api/apis', classicApi('big', '/big', { config_data: { filler: 'x'.repeat(70_000) } }));
    expect(big.status).toBe(413);
    expect(big.json<{ Message: string }>().Message).toContain('max_body_bytes');
    expect((await org.call('GET', '/api/nothing-here')).json()).toEqual({ Status: 'Error', Message: 'Not found' });
  });

  it('deleting an organisation deletes its users and everything it owns', async () => {
    const org = await createOrg(dashboard, 'Doomed');
    expect((await org.call('POST', '/api/apis', classicApi('doomed', '/doomed'))).status).toBe(200);
    await dashboard.admin('DELETE', `/admin/organisations/${org.id}`);
    expect((await org.call('GET', '/api/apis')).status).toBe(401);
    const config = await dashboard.node('GET', `/system/node/config?org_id=${org.id}`);
    expect(config.json()).toMatchObject({ apis: [], policies: [], keys: [] });
  });
});
