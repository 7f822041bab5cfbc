// /api/apis and /api/apis/oas on a real PostgreSQL and on PGlite, with two organisations: gw's documented answer shapes,
// the operator's create-then-PUT flow, listen path clashes within an organisation (400), paging, validation naming
// the field, permissions per user, the operator_managed rule, and that nothing of organisation A is visible or
// writable by organisation B (404, never 403).
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, createOrg, oasApi, startDashboard, matching, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { ENGINES, useDatabases } from '../../support/postgres.ts';

interface Wrapped {
  api_definition: Record<string, unknown> & { api_id: string; org_id: string; proxy: { listen_path: string } };
  user_owners: string[];
  user_group_owners: string[];
}

describe.each(ENGINES)('dashboard APIs on %s', (engine) => {
  const db = useDatabases(engine);
  let dashboard: RunningDashboard;
  let a: TestOrg;
  let b: TestOrg;
  beforeAll(async () => {
    dashboard = await startDashboard(db.config({ page_size: 2 }));
    a = await createOrg(dashboard, 'A');
    b = await createOrg(dashboard, 'B');
  });

  it("creates a Classic API with a generated id in the caller organisation and answers gw's design shapes", async () => {
    const created = await a.call('POST', '/api/apis', classicApi('plain', '/plain', { org_id: b.id }));
    expect(created.status).toBe(200);
    const { Meta: id } = created.json<{ Meta: string }>();
    expect(created.json()).toEqual({ Status: 'OK', Message: 'API created', Meta: matching(/^[0-9a-f]{32}$/) });

    const read = await a.call('GET', `/api/apis/${id}`);
    expect(read.status).toBe(200);
    const body = read.json<Wrapped>();
    expect(body.api_definition).toMatchObject({ name: 'plain', api_id: id, org_id: a.id, proxy: { listen_path: '/plain' } });
    expect(body).toMatchObject({ user_owners: [], user_group_owners: [] });

    const updated = await a.call('PUT', `/api/apis/${id}`, classicApi('plain renamed', '/plain'));
    expect(updated.json()).toEqual({ Status: 'OK', Message: 'Api updated', Meta: null });
    expect((await a.call('GET', `/api/apis/${id}`)).json<Wrapped>().api_definition).toMatchObject({ name: 'plain renamed', api_id: id, org_id: a.id });

    expect((await a.call('DELETE', `/api/apis/${id}`)).json()).toEqual({ Status: 'OK', Message: 'API deleted', Meta: null });
    expect((await a.call('GET', `/api/apis/${id}`)).status).toBe(404);
    expect((await a.call('DELETE', `/api/apis/${id}`)).status).toBe(404);
    expect((await a.call('PUT', `/api/apis/${id}`, classicApi('gone', '/plain'))).status).toBe(404);
  });

  it('follows the operator: POST {api_definition, user_owners, user_group_owners} keeps the api_id, then PUT to it', async () => {
    const definition = classicApi('operator', '/operator', { api_id: `ZGVmYXVsdC9odHRwYmlu-${engine}` });
    const created = await a.call('POST', '/api/apis', { api_definition: definition, user_owners: ['owner-1'], user_group_owners: ['group-1'] });
    expect(created.json()).toEqual({ Status: 'OK', Message: 'API created', Meta: `ZGVmYXVsdC9odHRwYmlu-${engine}` });
    const id = created.json<{ Meta: string }>().Meta;
    const put = await a.call('PUT', `/api/apis/${id}`, { api_definition: { ...definition, name: 'operator v2' } });
    expect(put.json()).toEqual({ Status: 'OK', Message: 'Api updated', Meta: null });
    const read = (await a.call('GET', `/api/apis/${id}`)).json<Wrapped>();
    expect(read.api_definition).toMatchObject({ name: 'operator v2', api_id: id, org_id: a.id });
    expect(read).toMatchObject({ user_owners: ['owner-1'], user_group_owners: ['group-1'] });

    const mismatch = await a.call('PUT', `/api/apis/${id}`, { api_definition: { ...definition, api_id: 'other' } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.json<{ Message: string }>().Message).toContain('api_definition.api_id');
    expect(
      (await a.call('POST', '/api/apis', { api_definition: { ...definition, proxy: { ...(definition.proxy as object), listen_path: '/elsewhere' } } })).status,
    ).toBe(409);
  });

  it("answers another organisation's explicit API id exactly as a fresh one (ids are per organisation, issue 10 item 11)", async () => {
    const taken = `probe-${engine}`;
    const fresh = `never-used-${engine}`;
    const ownA = await a.call('POST', '/api/apis', classicApi('A private', '/a-private', { api_id: taken }));
    expect(ownA.json()).toEqual({ Status: 'OK', Message: 'API created', Meta: taken });
    const probe = await b.call('POST', '/api/apis', classicApi('B probe', '/b-probe', { api_id: taken }));
    const control = await b.call('POST', '/api/apis', classicApi('B control', '/b-control', { api_id: fresh }));
    expect([probe.status, control.status]).toEqual([200, 200]);
    expect(probe.json()).toEqual({ Status: 'OK', Message: 'API created', Meta: taken });
    expect(control.json()).toEqual({ Status: 'OK', Message: 'API created', Meta: fresh });
    expect((await b.call('GET', `/api/apis/${taken}`)).json<Wrapped>().api_definition).toMatchObject({ name: 'B probe', org_id: b.id });
    expect((await a.call('GET', `/api/apis/${taken}`)).json<Wrapped>().api_definition).toMatchObject({ name: 'A private', org_id: a.id });
    expect((await b.call('DELETE', `/api/apis/${taken}`)).status).toBe(200);
    expect((await a.call('GET', `/api/apis/${taken}`)).status).toBe(200);
  });

  it('serves a gateway of every organisation one id space: the later owner of a shared id is renamed, with its references', async () => {
    const shared = `shared-${engine}`;
    expect((await a.call('POST', '/api/apis', classicApi('A shared', '/a-shared', { api_id: shared }))).status).toBe(200);
    expect((await b.call('POST', '/api/apis', classicApi('B shared', '/b-shared', { api_id: shared }))).status).toBe(200);
    const key = await b.call('POST', '/api/keys', { access_rights: { [shared]: { api_id: shared, api_name: 'B shared', versions: ['Default'] } } });
    expect(key.status).toBe(200);
    type Config = { apis: { id: string; org_id: string }[]; keys: { session: { org_id?: string; access_rights?: Record<string, { api_id: string }> } }[] };
    const all = (await dashboard.node('GET', '/system/node/config')).json<Config>();
    const served = all.apis.filter((api) => api.id.startsWith(shared)).map((api) => [api.id, api.org_id]);
    expect(served).toEqual([
      [shared, a.id],
      [`${shared}~${b.id}`, b.id],
    ]);
    const bKey = all.keys.find((k) => k.session.access_rights?.[`${shared}~${b.id}`]);
    expect(bKey?.session.access_rights?.[`${shared}~${b.id}`]?.api_id).toBe(`${shared}~${b.id}`);
    const onlyB = (await dashboard.node('GET', `/system/node/config?org_id=${b.id}`)).json<Config>();
    expect(onlyB.apis.filter((api) => api.id.startsWith(shared)).map((api) => api.id)).toEqual([shared]);
  });

  it('refuses a listen path another API of the organisation uses, naming proxy.listen_path; other domains are free, other organisations not (cross-org-routes.test.ts)', async () => {
    expect((await a.call('POST', '/api/apis', classicApi('first', '/clash/'))).status).toBe(200);
    const clash = await a.call('POST', '/api/apis', classicApi('second', '/clash'));
    expect(clash.status).toBe(400);
    expect(clash.json<{ Message: string }>().Message).toMatch(/^proxy\.listen_path: \/clash is already used by API/);
    const wrapped = await a.call('POST', '/api/apis', { api_definition: classicApi('third', '//clash//') });
    expect(wrapped.json<{ Message: string }>().Message).toContain('api_definition.proxy.listen_path');
    expect((await a.call('POST', '/api/apis', classicApi('on a domain', '/clash', { domain: 'api.example.test' }))).status).toBe(200);
    expect((await b.call('POST', '/api/apis', classicApi('b first', '/clash'))).status).toBe(409);
    const oasClash = await a.call('POST', '/api/apis/oas', oasApi('oas clash', '/clash'));
    expect(oasClash.status).toBe(400);
    expect(oasClash.json<{ Message: string }>().Message).toContain('x-gw-api-gateway.server.listenPath.value');
  });

  it('refuses malformed JSON and bad fields with 400 naming the field', async () => {
    const malformed = await a.call('POST', '/api/apis', '{"name": ');
    expect(malformed.status).toBe(400);
    expect(malformed.json<{ Status: string; Message: string }>()).toEqual({ Status: 'Error', Message: matching(/^Request malformed/) });
    const cases: [unknown, string][] = [
      [{ proxy: { listen_path: '/noname' } }, 'name'],
      [classicApi('typed', '/typed', { proxy: { listen_path: 42 } }), 'proxy.listen_path'],
      [{ name: 'nopath', proxy: { target_url: 'http://x' } }, 'proxy.listen_path'],
      [classicApi('relative', 'relative'), 'proxy.listen_path'],
      [classicApi('bad id', '/badid', { api_id: 'has space' }), 'api_id'],
      [classicApi('bad proto', '/badproto', { protocol: 'gopher' }), 'protocol'],
      [[1, 2], 'JSON object'],
    ];
    for (const [body, field] of cases) {
      const response = await a.call('POST', '/api/apis', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.json<{ Message: string }>().Message).toContain(field);
    }
    expect((await a.call('PATCH', '/api/apis', {})).status).toBe(405);
  });

  it('pages lists with ?p= and returns everything with ?p=-2', async () => {
    const org = await createOrg(dashboard, 'Pages');
    for (const n of [1, 2, 3]) expect((await org.call('POST', '/api/apis', classicApi(`page ${n}`, `/page-${n}`))).status).toBe(200);
    const first = (await org.call('GET', '/api/apis')).json<{ apis: Wrapped[]; pages: number }>();
    expect(first.pages).toBe(2);
    expect(first.apis.map((x) => x.api_definition.name)).toEqual(['page 1', 'page 2']);
    expect((await org.call('GET', '/api/apis?p=2')).json<{ apis: Wrapped[] }>().apis.map((x) => x.api_definition.name)).toEqual(['page 3']);
    const all = (await org.call('GET', '/api/apis?p=-2')).json<{ apis: Wrapped[]; pages: number }>();
    expect(all.apis).toHaveLength(3);
    expect(all.pages).toBe(1);
    const bad = await org.call('GET', '/api/apis?p=two');
    expect(bad.status).toBe(400);
    expect(bad.json<{ Message: string }>().Message).toContain('query parameter p: must be an integer page number');
  });

  it('serves OAS APIs under /api/apis/oas, listed in the Classic list as a summary', async () => {
    const created = await a.call('POST', '/api/apis/oas', oasApi('oas one', '/oas-one'));
    expect(created.json()).toEqual({ Status: 'OK', Message: 'API created', Meta: matching(/^[0-9a-f]{32}$/) });
    const id = created.json<{ Meta: string }>().Meta;
    const doc = (await a.call('GET', `/api/apis/oas/${id}`)).json<Record<string, { info: Record<string, unknown> }>>();
    expect(doc['x-gw-api-gateway']!.info).toMatchObject({ id, orgId: a.id, name: 'oas one' });
    expect(doc).toMatchObject({ openapi: '3.0.3', paths: { '/anything': {} } });

    const listed = (await a.call('GET', '/api/apis?p=-2')).json<{ apis: Wrapped[] }>().apis.find((x) => x.api_definition.api_id === id);
    expect(listed?.api_definition).toMatchObject({ name: 'oas one', is_oas: true, proxy: { listen_path: '/oas-one' } });
    expect((await a.call('GET', '/api/apis/oas?p=-2')).json<{ apis: unknown[] }>().apis).toHaveLength(1);

    const explicit = await a.call('POST', '/api/apis/oas', oasApi('oas two', '/oas-two', `oas-two-${engine}`));
    expect(explicit.json<{ Meta: string }>().Meta).toBe(`oas-two-${engine}`);

    expect((await a.call('PUT', `/api/apis/oas/${id}`, oasApi('oas one v2', '/oas-one'))).json()).toEqual({ Status: 'OK', Message: 'Api updated', Meta: null });
    expect((await a.call('GET', `/api/apis/oas/${id}`)).json<Record<string, { info: { name: string } }>>()['x-gw-api-gateway']!.info.name).toBe('oas one v2');

    const classic = (await a.call('POST', '/api/apis', classicApi('classic beside', '/classic-beside'))).json<{ Meta: string }>().Meta;
    expect((await a.call('GET', `/api/apis/oas/${classic}`)).status).toBe(400);
    expect((await a.call('PUT', `/api/apis/${id}`, classicApi('not oas', '/oas-one'))).status).toBe(400);
    const noExtension = await a.call('POST', '/api/apis/oas', { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} });
    expect(noExtension.status).toBe(400);
    expect(noExtension.json<{ Message: string }>().Message).toContain('x-gw-api-gateway');
    const badVersion = await a.call('POST', '/api/apis/oas', { ...oasApi('old', '/old'), openapi: '2.0' });
    expect(badVersion.json<{ Message: string }>().Message).toContain('openapi');

    expect((await b.call('GET', `/api/apis/oas/${id}`)).status).toBe(404);
    expect((await b.call('PUT', `/api/apis/oas/${id}`, oasApi('stolen', '/stolen'))).status).toBe(404);
    expect((await b.call('DELETE', `/api/apis/oas/${id}`)).status).toBe(404);
    expect((await b.call('GET', '/api/apis/oas?p=-2')).json<{ apis: unknown[] }>().apis).toHaveLength(0);

    expect((await a.call('DELETE', `/api/apis/oas/${id}`)).json()).toEqual({ Status: 'OK', Message: 'API deleted', Meta: null });
    expect((await a.call('GET', `/api/apis/oas/${id}`)).status).toBe(404);
  });

  it('shows organisation B nothing of organisation A: lists, gets, puts and deletes answer 404', async () => {
    const id = (await a.call('POST', '/api/apis', classicApi('private', '/private'))).json<{ Meta: string }>().Meta;
    const bList = (await b.call('GET', '/api/apis?p=-2')).json<{ apis: Wrapped[] }>().apis;
    expect(bList.every((x) => x.api_definition.org_id === b.id)).toBe(true);
    expect(bList.some((x) => x.api_definition.api_id === id)).toBe(false);
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', classicApi('stolen', '/private')],
      ['DELETE', undefined],
    ] as const) {
      const response = await b.call(method, `/api/apis/${id}`, body);
      expect(response.status, method).toBe(404);
      expect(response.json()).toEqual({ Status: 'Error', Message: 'API not found' });
    }
    expect((await a.call('GET', `/api/apis/${id}`)).json<Wrapped>().api_definition).toMatchObject({ name: 'private', org_id: a.id });
  });

  it('applies permissions per user: read may GET only, deny may not even GET', async () => {
    const reader = dashboard.as(await a.user({ apis: 'read' }));
    const denied = dashboard.as(await a.user({ apis: 'deny', policies: 'write' }));
    expect((await reader('GET', '/api/apis')).status).toBe(200);
    expect((await reader('GET', '/api/apis/oas')).status).toBe(200);
    for (const [method, path] of [
      ['POST', '/api/apis'],
      ['POST', '/api/apis/oas'],
      ['PUT', '/api/apis/x'],
      ['DELETE', '/api/apis/x'],
    ] as const) {
      const response = await reader(method, path, classicApi('nope', '/nope'));
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.json()).toEqual({ Status: 'Error', Message: 'access denied: requires apis write' });
    }
    const noRead = await denied('GET', '/api/apis');
    expect(noRead.status).toBe(403);
    expect(noRead.json()).toEqual({ Status: 'Error', Message: 'access denied: requires apis read' });
  });

  it('in an operator_managed organisation only the system user writes APIs and policies', async () => {
    const org = await createOrg(dashboard, 'Managed');
    const operator = dashboard.as(await org.user({ apis: 'write', policies: 'write', certificates: 'write' }, { system: true }));
    await dashboard.admin('PUT', `/admin/organisations/${org.id}`, { operator_managed: true });

    const human = await org.call('POST', '/api/apis', classicApi('by hand', '/by-hand'));
    expect(human.status).toBe(403);
    expect(human.json<{ Message: string }>().Message).toMatch(/^API definitions of this organisation are managed by the operator; /);
    expect((await org.call('POST', '/api/apis/oas', oasApi('by hand', '/by-hand'))).status).toBe(403);
    const humanPolicy = await org.call('POST', '/api/portal/policies', { name: 'by hand' });
    expect(humanPolicy.status).toBe(403);
    expect(humanPolicy.json<{ Message: string }>().Message).toMatch(/^Security policies of this organisation are managed by the operator; /);

    const created = await operator('POST', '/api/apis', classicApi('by operator', '/by-operator'));
    expect(created.status).toBe(200);
    const id = created.json<{ Meta: string }>().Meta;
    expect((await operator('POST', '/api/portal/policies', { name: 'by operator' })).status).toBe(200);
    expect((await org.call('GET', `/api/apis/${id}`)).status).toBe(200);
    expect((await org.call('PUT', `/api/apis/${id}`, classicApi('edited by hand', '/by-operator'))).status).toBe(403);
    expect((await org.call('DELETE', `/api/apis/${id}`)).status).toBe(403);
    expect((await org.call('POST', '/api/keys', { access_rights: { [id]: { api_id: id } } })).status).toBe(200);

    await dashboard.admin('PUT', `/admin/organisations/${org.id}`, { operator_managed: false });
    expect((await org.call('PUT', `/api/apis/${id}`, classicApi('edited by hand', '/by-operator'))).status).toBe(200);
  });
});
