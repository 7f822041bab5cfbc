// /api/portal/policies on a real PostgreSQL and on PGlite, with two organisations, under both settings gw's design
// names for policy id matching: by default a given id is ignored (generated instead, said in a Warning header) and
// a duplicate name slug is refused; with allow_explicit_policy_id and enable_duplicate_slugs (what the operator
// needs) ids are kept and names may repeat. Also the answer shapes, access_rights limited to the organisation's
// APIs, validation naming the field, permissions, and isolation (404 for another organisation's policy).
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, createOrg, startDashboard, matching, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { ENGINES, useDatabases } from '../../support/postgres.ts';

interface Created {
  Message: string;
  Meta: null;
  Status: string;
}

describe.each(ENGINES)('dashboard policies on %s', (engine) => {
  const db = useDatabases(engine);
  let strict: RunningDashboard;
  let operatorReady: RunningDashboard;
  let a: TestOrg;
  let b: TestOrg;
  let apiA: string;
  let apiB: string;
  beforeAll(async () => {
    [strict, operatorReady] = await Promise.all([
      startDashboard(db.config()),
      startDashboard(db.config({ allow_explicit_policy_id: true, enable_duplicate_slugs: true })),
    ]);
    a = await createOrg(strict, 'A');
    b = await createOrg(strict, 'B');
    apiA = (await a.call('POST', '/api/apis', classicApi('a api', '/a-api'))).json<{ Meta: string }>().Meta;
    apiB = (await b.call('POST', '/api/apis', classicApi('b api', '/b-api'))).json<{ Meta: string }>().Meta;
  });

  it('creates a policy (also through the trailing-slash path) and answers {Message: <id>, Meta: null, Status: OK}', async () => {
    const created = await a.call('POST', '/api/portal/policies', {
      name: 'Bronze',
      rate: 10,
      per: 60,
      quota_max: -1,
      access_rights: { [apiA]: { api_id: apiA, versions: ['Default'] } },
    });
    expect(created.status).toBe(200);
    expect(created.json()).toEqual({ Message: matching(/^[0-9a-f]{24}$/), Meta: null, Status: 'OK' });
    const id = created.json<Created>().Message;
    const slash = await a.call('POST', '/api/portal/policies/', { name: 'Silver' });
    expect(slash.json()).toEqual({ Message: matching(/^[0-9a-f]{24}$/), Meta: null, Status: 'OK' });

    const read = await a.call('GET', `/api/portal/policies/${id}`);
    expect(read.json()).toMatchObject({
      id,
      _id: id,
      org_id: a.id,
      name: 'Bronze',
      rate: 10,
      per: 60,
      quota_max: -1,
      access_rights: { [apiA]: { api_id: apiA } },
    });
    const list = (await a.call('GET', '/api/portal/policies?p=-2')).json<{ Data: { id: string }[]; Pages: number }>();
    expect(list.Pages).toBe(1);
    expect(list.Data.map((p) => p.id)).toEqual(expect.arrayContaining([id, slash.json<Created>().Message]));

    const updated = await a.call('PUT', `/api/portal/policies/${id}`, { name: 'Bronze', rate: 20, per: 60, state: 'draft' });
    expect(updated.status).toBe(200);
    expect(updated.json()).toMatchObject({ id, _id: id, name: 'Bronze', rate: 20, state: 'draft', org_id: a.id });
    expect((await a.call('GET', `/api/portal/policies/${id}`)).json()).toMatchObject({ rate: 20, state: 'draft' });

    expect((await a.call('DELETE', `/api/portal/policies/${id}`)).json()).toEqual({ Status: 'OK', Message: 'Policy deleted', Meta: null });
    expect((await a.call('GET', `/api/portal/policies/${id}`)).status).toBe(404);
    expect((await a.call('PUT', `/api/portal/policies/${id}`, { name: 'Bronze' })).status).toBe(404);
    expect((await a.call('DELETE', `/api/portal/policies/${id}`)).status).toBe(404);
  });

  it('without allow_explicit_policy_id ignores a given id, generating one, and says so in a Warning header', async () => {
    const created = await a.call('POST', '/api/portal/policies', { id: 'my-explicit-id', name: 'Explicit ignored' });
    const id = created.json<Created>().Message;
    expect(id).not.toBe('my-explicit-id');
    expect(String(created.headers.warning)).toContain('my-explicit-id ignored: allow_explicit_policy_id is off');
    expect((await a.call('GET', `/api/portal/policies/${id}`)).json()).toMatchObject({ id, name: 'Explicit ignored' });
    expect((await a.call('GET', '/api/portal/policies/my-explicit-id')).status).toBe(404);
  });

  it('without enable_duplicate_slugs refuses a second policy whose name has the same slug (409), on create and rename', async () => {
    expect((await a.call('POST', '/api/portal/policies', { name: 'Gold Plan' })).status).toBe(200);
    const duplicate = await a.call('POST', '/api/portal/policies', { name: 'gold-plan' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.json<{ Message: string }>().Message).toMatch(/^name: /);
    expect((await b.call('POST', '/api/portal/policies', { name: 'Gold Plan' })).status).toBe(200);
    const other = (await a.call('POST', '/api/portal/policies', { name: 'Platinum' })).json<Created>().Message;
    expect((await a.call('PUT', `/api/portal/policies/${other}`, { name: 'GOLD PLAN' })).status).toBe(409);
    expect((await a.call('PUT', `/api/portal/policies/${other}`, { name: 'Platinum', rate: 1, per: 1 })).status).toBe(200);
  });

  it('with the operator settings keeps explicit ids and allows duplicate names', async () => {
    const org = await createOrg(operatorReady, 'Operator org');
    const other = await createOrg(operatorReady, 'Other org');
    const id = `ZGVmYXVsdC9wb2xpY3k-${engine}`;
    const created = await org.call('POST', '/api/portal/policies', { id, name: 'httpbin', state: 'active' });
    expect(created.json()).toEqual({ Message: id, Meta: null, Status: 'OK' });
    expect(created.headers.warning).toBeUndefined();
    expect((await org.call('GET', `/api/portal/policies/${id}`)).json()).toMatchObject({ id, _id: id, name: 'httpbin' });
    const twin = await org.call('POST', '/api/portal/policies', { id: `${id}-2`, name: 'httpbin' });
    expect(twin.json()).toEqual({ Message: `${id}-2`, Meta: null, Status: 'OK' });
    expect((await org.call('POST', '/api/portal/policies', { id, name: 'again' })).status).toBe(409);
    expect((await other.call('GET', `/api/portal/policies/${id}`)).status).toBe(404);
    // Another organisation's id answers as a never-used id would (ids are per organisation, issue 10 item 11).
    const probe = await other.call('POST', '/api/portal/policies', { id, name: 'same id' });
    const control = await other.call('POST', '/api/portal/policies', { id: `${id}-never-used`, name: 'fresh id' });
    expect(probe.json()).toEqual({ Message: id, Meta: null, Status: 'OK' });
    expect(control.json()).toEqual({ Message: `${id}-never-used`, Meta: null, Status: 'OK' });
    expect((await other.call('GET', `/api/portal/policies/${id}`)).json()).toMatchObject({ id, name: 'same id', org_id: other.id });
    expect((await org.call('GET', `/api/portal/policies/${id}`)).json()).toMatchObject({ id, name: 'httpbin' });
    const mismatch = await org.call('PUT', `/api/portal/policies/${id}`, { id: 'different', name: 'httpbin' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.json<{ Message: string }>().Message).toMatch(/^id: /);
    expect((await org.call('PUT', `/api/portal/policies/${id}`, { id, name: 'httpbin', rate: 5, per: 1 })).json()).toMatchObject({ id, rate: 5 });
    const badId = await org.call('POST', '/api/portal/policies', { id: 'no spaces/slashes', name: 'x' });
    expect(badId.status).toBe(400);
    expect(badId.json<{ Message: string }>().Message).toMatch(/^id: /);
  });

  it('limits access_rights to APIs of the organisation and refuses bad fields naming them', async () => {
    const foreign = await a.call('POST', '/api/portal/policies', { name: 'Foreign', access_rights: { [apiB]: { api_id: apiB } } });
    expect(foreign.status).toBe(400);
    expect(foreign.json<{ Message: string }>().Message).toBe(`access_rights.${apiB}: API ${apiB} not found in this organisation`);
    const missing = await a.call('POST', '/api/portal/policies', { name: 'Missing', access_rights: { nothing: { api_id: 'nothing' } } });
    expect(missing.json<{ Message: string }>().Message).toBe('access_rights.nothing: API nothing not found in this organisation');
    const mismatch = await a.call('POST', '/api/portal/policies', { name: 'Mismatch', access_rights: { [apiA]: { api_id: 'other' } } });
    expect(mismatch.json<{ Message: string }>().Message).toContain(`access_rights.${apiA}.api_id`);
    const cases: [unknown, string][] = [
      [{ rate: 1 }, 'name'],
      [{ name: 'q', quota_max: 0 }, 'quota_max'],
      [{ name: 's', state: 'paused' }, 'state'],
      [{ name: 't', tags: 'one' }, 'tags'],
    ];
    for (const [body, field] of cases) {
      const response = await a.call('POST', '/api/portal/policies', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.json<{ Message: string }>().Message).toContain(field);
    }
    expect((await a.call('POST', '/api/portal/policies', '{oops')).json<{ Message: string }>().Message).toMatch(/^Request malformed/);
  });

  it('shows organisation B nothing of organisation A', async () => {
    const id = (await a.call('POST', '/api/portal/policies', { name: 'A only', access_rights: { [apiA]: { api_id: apiA } } })).json<Created>().Message;
    expect((await b.call('GET', '/api/portal/policies?p=-2')).json<{ Data: { id: string; org_id: string }[] }>().Data.every((p) => p.org_id === b.id)).toBe(
      true,
    );
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { name: 'stolen' }],
      ['DELETE', undefined],
    ] as const) {
      const response = await b.call(method, `/api/portal/policies/${id}`, body);
      expect(response.status, method).toBe(404);
      expect(response.json()).toEqual({ Status: 'Error', Message: 'Policy not found' });
    }
    expect((await a.call('GET', `/api/portal/policies/${id}`)).json()).toMatchObject({ name: 'A only' });
  });

  it('applies the policies permission: read may GET only, deny may not GET', async () => {
    const reader = strict.as(await a.user({ policies: 'read' }));
    const denied = strict.as(await a.user({ apis: 'write' }));
    expect((await reader('GET', '/api/portal/policies')).status).toBe(200);
    const write = await reader('POST', '/api/portal/policies', { name: 'nope' });
    expect(write.status).toBe(403);
    expect(write.json()).toEqual({ Status: 'Error', Message: 'access denied: requires policies write' });
    expect((await reader('DELETE', '/api/portal/policies/x')).status).toBe(403);
    expect((await denied('GET', '/api/portal/policies')).json()).toEqual({ Status: 'Error', Message: 'access denied: requires policies read' });
  });
});
