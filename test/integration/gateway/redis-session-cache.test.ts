// Revoked keys do not outlive a lost key-change notification: two real gateway processes on one real redis-server,
// B's pub/sub connection killed (CLIENT KILL TYPE pubsub) in the same transaction that deletes a key B has cached
// and publishes the deletion, exactly as A's DELETE /gw/keys does - so the notification is certainly lost. B must
// refuse the key once its subscriber is back, long before its session cache TTL (an hour here) would.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addKey, classicApi, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { startRedis, type RunningRedis } from '../../support/redis.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';
import { hashKey } from '../../../src/domain/key-hash.ts';

const PREFIX = 'revoke:';

describe('session cache after the key-change subscriber reconnects', () => {
  let a: RunningGateway;
  let b: RunningGateway;
  let redis: RunningRedis;
  let upstream: Upstream;
  let client: Redis;
  beforeAll(async () => {
    redis = await startRedis();
    upstream = await startUpstream();
    const config = {
      storage: { type: 'redis', host: '127.0.0.1', port: redis.port, key_prefix: PREFIX },
      local_session_cache: { cached_session_timeout: 3600 },
    };
    [a, b] = await Promise.all([startGateway(config), startGateway(config)]);
    expect((await a.admin('POST', '/gw/apis', classicApi('shared', '/shared', upstream.url))).status).toBe(200);
    await Promise.all([a.reload(), b.reload()]);
    client = new Redis({ port: redis.port, host: '127.0.0.1', lazyConnect: true });
    await client.connect();
  });
  afterAll(() => client.disconnect());

  it('B refuses a key deleted while its subscriber was disconnected', async () => {
    const key = await addKey(a, ['shared']);
    expect((await b.call('/shared/x', { headers: { authorization: key } })).status).toBe(200); // cached in B
    const storageId = hashKey(key);
    const results = await client
      .multi()
      .call('CLIENT', 'KILL', 'TYPE', 'pubsub')
      .hdel(`${PREFIX}keys`, storageId)
      .publish(`${PREFIX}keys-changed`, storageId)
      .exec();
    expect(results?.map(([error]) => error)).toEqual([null, null, null]);
    expect(results?.[1]?.[1]).toBe(1); // the key was there and is gone
    expect((await a.call('/shared/x', { headers: { authorization: key } })).status).toBe(403);
    await expect.poll(async () => (await b.call('/shared/x', { headers: { authorization: key } })).status, { timeout: 10_000 }).toBe(403);
  });
});
