// Basic-auth keys written through the dashboard, every part real: a dashboard (embedded store) and a gateway in
// licensed mode fed by it. The dashboard stores the password of basic_auth_data only as a bcrypt hash (hash_type
// `bcrypt`, as Tyk Gateway stores it), re-hashes it on update only when it changed, never answers it back (a key read
// and written back, password blank, keeps it), and the gateway authenticates the user with that hash (right password
// 200, wrong 401).
import bcryptjs from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../../src/domain/key-hash.ts';
import { classicApi, createOrg, NODE_SECRET, startDashboard, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream } from '../../support/upstream.ts';
import { waitUntil } from '../../support/wait.ts';

interface NodeKey {
  storage_id: string;
  session: { basic_auth_data?: { password: string; hash_type?: string } };
}

const basic = (user: string, password: string): Record<string, string> => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});

describe('dashboard basic-auth keys: stored as bcrypt, checked by the gateway it feeds', () => {
  let dashboard: RunningDashboard;
  let org: TestOrg;
  let gw: RunningGateway;
  let apiId: string;

  /** The key as gateways receive it from the node API (stored by its SHA-256: the dashboard's hash_keys default). */
  const nodeKey = async (key: string): Promise<NodeKey> => {
    const answer = await dashboard.node('GET', `/system/node/config?org_id=${org.id}`);
    expect(answer.status, answer.text).toBe(200);
    const keys = answer.json<{ keys: NodeKey[] }>().keys;
    const found = keys.find((k) => k.storage_id === hashKey(key));
    if (!found) throw new Error(`key ${key} not served to gateways: ${keys.map((k) => k.storage_id).join(', ')}`);
    return found;
  };
  const keyBody = (password: string) => ({ access_rights: { [apiId]: { api_id: apiId, versions: [] } }, basic_auth_data: { password } });

  beforeAll(async () => {
    const upstream = await startUpstream();
    dashboard = await startDashboard();
    org = await createOrg(dashboard, 'Basic');
    const api = classicApi('basic', '/basic/', {
      use_keyless: false,
      use_basic_auth: true,
      proxy: { listen_path: '/basic/', target_url: upstream.url, strip_listen_path: true },
    });
    const created = await org.call('POST', '/api/apis', api);
    expect(created.status, created.text).toBe(200);
    apiId = created.json<{ Meta: string }>().Meta;
    gw = await startGateway({
      use_db_app_configs: true,
      policies: { policy_source: 'service' },
      db_app_conf_options: { connection_string: dashboard.url, node_secret: NODE_SECRET, poll_interval_seconds: 0.3 },
    });
  });
  afterAll(async () => {
    await dashboard?.stop();
  });

  it('stores only a bcrypt hash, answers the password blank, and the gateway admits the right password only', async () => {
    const key = `${org.id}alice`;
    const written = await org.call('POST', `/api/keys/${key}`, keyBody('alice-secret'));
    expect(written.status, written.text).toBe(200);

    const stored = (await nodeKey(key)).session.basic_auth_data!;
    expect(stored.hash_type).toBe('bcrypt');
    expect(stored.password).toMatch(/^\$2[aby]\$10\$/);
    expect(bcryptjs.compareSync('alice-secret', stored.password)).toBe(true);

    const read = await org.call('GET', `/api/keys/${key}`);
    expect(read.status, read.text).toBe(200);
    expect(read.json<{ data: NodeKey['session'] }>().data.basic_auth_data).toEqual({ password: '', hash_type: 'bcrypt' });
    expect(read.text).not.toContain('alice-secret');
    expect(read.text).not.toContain(stored.password);

    await waitUntil('the gateway to admit alice', async () => (await gw.call('/basic/get', { headers: basic('alice', 'alice-secret') })).status === 200);
    expect((await gw.call('/basic/get', { headers: basic('alice', 'not-her-secret') })).status).toBe(401);
  });

  it('re-hashes on update only when the password changed', async () => {
    const key = `${org.id}bob`;
    expect((await org.call('POST', `/api/keys/${key}`, keyBody('bob-first'))).status).toBe(200);
    const first = (await nodeKey(key)).session.basic_auth_data!.password;

    // The stored hash written back (as a key read from a gateway carries it) is kept, not hashed again.
    const same = await org.call('PUT', `/api/keys/${key}`, { ...keyBody(first), basic_auth_data: { password: first, hash_type: 'bcrypt' }, alias: 'bob' });
    expect(same.status, same.text).toBe(200);
    expect((await nodeKey(key)).session.basic_auth_data).toEqual({ password: first, hash_type: 'bcrypt' });

    const changed = await org.call('PUT', `/api/keys/${key}`, keyBody('bob-second'));
    expect(changed.status, changed.text).toBe(200);
    const second = (await nodeKey(key)).session.basic_auth_data!;
    expect(second.hash_type).toBe('bcrypt');
    expect(bcryptjs.compareSync('bob-second', second.password)).toBe(true);

    await waitUntil('the gateway to admit the new password', async () => (await gw.call('/basic/get', { headers: basic('bob', 'bob-second') })).status === 200);
    expect((await gw.call('/basic/get', { headers: basic('bob', 'bob-first') })).status).toBe(401);
  });

  it("keeps the password when a key is read (password blank) and written back, as the web UI's key page does", async () => {
    const key = `${org.id}carol`;
    expect((await org.call('POST', `/api/keys/${key}`, keyBody('carol-secret'))).status).toBe(200);
    const hash = (await nodeKey(key)).session.basic_auth_data!.password;
    const read = (await org.call('GET', `/api/keys/${key}`)).json<{ data: Record<string, unknown> }>().data;
    const written = await org.call('PUT', `/api/keys/${key}`, { ...read, alias: 'carol' });
    expect(written.status, written.text).toBe(200);
    expect((await nodeKey(key)).session.basic_auth_data).toEqual({ password: hash, hash_type: 'bcrypt' });
    await waitUntil('the gateway to admit carol', async () => (await gw.call('/basic/get', { headers: basic('carol', 'carol-secret') })).status === 200);
  });
});
