// What one organisation could learn about another through a refusal (issue 23 item 10), on a real dashboard over
// PostgreSQL and PGlite: a custom key value and a user's e-mail address are unique within an organisation only, so
// organisation B choosing a value A already holds is answered exactly as a fresh one, and both keep their own. A
// gateway serving every organisation is served the oldest key of a shared value (the later one works on gateways
// bound to its organisation); a clash within the organisation is still refused.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, createOrg, startDashboard, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { ENGINES, useDatabases } from '../../support/postgres.ts';
import { waitUntil } from '../../support/wait.ts';

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

interface NodeConfig {
  keys: { storage_id: string; session: { org_id: string } }[];
}

describe.each(ENGINES)('no cross-organisation probing on %s', (engine) => {
  const db = useDatabases(engine);
  let dashboard: RunningDashboard;
  let a: TestOrg;
  let b: TestOrg;
  let apiA: string;
  let apiB: string;

  beforeAll(async () => {
    dashboard = await startDashboard(db.config());
    a = await createOrg(dashboard, 'A');
    b = await createOrg(dashboard, 'B');
    apiA = (await a.call('POST', '/api/apis', classicApi('a api', '/probe-a'))).json<{ Meta: string }>().Meta;
    apiB = (await b.call('POST', '/api/apis', classicApi('b api', '/probe-b'))).json<{ Meta: string }>().Meta;
  });

  const rights = (api: string) => ({ access_rights: { [api]: { api_id: api, versions: ['Default'] } } });

  it('answers a custom key another organisation holds exactly as a fresh one; each organisation keeps its own', async () => {
    const held = `held-by-a-${engine}`;
    const fresh = `fresh-${engine}`;
    expect((await a.call('POST', `/api/keys/${held}`, rights(apiA))).status).toBe(200);
    const probe = await b.call('POST', `/api/keys/${held}`, rights(apiB));
    const control = await b.call('POST', `/api/keys/${fresh}`, rights(apiB));
    expect([probe.status, control.status], probe.text).toEqual([200, 200]);
    expect(probe.json()).toEqual({ action: 'create', key: held, status: 'ok' });
    expect((await a.call('GET', `/api/keys/${held}`)).json()).toMatchObject({ data: { org_id: a.id, access_rights: { [apiA]: { api_id: apiA } } } });
    expect((await b.call('GET', `/api/keys/${held}`)).json()).toMatchObject({ data: { org_id: b.id, access_rights: { [apiB]: { api_id: apiB } } } });
    expect((await b.call('POST', `/api/keys/${held}`, rights(apiB))).status).toBe(409);

    const shared = (await dashboard.node('GET', '/system/node/config')).json<NodeConfig>().keys.filter((k) => k.storage_id === sha256(held));
    expect(shared.map((k) => k.session.org_id)).toEqual([a.id]);
    const bound = (await dashboard.node('GET', `/system/node/config?org_id=${b.id}`)).json<NodeConfig>().keys.filter((k) => k.storage_id === sha256(held));
    expect(bound.map((k) => k.session.org_id)).toEqual([b.id]);
    // The log line is written asynchronously: it may reach the output just after the answer.
    await waitUntil('the shared-value warning', () => dashboard.output().includes('keys of these organisations share their value'));

    expect((await b.call('DELETE', `/api/keys/${held}`)).status).toBe(200);
    expect((await a.call('GET', `/api/keys/${held}`)).status).toBe(200);
  });

  it('answers a user e-mail another organisation uses exactly as a fresh one; a clash within the organisation names it', async () => {
    const manager = b.user({ users: 'write' });
    const as = dashboard.as(await manager);
    const email = `taken-${engine}@example.test`;
    expect((await dashboard.admin('POST', '/admin/users', { org_id: a.id, email_address: email })).status).toBe(200);
    const probe = await as('POST', '/api/users', { email_address: email });
    const control = await as('POST', '/api/users', { email_address: `fresh-${engine}@example.test` });
    expect([probe.status, control.status], probe.text).toEqual([200, 200]);
    const again = await as('POST', '/api/users', { email_address: email });
    expect(again.status).toBe(409);
    expect(again.json()).toEqual({ Status: 'Error', Message: `email_address: ${email} is already used by another user of this organisation` });
    const renamed = await as('PUT', `/api/users/${control.json<{ Meta: { id: string } }>().Meta.id}`, { email_address: email });
    expect(renamed.status).toBe(409);
  });
});
