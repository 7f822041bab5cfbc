// Redis Cluster (storage.enable_cluster + storage.addrs): two gateway processes on a real cluster of 3 masters share
// limits exactly (the limit script's keys are hash-tagged into one slot: no CROSSSLOT), reset a key's counters, flush
// an API's cached answers spread over every master, and reload together over pub/sub.
import { Cluster } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { startRedisCluster, type RunningCluster } from '../../support/redis-topologies.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

const PREFIX = 'cl:';

describe('gateways on a Redis Cluster of 3 masters', () => {
  let a: RunningGateway;
  let b: RunningGateway;
  let cluster: RunningCluster;
  let upstream: Upstream;
  beforeAll(async () => {
    [cluster, upstream] = await Promise.all([startRedisCluster(), startUpstream()]);
    const config = { storage: { type: 'redis', enable_cluster: true, addrs: cluster.addrs, key_prefix: PREFIX }, group_id: 'edge' };
    [a, b] = await Promise.all([startGateway(config), startGateway(config)]);
  });

  it('reloads every gateway of the group when one is asked to (pub/sub on the cluster)', async () => {
    const cached = classicApi('cached', '/cached', upstream.url, {
      use_keyless: true,
      cache_options: { enable_cache: true, cache_timeout: 60, cache_all_safe_requests: true },
    });
    expect((await a.admin('POST', '/gw/apis', classicApi('shared', '/shared', upstream.url))).status).toBe(200);
    expect((await a.admin('POST', '/gw/apis', cached)).status).toBe(200);
    expect((await a.admin('GET', '/gw/reload/group')).status).toBe(200);
    await expect.poll(async () => (await b.call('/shared/x')).status, { timeout: 5000 }).toBe(401);
    await expect.poll(async () => (await a.call('/shared/x')).status, { timeout: 5000 }).toBe(401);
  });

  const key = async (session: Record<string, unknown>): Promise<string> =>
    (await a.admin('POST', '/gw/keys/create', { access_rights: { shared: { api_id: 'shared' } }, ...session })).json<{ key: string }>().key;

  it('shares a rate limit exactly: rate 10 per 60 s, 40 concurrent requests over both gateways, exactly 10 pass', async () => {
    const token = await key({ rate: 10, per: 60, quota_max: 100, quota_renewal_rate: 3600 });
    const statuses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? a : b).call('/shared/x', { headers: { authorization: token } }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    expect((await b.admin('GET', `/gw/keys/${token}`)).json()).toMatchObject({ quota_remaining: 90 });
  });

  it('counts a quota across both gateways, and a key update resets it on the cluster', async () => {
    const token = await key({ quota_max: 3, quota_renewal_rate: 3600 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await (i % 2 ? b : a).call('/shared/x', { headers: { authorization: token } })).status);
    expect(statuses).toEqual([200, 200, 200, 403]);
    const session = (await a.admin('GET', `/gw/keys/${token}`)).json<Record<string, unknown>>();
    expect((await b.admin('PUT', `/gw/keys/${token}`, session)).status).toBe(200);
    expect((await a.call('/shared/x', { headers: { authorization: token } })).status).toBe(200);
    expect((await a.admin('GET', `/gw/keys/${token}`)).json()).toMatchObject({ quota_remaining: 2 });
  });

  it("flushes an API's cached answers from every master", async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `item-${i}`);
    const fetch = (gateway: RunningGateway, id: string) => gateway.call(`/cached/${id}`);
    for (const id of ids) expect((await fetch(a, id)).status).toBe(200);
    const client = new Cluster(cluster.addrs.map((addr) => ({ host: '127.0.0.1', port: Number(addr.split(':')[1]) })));
    const cachedPerMaster = () => Promise.all(client.nodes('master').map(async (node) => (await node.keys(`${PREFIX}cache:cached:*`)).length));
    try {
      await new Promise((ready) => client.once('ready', ready));
      // Entries are stored just after the answer is sent.
      await expect.poll(async () => (await cachedPerMaster()).reduce((sum, n) => sum + n, 0), { timeout: 5000 }).toBe(ids.length);
      expect((await cachedPerMaster()).filter((n) => n > 0).length).toBeGreaterThan(1); // spread over several masters
      const before = upstream.requests.length;
      expect((await fetch(b, ids[0]!)).headers['x-gw-cached-response']).toBe('1');
      expect((await b.admin('DELETE', '/gw/cache/cached')).status).toBe(200);
      expect(await cachedPerMaster()).toEqual([0, 0, 0]);
      expect((await fetch(a, ids[1]!)).headers['x-gw-cached-response']).toBeUndefined();
      expect(upstream.requests.length).toBe(before + 1);
    } finally {
      client.disconnect();
    }
  });
});
