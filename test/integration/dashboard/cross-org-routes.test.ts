// The listen-path rule across organisations (issue 23 item 5), on a real dashboard over PostgreSQL and PGlite: a
// gateway without org_id serves every organisation, longest listen path first and domain-bound APIs before
// domain-less ones, so one organisation must not claim a route nested in (or over) another's. Refused with 409
// naming the field and the other route, never the other organisation's or API's id; nested paths within one
// organisation, sibling paths (`/orga` and `/orgab`) and disjoint domains stay allowed; of two organisations
// claiming overlapping routes at once, one gets it.
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, createOrg, oasApi, startDashboard, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { ENGINES, useDatabases } from '../../support/postgres.ts';

describe.each(ENGINES)('listen paths across organisations on %s', (engine) => {
  const db = useDatabases(engine);
  let dashboard: RunningDashboard;
  let a: TestOrg;
  let b: TestOrg;
  let aApi: string;

  beforeAll(async () => {
    dashboard = await startDashboard(db.config());
    a = await createOrg(dashboard, 'A');
    b = await createOrg(dashboard, 'B');
    const created = await a.call(
      'POST',
      '/api/apis',
      classicApi('A protected', '/orga/', { use_keyless: false, use_standard_auth: true, auth_configs: { authToken: { auth_header_name: 'Authorization' } } }),
    );
    expect(created.status, created.text).toBe(200);
    aApi = created.json<{ Meta: string }>().Meta;
  });

  const refusedWithoutIds = (answer: { status: number; text: string }, message: RegExp): void => {
    expect(answer.status, answer.text).toBe(409);
    const body = JSON.parse(answer.text) as { Status: string; Message: string };
    expect(body.Status).toBe('Error');
    expect(body.Message).toMatch(message);
    for (const id of [a.id, aApi]) expect(answer.text).not.toContain(id);
  };

  it('refuses a keyless API of another organisation nested under /orga/ (Classic and OAS, create and update)', async () => {
    refusedWithoutIds(
      await b.call('POST', '/api/apis', classicApi('B capture', '/orga/users/')),
      /^proxy\.listen_path: \/orga\/users overlaps \/orga, served by another organisation/,
    );
    refusedWithoutIds(
      await b.call('POST', '/api/apis/oas', oasApi('B capture oas', '/orga/users/me')),
      /^x-gw-api-gateway\.server\.listenPath\.value: \/orga\/users\/me overlaps \/orga/,
    );
    const elsewhere = await b.call('POST', '/api/apis', classicApi('B elsewhere', '/orgb/'));
    expect(elsewhere.status, elsewhere.text).toBe(200);
    const id = elsewhere.json<{ Meta: string }>().Meta;
    refusedWithoutIds(await b.call('PUT', `/api/apis/${id}`, classicApi('B moved in', '/orga/users/', { api_id: id })), /overlaps \/orga/);
    expect((await b.call('PUT', `/api/apis/${id}`, classicApi('B renamed', '/orgb/', { api_id: id }))).status).toBe(200);
  });

  it("refuses a route over another organisation's: the root, and a host claimed for a domain-less API's path", async () => {
    refusedWithoutIds(await b.call('POST', '/api/apis', classicApi('B root', '/')), /^proxy\.listen_path: \/ overlaps \/orga/);
    refusedWithoutIds(
      await b.call('POST', '/api/apis', classicApi('B host', '/', { domain: 'gw.example.test' })),
      /^proxy\.listen_path: gw\.example\.test\/ overlaps \/orga/,
    );
    refusedWithoutIds(await b.call('POST', '/api/apis', classicApi('B same', '/orga')), /overlaps \/orga/);
  });

  it('lets only one of two organisations claiming overlapping routes at the same moment have it', async () => {
    const pairs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        Promise.all([
          a.call('POST', '/api/apis', classicApi(`A race ${i}`, `/race${i}/`)),
          b.call('POST', '/api/apis', classicApi(`B race ${i}`, `/race${i}/inner/`)),
        ]),
      ),
    );
    for (const pair of pairs) expect(pair.map((answer) => answer.status).sort()).toEqual([200, 409]);
  });

  it('allows sibling paths, disjoint domains and nesting within one organisation', async () => {
    expect((await b.call('POST', '/api/apis', classicApi('B sibling', '/orgab/'))).status).toBe(200);
    expect((await a.call('POST', '/api/apis', classicApi('A nested', '/orga/users/'))).status).toBe(200);
    expect((await a.call('POST', '/api/apis', classicApi('A on a host', '/hosted/', { domain: 'a.example.test' }))).status).toBe(200);
    expect((await b.call('POST', '/api/apis', classicApi('B on another host', '/hosted/deeper/', { domain: 'b.example.test' }))).status).toBe(200);
    refusedWithoutIds(
      await b.call('POST', '/api/apis', classicApi('B under the wildcard', '/hosted/', { domain: '*.example.test' })),
      /overlaps a\.example\.test\/hosted/,
    );
  });
});
