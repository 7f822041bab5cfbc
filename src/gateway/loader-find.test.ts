// findApi and findPolicy answer for one id what collectDefinitions would (the store winning over a file, a file
// answering when the store has no such id) without listing the store.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Policy } from '../domain/policy.ts';
import { GatewayConfigSchema } from './config.ts';
import { collectDefinitions, findApi, findPolicy } from './loader.ts';
import { EmbeddedStore } from './store/embedded.ts';

const dir = mkdtempSync(join(tmpdir(), 'gw-loader-find-'));
mkdirSync(join(dir, 'apps'));
const fileApi = (id: string, name: string): Record<string, unknown> => ({
  api_id: id,
  name,
  proxy: { listen_path: `/${id}/`, target_url: 'http://127.0.0.1:9' },
});
writeFileSync(join(dir, 'apps', 'a.json'), JSON.stringify(fileApi('shared', 'from file')));
writeFileSync(join(dir, 'apps', 'b.json'), JSON.stringify(fileApi('file-only', 'from file')));
writeFileSync(
  join(dir, 'policies.json'),
  JSON.stringify({ shared: { name: 'from file', rate: 1, per: 1 }, 'file-only': { name: 'from file', rate: 1, per: 1 } }),
);
const config = GatewayConfigSchema.parse({ secret: 's', app_path: join(dir, 'apps'), policies: { policy_path: join(dir, 'policies.json') } });
const store = EmbeddedStore.open(join(dir, 'store'));
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('findApi and findPolicy', () => {
  it('answer what collectDefinitions answers for each id, without listing the store', async () => {
    await store.putApi({ id: 'shared', format: 'classic', definition: fileApi('shared', 'stored') });
    await store.putPolicy({ ...Policy.parse({ name: 'stored', rate: 2, per: 1 }), id: 'shared' });
    const all = await collectDefinitions(store, config);
    const unlisted = new Proxy(store, {
      get: (target, name) =>
        name === 'listApis' || name === 'listPolicies'
          ? () => Promise.reject(new Error('listed'))
          : (target[name as keyof EmbeddedStore] as () => unknown).bind(target),
    });
    for (const id of ['shared', 'file-only', 'absent']) {
      expect(await findApi(unlisted, config, undefined, id)).toEqual(all.apis.get(id));
      expect(await findPolicy(unlisted, config, undefined, id)).toEqual(all.policies.get(id));
    }
    expect((await findApi(unlisted, config, undefined, 'shared'))?.source).toBe('store');
    expect((await findPolicy(unlisted, config, undefined, 'file-only'))?.source).toBe(join(dir, 'policies.json'));
  });
});
