// Issue 10, item 6: what a client sends never makes the dashboard answer 500. The audit's reproductions, on
// PostgreSQL and on PGlite: a page number past what OFFSET can hold, ids carrying %00, NUL or a lone surrogate in a
// string field (PostgreSQL refuses both), a body nested 5 000 deep. Each is a 400 naming the parameter, field or
// limit, checked once at the edge for every route; the lists still answer 200 afterwards.
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, createOrg, startDashboard, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { ENGINES, useDatabases } from '../../support/postgres.ts';

const messageOf = (result: { json<T>(): T }): string => result.json<{ Message: string }>().Message;

describe.each(ENGINES)('dashboard edge validation on %s', (engine) => {
  const db = useDatabases(engine);
  let dashboard: RunningDashboard;
  let org: TestOrg;
  beforeAll(async () => {
    dashboard = await startDashboard(db.config());
    org = await createOrg(dashboard, 'Edge');
  });

  it('answers ?p=99999999999999999999 with 400 naming p, on every list', async () => {
    for (const path of ['/api/apis', '/api/portal/policies', '/api/keys', '/api/certs']) {
      const result = await org.call('GET', `${path}?p=99999999999999999999`);
      expect([path, result.status, messageOf(result)]).toEqual([
        path,
        400,
        expect.stringMatching(/^query parameter p: must be an integer page number from 1 to 1000000000/),
      ]);
    }
    const admin = await dashboard.admin('GET', '/admin/organisations?p=99999999999999999999');
    expect(admin.status).toBe(400);
    expect((await org.call('GET', '/api/apis?p=2')).status).toBe(200);
    expect((await org.call('GET', '/api/apis?p=-2')).status).toBe(200);
  });

  it('answers ids and query values carrying %00 with 400 naming the parameter', async () => {
    for (const path of ['/api/apis/abc%00def', '/api/portal/policies/x%00', '/api/keys/k%00k', '/admin/organisations/o%00']) {
      const call = path.startsWith('/admin') ? dashboard.admin : org.call;
      const result = await call('GET', path);
      expect([path, result.status, messageOf(result)]).toEqual([path, 400, expect.stringMatching(/^path parameter (id|key): contains a NUL character/)]);
    }
    const query = await dashboard.node('GET', '/system/node/config?org_id=a%00b');
    expect([query.status, messageOf(query)]).toEqual([400, expect.stringMatching(/^query parameter org_id: contains a NUL character/)]);
  });

  it('answers NUL or a lone surrogate in any string field with 400 naming the field, and stores nothing', async () => {
    const nul = await org.call('POST', '/api/apis', JSON.stringify(classicApi('nul\u0000name', '/nul')), { 'content-type': 'application/json' });
    expect([nul.status, messageOf(nul)]).toEqual([400, expect.stringMatching(/^Request malformed: .*name: contains a NUL character/)]);
    const surrogate = await org.call('POST', '/api/portal/policies', '{"name":"lone \\udc00 surrogate","rate":1,"per":1}', {
      'content-type': 'application/json',
    });
    expect([surrogate.status, messageOf(surrogate)]).toEqual([400, 'Request malformed: name: contains a lone UTF-16 surrogate (not valid Unicode)']);
    const user = await dashboard.admin('POST', '/admin/organisations', '{"owner_name":"a\\u0000b"}', { 'content-type': 'application/json' });
    expect(user.status).toBe(400);
    const pem = await org.call('POST', '/api/certs', '-----BEGIN CERTIFICATE-----\u0000\n-----END CERTIFICATE-----\n', { 'content-type': 'text/plain' });
    expect([pem.status, messageOf(pem)]).toEqual([400, 'Request malformed: the body contains a NUL byte']);
    const apis = await org.call('GET', '/api/apis?p=-2');
    expect(apis.status).toBe(200);
    expect(apis.json<{ apis: unknown[] }>().apis).toEqual([]);
  });

  it('answers a body nested 5 000 deep with 400 naming the limit, and the lists still answer 200', async () => {
    const deep = `${'{"d":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const api = await org.call('POST', '/api/apis', `${JSON.stringify(classicApi('deep', '/deep')).slice(0, -1)},"config_data":${deep}}`, {
      'content-type': 'application/json',
    });
    expect([api.status, messageOf(api)]).toEqual([400, expect.stringMatching(/^Request malformed: JSON nested deeper than 100 levels/)]);
    const policy = await org.call('POST', '/api/portal/policies', `{"name":"deep","meta_data":${deep}}`, { 'content-type': 'application/json' });
    expect(policy.status).toBe(400);
    expect((await org.call('GET', '/api/apis')).status).toBe(200);
    expect((await org.call('GET', '/api/portal/policies')).status).toBe(200);
  });
});
