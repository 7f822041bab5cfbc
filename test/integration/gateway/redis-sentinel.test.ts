// Redis Sentinel (storage.addrs lists the sentinels, storage.master_name their master, storage.sentinel_password
// their password): a gateway finds the master through a real sentinel set (a master, a replica, 3 sentinels) and
// keeps limits exact across a failover during traffic: one forced (SENTINEL FAILOVER), one after the master stops
// answering with its connections left open (SIGSTOP, as across a network partition: only the sentinels'
// +switch-master tells the gateway to move).
//
// What holds: a request is accepted only once its count is on the master; the servers run with min-replicas-to-write
// 1, so a master that lost its replica (being demoted) refuses writes (503) instead of acknowledging counts the
// failover discards; a request refused with READONLY by a demoted master is sent again to the new master. What Redis
// does not promise: replication is asynchronous, so a count acknowledged just before the master dies may be missing
// on the promoted replica (then one more request per lost count is accepted); on loopback the replica is in sync.
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey, classicApi, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { redisCli, startRedisSentinels, type RunningSentinels } from '../../support/redis-topologies.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';
import { waitUntil } from '../../support/wait.ts';

describe('a gateway on Redis Sentinel', () => {
  let gateway: RunningGateway;
  let sentinels: RunningSentinels;
  let upstream: Upstream;
  beforeAll(async () => {
    [sentinels, upstream] = await Promise.all([startRedisSentinels(), startUpstream()]);
    gateway = await startGateway({
      storage: { type: 'redis', addrs: sentinels.addrs, master_name: sentinels.masterName, sentinel_password: sentinels.sentinelPassword, key_prefix: 'snt:' },
    });
    expect((await gateway.admin('POST', '/gw/apis', classicApi('api', '/api', upstream.url))).status).toBe(200);
    await gateway.reload();
  });

  /**
   * Sends requests one after another, calling `during` once after `startAfter` accepted ones, until `done` holds and
   * the last 5 answers are `refusal` (the limit is reached on the master the gateway now uses); the statuses in order.
   */
  async function traffic(token: string, refusal: number, startAfter: number, during: () => Promise<void>, done: () => Promise<boolean>): Promise<number[]> {
    const statuses: number[] = [];
    let started: Promise<void> | undefined;
    let settled = false;
    const deadline = Date.now() + 40_000;
    while (!settled || statuses.slice(-5).join() !== Array(5).fill(refusal).join()) {
      if (Date.now() > deadline) throw new Error(`traffic did not settle: ${statuses.join(',')}`);
      statuses.push((await gateway.call('/api/x', { headers: { authorization: token } })).status);
      if (!started && statuses.filter((s) => s === 200).length === startAfter) started = during();
      if (started && !settled) settled = await done();
    }
    await started;
    return statuses;
  }

  it('keeps a rate limit exact across SENTINEL FAILOVER during traffic: rate 10 per 5 min, exactly 10 accepted', async () => {
    const [first, second] = sentinels.serverPorts;
    expect(await sentinels.masterPort()).toBe(first);
    const token = await addKey(gateway, ['api'], { rate: 10, per: 300 });
    // Settled once the sentinels name the new master and the old one replicates from it: before that the new master,
    // without a replica, refuses writes (min-replicas-to-write 1; 503).
    const switched = async (): Promise<boolean> =>
      (await sentinels.masterPort()) === second && (await redisCli(first, ['info', 'replication'])).includes('master_link_status:up');
    const statuses = await traffic(token, 429, 5, () => sentinels.failover(), switched);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s !== 200 && s !== 429 && s !== 503)).toEqual([]);
  });

  it('keeps a quota exact when the master stops answering during traffic: quota 10, exactly 10 accepted', async () => {
    const master = await sentinels.masterPort();
    const [replica] = sentinels.serverPorts.filter((port) => port !== master);
    const token = await addKey(gateway, ['api'], { quota_max: 10, quota_renewal_rate: 3600 });
    // With no replica left the new master would refuse every write (min-replicas-to-write 1): here it may write alone.
    await redisCli(replica!, ['config', 'set', 'min-replicas-to-write', '0']);
    const statuses = await traffic(
      token,
      403,
      4,
      async () => sentinels.freezeServer(master),
      async () => (await sentinels.masterPort()) === replica,
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s !== 200 && s !== 403 && s !== 503)).toEqual([]);
    await waitUntil('the gateway to report the quota from the new master', async () => (await gateway.admin('GET', `/gw/keys/${token}`)).status === 200);
    expect((await gateway.admin('GET', `/gw/keys/${token}`)).json()).toMatchObject({ quota_remaining: 0 });
  });
});
