// Redis mode: several gateway processes on one real Redis (Debian's redis-server) share APIs, keys, quotas and
// rate limits exactly, and reload together on /gw/reload/group.
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, http, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startRedis } from '../../support/redis.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

describe('Redis store: two gateways, one group', () => {
  let a: RunningGateway;
  let b: RunningGateway;
  let upstream: Upstream;
  beforeAll(async () => {
    const redis = await startRedis();
    upstream = await startUpstream();
    const config = { storage: { type: 'redis', host: '127.0.0.1', port: redis.port, key_prefix: 'gwtest:' }, group_id: 'edge' };
    [a, b] = await Promise.all([startGateway(config), startGateway(config)]);
  });

  it('reloads every gateway of the group when one is asked to', async () => {
    expect((await a.admin('POST', '/gw/apis', classicApi('shared', '/shared', upstream.url))).status).toBe(200);
    expect((await a.admin('GET', '/gw/reload/group')).text).toBe('{"status":"ok","message":""}\n');
    await expect.poll(async () => (await b.call('/shared/x')).status, { timeout: 5000 }).toBe(401);
    // Without ?block=true the group reload is asynchronous on every gateway, this one included.
    await expect.poll(async () => (await a.call('/shared/x')).status, { timeout: 5000 }).toBe(401);
  });

  it('shares keys: created on one gateway, accepted by the other; deleted on one, refused by both at once', async () => {
    const key = (await a.admin('POST', '/gw/keys/create', { access_rights: { shared: { api_id: 'shared' } } })).json<{ key: string }>().key;
    expect((await b.call('/shared/x', { headers: { authorization: key } })).status).toBe(200);
    expect((await a.call('/shared/x', { headers: { authorization: key } })).status).toBe(200);
    expect((await b.admin('DELETE', `/gw/keys/${key}`)).status).toBe(200);
    await expect.poll(async () => (await a.call('/shared/x', { headers: { authorization: key } })).status, { timeout: 2000 }).toBe(403);
  });

  it('shares a rate limit exactly: rate 10 per 10 s, 40 concurrent requests over both gateways, exactly 10 pass', async () => {
    const key = (await a.admin('POST', '/gw/keys/create', { access_rights: { shared: { api_id: 'shared' } }, rate: 10, per: 10 })).json<{ key: string }>().key;
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? a : b).call('/shared/x', { headers: { authorization: key } }).then((r) => r.status)),
    );
    expect(results.filter((s) => s === 200)).toHaveLength(10);
    expect(results.filter((s) => s === 429)).toHaveLength(30);
  });

  it('shares a quota: exactly quota_max requests pass across both gateways', async () => {
    const key = (await a.admin('POST', '/gw/keys/create', { access_rights: { shared: { api_id: 'shared' } }, quota_max: 5, quota_renewal_rate: 3600 })).json<{
      key: string;
    }>().key;
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await (i % 2 ? b : a).call('/shared/x', { headers: { authorization: key } })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 403, 403]);
    expect((await b.admin('GET', `/gw/keys/${key}`)).json()).toMatchObject({ quota_remaining: 0 });
  });

  it('reports the store in its health check', async () => {
    expect((await http(`${a.controlUrl}/hello`)).json()).toMatchObject({ status: 'pass', details: { store: { type: 'redis', status: 'pass' } } });
  });
});
