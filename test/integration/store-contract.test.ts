// One contract, two stores: the embedded store and the Redis store (a real redis-server, and a real Redis Cluster of
// 3 masters, where a script's keys must share a slot) must decide every limit the same way — the Lua script in
// redis.ts re-implements limits.ts, and this is what keeps them equal.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedStore } from '../../src/gateway/store/embedded.ts';
import { RedisStore } from '../../src/gateway/store/redis.ts';
import type { Store } from '../../src/gateway/store/store.ts';
import { redisStorage, startRedis } from '../support/redis.ts';
import { startRedisCluster } from '../support/redis-topologies.ts';
import { waitUntil } from '../support/wait.ts';

const backends: [string, () => Promise<{ store: Store; done: () => Promise<void> }>][] = [
  [
    'embedded',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gw-contract-'));
      const store = EmbeddedStore.open(dir);
      return {
        store,
        done: async () => {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
  [
    'redis',
    async () => {
      const redis = await startRedis();
      const store = await RedisStore.connect(redisStorage({ port: redis.port, key_prefix: 'contract:' }));
      return {
        store,
        done: async () => {
          await store.close();
          await redis.stop();
        },
      };
    },
  ],
  [
    'redis cluster',
    async () => {
      const cluster = await startRedisCluster();
      const store = await RedisStore.connect(redisStorage({ addrs: cluster.addrs, enable_cluster: true, key_prefix: 'contract:' }));
      return { store, done: () => store.close() };
    },
  ],
];

describe.each(backends)('%s store', (_name, open) => {
  let store: Store;
  let done: () => Promise<void>;
  let n = 0;
  const fresh = () => `k${n++}`;
  beforeAll(async () => ({ store, done } = await open()));
  afterAll(() => done());

  it('rate: accepts `rate` per window, reports remaining and retry-after, and never counts a rejection', async () => {
    const rate = { key: fresh(), rate: 2, perMs: 1000 };
    expect(await store.checkLimits({ rate }, 0)).toEqual({ outcome: 'allowed', rate: { remaining: 1, retryAfterMs: 0 } });
    expect(await store.checkLimits({ rate }, 100)).toEqual({ outcome: 'allowed', rate: { remaining: 0, retryAfterMs: 0 } });
    expect(await store.checkLimits({ rate }, 500)).toEqual({ outcome: 'rate_limited', rate: { remaining: 0, retryAfterMs: 500 } });
    for (let t = 600; t < 1000; t += 100) expect((await store.checkLimits({ rate }, t)).outcome).toBe('rate_limited');
    expect((await store.checkLimits({ rate }, 1000)).outcome).toBe('allowed');
  });

  it('quota: exactly max per period, rejections uncounted, a new period at the first request after it ends', async () => {
    const quota = { key: fresh(), max: 2, renewalMs: 10_000 };
    expect(await store.checkLimits({ quota }, 1000)).toEqual({ outcome: 'allowed', quota: { used: 1, remaining: 1, renewsAt: 11_000 } });
    expect((await store.checkLimits({ quota }, 2000)).outcome).toBe('allowed');
    expect(await store.checkLimits({ quota }, 3000)).toEqual({ outcome: 'quota_exceeded', quota: { used: 2, remaining: 0, renewsAt: 11_000 } });
    expect(await store.peekQuota(quota, 4000)).toEqual({ used: 2, remaining: 0, renewsAt: 11_000 });
    expect(await store.checkLimits({ quota }, 20_000)).toEqual({ outcome: 'allowed', quota: { used: 1, remaining: 1, renewsAt: 30_000 } });
  });

  it('decides rate and quota together: a request one of them refuses consumes neither', async () => {
    const key = fresh();
    const rate = { key, rate: 5, perMs: 60_000 };
    const quota = { key, max: 1, renewalMs: 60_000 };
    expect((await store.checkLimits({ rate, quota }, 0)).outcome).toBe('allowed');
    expect((await store.checkLimits({ rate, quota }, 1)).outcome).toBe('quota_exceeded');
    expect(await store.checkLimits({ rate }, 2)).toMatchObject({ outcome: 'allowed', rate: { remaining: 3 } });
  });

  it('dry runs consume nothing', async () => {
    const key = fresh();
    const check = { rate: { key, rate: 1, perMs: 1000 }, quota: { key, max: 1, renewalMs: 1000 }, dryRun: true };
    expect((await store.checkLimits(check, 0)).outcome).toBe('allowed');
    expect((await store.checkLimits({ ...check, dryRun: false }, 1)).outcome).toBe('allowed');
    expect((await store.checkLimits(check, 2)).outcome).toBe('rate_limited');
  });

  it('resets the counters of a key and of its scopes, and only those', async () => {
    const owner = fresh();
    const quotas = [owner, `${owner}|api`, `${owner}0`].map((key) => ({ key, max: 1, renewalMs: 0 }));
    for (const quota of quotas) await store.checkLimits({ quota }, 0);
    await store.resetCounters(owner);
    expect((await store.peekQuota(quotas[0]!, 1)).used).toBe(0);
    expect((await store.peekQuota(quotas[1]!, 1)).used).toBe(0);
    expect((await store.peekQuota(quotas[2]!, 1)).used).toBe(1);
  });

  it('writes a key with its counter reset as one step, and leaves both alone when the key cannot be written', async () => {
    const owner = fresh();
    const quotas = [owner, `${owner}|api`, `${owner}0`].map((key) => ({ key, max: 5, renewalMs: 0 }));
    for (const quota of quotas) await store.checkLimits({ quota }, 0);
    await expect(store.putKey(owner, { rate: 2, meta_data: { n: 1n } }, { resetCounters: true })).rejects.toThrow(TypeError);
    expect((await store.peekQuota(quotas[0]!, 1)).used).toBe(1);
    await store.putKey(owner, { rate: 2 }, { resetCounters: true });
    expect(await store.getKey(owner)).toEqual({ rate: 2 });
    expect([(await store.peekQuota(quotas[0]!, 1)).used, (await store.peekQuota(quotas[1]!, 1)).used, (await store.peekQuota(quotas[2]!, 1)).used]).toEqual([
      0, 0, 1,
    ]);
  });

  it('keeps APIs, policies, certificates and keys', async () => {
    await store.putApi({ id: 'a', format: 'classic', definition: { name: 'a' } });
    await store.putPolicy({ id: 'p', name: 'p' });
    await store.putCert({ id: 'c', pem: 'pem' });
    await store.putKey('k', { rate: 1 });
    expect(await store.getApi('a')).toEqual({ id: 'a', format: 'classic', definition: { name: 'a' } });
    expect((await store.listPolicies()).map((p) => p.id)).toContain('p');
    expect(await store.getCert('c')).toEqual({ id: 'c', pem: 'pem' });
    expect(await store.listKeys()).toContain('k');
    expect(await store.deleteKey('k')).toBe(true);
    expect(await store.deleteKey('k')).toBe(false);
    expect(await store.deleteApi('missing')).toBe(false);
  });

  it('keeps a cached answer, byte for byte, until its TTL has passed', async () => {
    const entry = Buffer.from([0, 1, 2, 255, 0x7b]);
    await store.putCachedResponse('api', 'abc', entry, 2000, Date.now());
    expect(await store.getCachedResponse('api', 'abc', Date.now())).toEqual(entry);
    expect(await store.getCachedResponse('api', 'other', Date.now())).toBeUndefined();
    expect(await store.getCachedResponse('other-api', 'abc', Date.now())).toBeUndefined();
    await waitUntil('the entry to expire', async () => (await store.getCachedResponse('api', 'abc', Date.now())) === undefined);
  });

  it('forgets the cached answers of one API, and only those', async () => {
    for (const key of ['a', 'b']) await store.putCachedResponse('f*', key, Buffer.from(key), 60_000, Date.now());
    await store.putCachedResponse('fx-other', 'a', Buffer.from('kept'), 60_000, Date.now());
    await store.deleteCachedResponses('f*');
    expect(await store.getCachedResponse('f*', 'a', Date.now())).toBeUndefined();
    expect(await store.getCachedResponse('f*', 'b', Date.now())).toBeUndefined();
    expect((await store.getCachedResponse('fx-other', 'a', Date.now()))?.toString()).toBe('kept');
  });
});
