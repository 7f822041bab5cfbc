// The node API gateways load from, and persistence, on a real PostgreSQL and on PGlite: GET /system/node/config
// behind x-gw-node-secret, its exact contract ({version, apis, policies, keys}, ETag, 304 on If-None-Match), that it
// reflects every write (inactive APIs included), the org_id filter, and that a restart of the process on the same
// database loses nothing: organisations, users and their keys, APIs, policies, keys, certificates, and the version.
import { createHash } from 'node:crypto';
import { selfSignedServingCertificate } from '../../support/certificates.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/up/paths.ts';
import { classicApi, createOrg, oasApi, startDashboard, matching, containing, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { ENGINES, useDatabases } from '../../support/postgres.ts';

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

interface NodeConfig {
  version: string;
  apis: { id: string; org_id: string; format: string; definition: Record<string, unknown> }[];
  policies: { id: string; org_id: string; name: string }[];
  keys: { storage_id: string; hashed: boolean; session: Record<string, unknown> }[];
  certs: { id: string; pem: string }[];
}

describe.each(ENGINES)('dashboard node API on %s', (engine) => {
  const db = useDatabases(engine);
  let dashboard: RunningDashboard;
  let a: TestOrg;
  let b: TestOrg;
  beforeAll(async () => {
    dashboard = await startDashboard(db.config());
    a = await createOrg(dashboard, 'A');
    b = await createOrg(dashboard, 'B');
  });

  const config = async (query = ''): Promise<{ body: NodeConfig; etag: string }> => {
    const response = await dashboard.node('GET', `/system/node/config${query}`);
    expect(response.status).toBe(200);
    return { body: response.json<NodeConfig>(), etag: String(response.headers.etag) };
  };

  it('refuses callers without the node secret', async () => {
    for (const headers of [{}, { 'x-gw-node-secret': 'wrong' }, { 'admin-auth': 'dashboard-admin-secret-for-tests' }] as Record<string, string>[]) {
      const response = await dashboard.anonymous('GET', '/system/node/config', undefined, headers);
      expect(response.status).toBe(401);
      expect(response.json()).toEqual({ Status: 'Error', Message: 'Not authorised' });
    }
    expect((await dashboard.anonymous('GET', '/system/node/config', undefined, { 'x-gw-node-secret': a.key })).status).toBe(401);
  });

  it('answers {version, apis, policies, keys, certs} with ETag "<version>", 304 for the current version, and follows every write', async () => {
    const empty = await config();
    expect(empty.body).toEqual({ version: matching(/^[0-9a-f]{64}$/), apis: [], policies: [], keys: [], certs: [] });
    expect(empty.etag).toBe(`"${empty.body.version}"`);
    const unchanged = await dashboard.node('GET', '/system/node/config', undefined, { 'if-none-match': empty.etag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');
    expect((await dashboard.node('GET', '/system/node/config', undefined, { 'if-none-match': `W/${empty.etag}` })).status).toBe(304);

    const classicId = (await a.call('POST', '/api/apis', classicApi('inactive one', '/inactive', { active: false }))).json<{ Meta: string }>().Meta;
    const afterApi = await dashboard.node('GET', '/system/node/config', undefined, { 'if-none-match': empty.etag });
    expect(afterApi.status).toBe(200);
    const withApi = afterApi.json<NodeConfig>();
    expect(withApi.version).not.toBe(empty.body.version);
    expect(withApi.apis).toEqual([
      { id: classicId, org_id: a.id, format: 'classic', definition: containing({ api_id: classicId, org_id: a.id, active: false, name: 'inactive one' }) },
    ]);

    const oasId = (await b.call('POST', '/api/apis/oas', oasApi('b oas', '/b-oas'))).json<{ Meta: string }>().Meta;
    const policy = (
      await a.call('POST', '/api/portal/policies', { name: 'node gold', rate: 7, per: 1, access_rights: { [classicId]: { api_id: classicId } } })
    ).json<{ Message: string }>().Message;
    const key = (await a.call('POST', '/api/keys', { apply_policies: [policy] })).json<{ key: string }>().key;
    const full = (await config()).body;
    expect(full.apis.map((x) => [x.id, x.format]).sort()).toEqual(
      [
        [classicId, 'classic'],
        [oasId, 'oas'],
      ].sort(),
    );
    expect(full.apis.find((x) => x.id === oasId)?.definition).toMatchObject({ 'x-gw-api-gateway': { info: { id: oasId, orgId: b.id } } });
    expect(full.policies).toEqual([containing({ id: policy, org_id: a.id, name: 'node gold', rate: 7 })]);
    expect(full.keys).toEqual([{ storage_id: sha256(key), hashed: true, session: containing({ apply_policies: [policy], org_id: a.id }) }]);
    expect(JSON.stringify(full)).not.toContain(key);

    const onlyB = (await config(`?org_id=${b.id}`)).body;
    expect(onlyB.apis.map((x) => x.id)).toEqual([oasId]);
    expect(onlyB.policies).toEqual([]);
    expect(onlyB.keys).toEqual([]);
    expect(onlyB.version).not.toBe(full.version);
    expect((await config('?org_id=nobody')).body).toMatchObject({ apis: [], policies: [], keys: [] });

    await a.call('PUT', `/api/portal/policies/${policy}`, { name: 'node gold', rate: 8, per: 1 });
    expect((await config()).body.policies[0]).toMatchObject({ rate: 8 });
    await a.call('DELETE', `/api/keys/${key}`);
    await b.call('DELETE', `/api/apis/oas/${oasId}`);
    const trimmed = (await config()).body;
    expect(trimmed.keys).toEqual([]);
    expect(trimmed.apis.map((x) => x.id)).toEqual([classicId]);
    // Certificates (with their private keys: the gateways serve them) follow uploads and deletions.
    const pair = selfSignedServingCertificate({ commonName: 'node cert', dnsNames: ['node.test'] });
    const certId = (await a.call('POST', '/api/certs', `${pair.certPem}${pair.keyPem}`, { 'content-type': 'text/plain' })).json<{ id: string }>().id;
    const withCert = (await config()).body;
    expect(withCert.version).not.toBe(trimmed.version);
    expect(withCert.certs.map((c) => [c.id, c.pem.includes('PRIVATE KEY')])).toEqual([[certId, true]]);
    expect((await config(`?org_id=${b.id}`)).body.certs).toEqual([]);
    await a.call('DELETE', `/api/certs/${certId}`);
    expect((await config()).body).toMatchObject({ certs: [], version: trimmed.version });
    // A write that changes nothing gateways load keeps the version.
    const before = (await config()).body.version;
    await dashboard.admin('PUT', `/admin/organisations/${a.id}`, { owner_name: 'A renamed' });
    await a.user({ apis: 'read' });
    expect((await config()).body.version).toBe(before);
  });

  it('loses nothing across a restart on the same database, and keeps the same version', async () => {
    const org = await createOrg(dashboard, 'Persistent');
    const reader = await org.user({ apis: 'read' });
    const api = (await org.call('POST', '/api/apis', { api_definition: classicApi('kept', '/kept'), user_owners: ['u1'] })).json<{ Meta: string }>().Meta;
    const oas = (await org.call('POST', '/api/apis/oas', oasApi('kept oas', '/kept-oas'))).json<{ Meta: string }>().Meta;
    const policy = (await org.call('POST', '/api/portal/policies', { name: 'kept policy', access_rights: { [api]: { api_id: api } } })).json<{
      Message: string;
    }>().Message;
    const key = (await org.call('POST', '/api/keys', { apply_policies: [policy], rate: 9, per: 1 })).json<{ key: string }>().key;
    const cert = (await org.call('POST', '/api/certs', readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'gw.test.crt'), 'utf8'))).json<{ id: string }>().id;
    await dashboard.admin('PUT', `/admin/organisations/${org.id}`, { operator_managed: true });
    const before = await config();

    await dashboard.restart();

    const after = await config();
    expect(after.body).toEqual(before.body);
    expect(after.etag).toBe(before.etag);
    expect((await dashboard.node('GET', '/system/node/config', undefined, { 'if-none-match': before.etag })).status).toBe(304);
    expect((await dashboard.admin('GET', `/admin/organisations/${org.id}`)).json()).toMatchObject({ owner_name: 'Persistent', operator_managed: true });
    expect((await org.call('GET', `/api/apis/${api}`)).json()).toMatchObject({ api_definition: { name: 'kept', api_id: api }, user_owners: ['u1'] });
    expect((await dashboard.as(reader)('GET', `/api/apis/oas/${oas}`)).status).toBe(200);
    expect((await org.call('GET', `/api/portal/policies/${policy}`)).json()).toMatchObject({ name: 'kept policy' });
    expect((await org.call('GET', `/api/keys/${key}`)).json()).toMatchObject({ data: { rate: 9, apply_policies: [policy] } });
    expect((await org.call('GET', `/api/certs/${cert}`)).status).toBe(200);
    expect((await org.call('POST', '/api/apis', classicApi('after restart', '/after'))).status).toBe(403);
  });

  it('keeps every answered write after the process is killed (SIGKILL)', async () => {
    const org = await createOrg(dashboard, 'Killed');
    const api = (await org.call('POST', '/api/apis', classicApi('survivor', '/survivor'))).json<{ Meta: string }>().Meta;
    const key = (await org.call('POST', '/api/keys', { access_rights: { [api]: { api_id: api } } })).json<{ key: string }>().key;
    await dashboard.stop('SIGKILL');
    await dashboard.restart();
    expect((await org.call('GET', `/api/apis/${api}`)).json()).toMatchObject({ api_definition: { name: 'survivor' } });
    expect((await org.call('GET', `/api/keys/${key}`)).status).toBe(200);
  });
});
