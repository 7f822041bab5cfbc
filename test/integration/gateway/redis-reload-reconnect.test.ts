// A group reload published while a gateway's pub/sub connection is down is not lost for good: two real gateway
// processes on one real redis-server, their subscribers killed (CLIENT KILL TYPE pubsub) in the same transaction
// that publishes `reload:<group>`, so the message is certainly lost. Once its subscriber is back, each gateway
// reloads once by itself and serves the API stored before the publish.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicApi, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { startRedis, type RunningRedis } from '../../support/redis.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

const PREFIX = 'reconnect:';
const GROUP = 'edge';

describe('group reload after the pub/sub subscriber reconnects', () => {
  let a: RunningGateway;
  let b: RunningGateway;
  let redis: RunningRedis;
  let upstream: Upstream;
  let client: Redis;
  beforeAll(async () => {
    redis = await startRedis();
    upstream = await startUpstream();
    const config = { group_id: GROUP, storage: { type: 'redis', host: '127.0.0.1', port: redis.port, key_prefix: PREFIX } };
    [a, b] = await Promise.all([startGateway(config), startGateway(config)]);
    client = new Redis({ port: redis.port, host: '127.0.0.1', lazyConnect: true });
    await client.connect();
  });
  afterAll(() => client.disconnect());

  it('B serves an API whose reload request was published while its subscriber was disconnected', async () => {
    expect((await a.admin('POST', '/gw/apis', classicApi('later', '/later', upstream.url, { use_keyless: true }))).status).toBe(200);
    expect((await b.call('/later/x')).status).toBe(404); // stored, not loaded: only a reload serves it
    const results = await client.multi().call('CLIENT', 'KILL', 'TYPE', 'pubsub').publish(`${PREFIX}reload:${GROUP}`, 'reload').exec();
    expect(results?.map(([error]) => error)).toEqual([null, null]);
    expect(results?.[0]?.[1]).toBeGreaterThanOrEqual(2); // both gateways' subscribers were killed before the publish
    await expect.poll(async () => (await b.call('/later/x')).status, { timeout: 10_000 }).toBe(200);
    await expect.poll(async () => (await a.call('/later/x')).status, { timeout: 10_000 }).toBe(200);
  });
});
