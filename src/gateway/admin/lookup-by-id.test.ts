// The management API's per-id reads and writes of APIs and policies look up that one id and never list the whole
// store: with 10 000 stored APIs, listing them on every write made a burst of writes quadratic (12 ms per write
// at the end, most of it copying the list between the gateway's threads). The admin app here runs on a real
// embedded store; definitions() (the full listing) fails, so any route that still lists answers 500.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { GatewayConfigSchema } from '../config.ts';
import { findApi, findPolicy } from '../loader.ts';
import { EmbeddedStore } from '../store/embedded.ts';
import { createAdminApp } from './app.ts';
import type { AdminDeps } from './deps.ts';

const dir = mkdtempSync(join(tmpdir(), 'gw-lookup-by-id-'));
const store = EmbeddedStore.open(join(dir, 'store'));
const config = GatewayConfigSchema.parse({ secret: 'lookup-secret', app_path: join(dir, 'apps'), policies: { policy_path: join(dir, 'none.json') } });
let listings = 0;
const deps = {
  config,
  store,
  log: pino({ level: 'silent' }),
  definitions: () => {
    listings++;
    return Promise.reject(new Error('the whole store was listed for a per-id request'));
  },
  findApi: (id: string) => findApi(store, config, undefined, id),
  findPolicy: (id: string) => findPolicy(store, config, undefined, id),
} as unknown as AdminDeps;
const app = createAdminApp(deps);
afterAll(async () => {
  await app.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object): Promise<{ status: number; body: Record<string, unknown> }> {
  const reply = await app.inject({ method, url, payload, headers: { 'x-gw-authorization': 'lookup-secret' } });
  return { status: reply.statusCode, body: reply.json() };
}

const api = (name: string): object => ({
  api_id: 'one',
  name,
  org_id: 'o',
  proxy: { listen_path: '/one/', target_url: 'http://127.0.0.1:9' },
  use_keyless: true,
});

describe('per-id management requests', () => {
  it('create, update, read and delete an API by id without listing the store', async () => {
    expect((await call('POST', '/gw/apis', api('first'))).body).toMatchObject({ key: 'one', action: 'added' });
    expect((await call('PUT', '/gw/apis/one', api('second'))).body).toMatchObject({ key: 'one', action: 'modified' });
    expect((await call('GET', '/gw/apis/one')).body).toMatchObject({ api_id: 'one', name: 'second' });
    expect((await call('DELETE', '/gw/apis/one')).body).toMatchObject({ key: 'one', action: 'deleted' });
    expect((await call('GET', '/gw/apis/one')).status).toBe(404);
    expect(listings).toBe(0);
  });

  it('create, update, read and delete a policy by id without listing the store', async () => {
    const policy = { name: 'p', rate: 10, per: 60, access_rights: {} };
    expect((await call('POST', '/gw/policies/pol', policy)).status).toBe(200);
    expect((await call('PUT', '/gw/policies/pol', { ...policy, rate: 20 })).body).toMatchObject({ key: 'pol', action: 'modified' });
    expect((await call('GET', '/gw/policies/pol')).body).toMatchObject({ id: 'pol', rate: 20 });
    expect((await call('DELETE', '/gw/policies/pol')).body).toMatchObject({ key: 'pol', action: 'deleted' });
    expect((await call('PUT', '/gw/policies/pol', policy)).status).toBe(404);
    expect(listings).toBe(0);
  });
});
