// /api/keys on a real PostgreSQL and on PGlite: the answer of POST /api/keys in both editions (self-managed
// {action, key, status}; cloud {api_model, key_id, data}), hashed and unhashed storage, custom keys, the read,
// update and delete endpoints, keys limited to the organisation's APIs and policies (a key of organisation A can
// never apply a policy of B), the policy states that forbid new keys, permissions, and isolation (404 for B).
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, createOrg, startDashboard, matching, containing, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { ENGINES, useDatabases } from '../../support/postgres.ts';

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

describe.each(ENGINES)('dashboard keys on %s', (engine) => {
  const db = useDatabases(engine);
  let selfManaged: RunningDashboard;
  let cloud: RunningDashboard;
  let a: TestOrg;
  let b: TestOrg;
  let apiA: string;
  let apiB: string;
  let policyA: string;
  let policyB: string;
  beforeAll(async () => {
    [selfManaged, cloud] = await Promise.all([startDashboard(db.config()), startDashboard(db.config({ edition: 'cloud', hash_keys: false }))]);
    a = await createOrg(selfManaged, 'A');
    b = await createOrg(selfManaged, 'B');
    apiA = (await a.call('POST', '/api/apis', classicApi('a api', '/a-api'))).json<{ Meta: string }>().Meta;
    apiB = (await b.call('POST', '/api/apis', classicApi('b api', '/b-api'))).json<{ Meta: string }>().Meta;
    policyA = (await a.call('POST', '/api/portal/policies', { name: 'A gold', access_rights: { [apiA]: { api_id: apiA } } })).json<{ Message: string }>()
      .Message;
    policyB = (await b.call('POST', '/api/portal/policies', { name: 'B gold', access_rights: { [apiB]: { api_id: apiB } } })).json<{ Message: string }>()
      .Message;
  });

  it('self-managed: answers {action: create, key, status: ok}, stores the SHA-256 only, and reads, updates and deletes the key', async () => {
    const created = await a.call('POST', '/api/keys', { rate: 100, per: 60, quota_max: -1, apply_policies: [policyA], org_id: b.id });
    expect(created.status).toBe(200);
    const body = created.json<{ key: string }>();
    expect(body).toEqual({ action: 'create', key: matching(new RegExp(`^${a.id}[0-9a-f]{32}$`)), status: 'ok' });
    const { key } = body;
    expect(selfManaged.output()).not.toContain(key);

    const read = await a.call('GET', `/api/keys/${key}`);
    expect(read.json()).toEqual({ api_model: {}, key_id: key, data: containing({ rate: 100, per: 60, apply_policies: [policyA], org_id: a.id }) });
    const list = (await a.call('GET', '/api/keys?p=-2')).json<{ keys: string[]; pages: number }>();
    expect(list.keys).toContain(sha256(key));
    expect(list.keys).not.toContain(key);
    expect((await a.call('GET', `/api/keys/${sha256(key)}?hashed=true`)).json()).toMatchObject({ data: { rate: 100 } });
    expect((await a.call('GET', `/api/keys/${sha256(key)}`)).status).toBe(404);

    const updated = await a.call('PUT', `/api/keys/${key}`, { rate: 5, per: 1, access_rights: { [apiA]: { api_id: apiA, versions: ['Default'] } } });
    expect(updated.json()).toEqual({ Status: 'OK', Message: 'Key updated', Meta: null });
    expect((await a.call('GET', `/api/keys/${key}`)).json()).toMatchObject({ data: { rate: 5, access_rights: { [apiA]: { api_id: apiA } } } });

    expect((await a.call('DELETE', `/api/keys/${key}`)).json()).toEqual({ Status: 'OK', Message: 'Key deleted', Meta: null });
    expect((await a.call('GET', `/api/keys/${key}`)).status).toBe(404);
    expect((await a.call('DELETE', `/api/keys/${key}`)).status).toBe(404);
    expect((await a.call('PUT', `/api/keys/${key}`, { apply_policies: [policyA] })).status).toBe(404);
  });

  it('cloud: answers {api_model, key_id, data}; with hash_keys off the key is its own storage id', async () => {
    const org = await createOrg(cloud, 'Cloud');
    const api = (await org.call('POST', '/api/apis', classicApi('cloud api', '/cloud'))).json<{ Meta: string }>().Meta;
    const created = await org.call('POST', '/api/keys', { access_rights: { [api]: { api_id: api } }, quota_max: 10 });
    const body = created.json<{ key_id: string; data: Record<string, unknown> }>();
    expect(Object.keys(body).sort()).toEqual(['api_model', 'data', 'key_id']);
    expect(body.data).toMatchObject({ quota_max: 10, org_id: org.id, access_rights: { [api]: { api_id: api } } });
    expect(body).toMatchObject({ api_model: {} });
    expect((await org.call('GET', '/api/keys')).json<{ keys: string[] }>().keys).toEqual([body.key_id]);
    const config = (await cloud.node('GET', `/system/node/config?org_id=${org.id}`)).json<{ keys: { storage_id: string; hashed: boolean }[] }>();
    expect(config.keys).toEqual([containing({ storage_id: body.key_id, hashed: false })]);
  });

  it('creates a key chosen by the caller once per organisation (another one holding it is never told: cross-org-probing.test.ts)', async () => {
    const custom = `custom-key-${engine}`;
    const created = await a.call('POST', `/api/keys/${custom}`, { apply_policies: [policyA] });
    expect(created.json()).toEqual({ action: 'create', key: custom, status: 'ok' });
    expect((await a.call('GET', `/api/keys/${custom}`)).json()).toMatchObject({ key_id: custom, data: { apply_policies: [policyA] } });
    expect((await a.call('POST', `/api/keys/${custom}`, { apply_policies: [policyA] })).status).toBe(409);
    expect((await b.call('POST', `/api/keys/${custom}`, { apply_policies: [policyB] })).status).toBe(200);
  });

  it("never lets a key reach another organisation's policies or APIs", async () => {
    const foreignPolicy = await a.call('POST', '/api/keys', { apply_policies: [policyB] });
    expect(foreignPolicy.status).toBe(400);
    expect(foreignPolicy.json<{ Message: string }>().Message).toBe(`apply_policies.0: policy ${policyB} not found in this organisation`);
    const deprecated = await a.call('POST', '/api/keys', { apply_policy_id: policyB });
    expect(deprecated.json<{ Message: string }>().Message).toContain('apply_policy_id');
    const foreignApi = await a.call('POST', '/api/keys', { access_rights: { [apiB]: { api_id: apiB } } });
    expect(foreignApi.status).toBe(400);
    expect(foreignApi.json<{ Message: string }>().Message).toBe(`access_rights.${apiB}: API ${apiB} not found in this organisation`);
    const key = (await a.call('POST', '/api/keys', { apply_policies: [policyA] })).json<{ key: string }>().key;
    const update = await a.call('PUT', `/api/keys/${key}`, { apply_policies: [policyA, policyB] });
    expect(update.json<{ Message: string }>().Message).toBe(`apply_policies.1: policy ${policyB} not found in this organisation`);
    const nothing = await a.call('POST', '/api/keys', { rate: 1, per: 1 });
    expect(nothing.status).toBe(400);
    expect(nothing.json<{ Message: string }>().Message).toMatch(/^access_rights: /);
  });

  it('refuses new keys under a draft or deny policy, while existing keys may still be updated', async () => {
    const policy = (await a.call('POST', '/api/portal/policies', { name: `Changing ${engine}`, access_rights: { [apiA]: { api_id: apiA } } })).json<{
      Message: string;
    }>().Message;
    const key = (await a.call('POST', '/api/keys', { apply_policies: [policy] })).json<{ key: string }>().key;
    for (const state of ['draft', 'deny'] as const) {
      await a.call('PUT', `/api/portal/policies/${policy}`, { name: `Changing ${engine}`, state, access_rights: { [apiA]: { api_id: apiA } } });
      const refused = await a.call('POST', '/api/keys', { apply_policies: [policy] });
      expect(refused.status).toBe(400);
      expect(refused.json<{ Message: string }>().Message).toBe(`apply_policies.0: policy ${policy} is in state ${state}: no new keys can be created under it`);
      expect((await a.call('PUT', `/api/keys/${key}`, { apply_policies: [policy], rate: 3, per: 1 })).status).toBe(200);
    }
    const legacy = (await a.call('POST', '/api/portal/policies', { name: `Legacy inactive ${engine}`, is_inactive: true })).json<{ Message: string }>().Message;
    expect((await a.call('POST', '/api/keys', { apply_policies: [legacy] })).status).toBe(400);
  });

  it('refuses malformed JSON and bad fields naming the field', async () => {
    const malformed = await a.call('POST', '/api/keys', '{"rate":');
    expect(malformed.status).toBe(400);
    expect(malformed.json<{ Message: string }>().Message).toMatch(/^Request malformed/);
    for (const [body, field] of [
      [{ apply_policies: [policyA], rate: 'fast' }, 'rate'],
      [{ apply_policies: policyA }, 'apply_policies'],
      [{ apply_policies: [policyA], quota_max: 0 }, 'quota_max'],
      [{ access_rights: { [apiA]: { versions: ['v1'] } } }, `access_rights.${apiA}.api_id`],
    ] as const) {
      const response = await a.call('POST', '/api/keys', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.json<{ Message: string }>().Message).toContain(field);
    }
  });

  it('shows organisation B nothing of organisation A', async () => {
    const key = (await a.call('POST', '/api/keys', { apply_policies: [policyA] })).json<{ key: string }>().key;
    expect((await b.call('GET', '/api/keys?p=-2')).json<{ keys: string[] }>().keys).not.toContain(sha256(key));
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { apply_policies: [policyB] }],
      ['DELETE', undefined],
    ] as const) {
      const response = await b.call(method, `/api/keys/${key}`, body);
      expect(response.status, method).toBe(404);
      expect(response.json()).toEqual({ Status: 'Error', Message: 'Key not found' });
    }
    expect((await b.call('GET', `/api/keys/${sha256(key)}?hashed=true`)).status).toBe(404);
    expect((await a.call('GET', `/api/keys/${key}`)).status).toBe(200);
  });

  it('applies the keys permission: read may GET only, deny may not GET', async () => {
    const key = (await a.call('POST', '/api/keys', { apply_policies: [policyA] })).json<{ key: string }>().key;
    const reader = selfManaged.as(await a.user({ keys: 'read' }));
    const denied = selfManaged.as(await a.user({ apis: 'write', policies: 'write' }));
    expect((await reader('GET', '/api/keys')).status).toBe(200);
    expect((await reader('GET', `/api/keys/${key}`)).status).toBe(200);
    expect((await reader('POST', '/api/keys', { apply_policies: [policyA] })).json()).toEqual({
      Status: 'Error',
      Message: 'access denied: requires keys write',
    });
    expect((await reader('DELETE', `/api/keys/${key}`)).status).toBe(403);
    expect((await denied('GET', `/api/keys/${key}`)).json()).toEqual({ Status: 'Error', Message: 'access denied: requires keys read' });
  });
});
