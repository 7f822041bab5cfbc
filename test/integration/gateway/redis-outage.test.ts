// A Redis outage is the store being unavailable, not a failure of the gateway: a real gateway process on a real
// redis-server that is stopped and started again answers 503 (with Retry-After, the README's `unavailable`) to
// proxied requests and management calls while Redis is down, never 500, and serves again once it is back.
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey, classicApi, errorBody, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { startRedis, type RunningRedis } from '../../support/redis.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

describe('Redis down: 503, not 500', () => {
  let gw: RunningGateway;
  let redis: RunningRedis;
  let upstream: Upstream;
  let key: string;
  beforeAll(async () => {
    redis = await startRedis();
    upstream = await startUpstream();
    gw = await startGateway({ storage: { type: 'redis', host: '127.0.0.1', port: redis.port, key_prefix: 'outage:' } });
    expect((await gw.admin('POST', '/gw/apis', classicApi('limited', '/limited', upstream.url))).status).toBe(200);
    await gw.reload();
    // A rate limit: every request asks Redis, even with the key in the session cache.
    key = await addKey(gw, ['limited'], { rate: 1000, per: 1 });
    expect((await gw.call('/limited/x', { headers: { authorization: key } })).status).toBe(200);
  });

  it('answers 503 with Retry-After while Redis is stopped, and 200 again once it is back', async () => {
    await redis.halt();
    const before = upstream.requests.length;
    const cachedKey = await gw.call('/limited/x', { headers: { authorization: key } });
    expect({ status: cachedKey.status, text: cachedKey.text, retryAfter: cachedKey.headers['retry-after'] }).toEqual({
      status: 503,
      text: errorBody("The gateway's store is unavailable, please retry"),
      retryAfter: '1',
    });
    const unknownKey = await gw.call('/limited/x', { headers: { authorization: 'a-key-the-gateway-has-never-read' } });
    expect(unknownKey.status).toBe(503);
    expect((await gw.admin('GET', '/gw/apis')).status).toBe(503);
    expect(upstream.requests.length).toBe(before);
    expect(gw.output()).not.toContain('request pipeline failed');

    await redis.resume();
    // The restarted Redis is empty (no persistence): the key is written again, as an operator would re-sync it.
    await expect.poll(async () => (await gw.admin('GET', '/gw/apis')).status, { timeout: 10_000 }).toBe(200);
    expect((await gw.admin('POST', '/gw/apis', classicApi('limited', '/limited', upstream.url))).status).toBe(200);
    await gw.reload();
    const again = await addKey(gw, ['limited'], { rate: 1000, per: 1 });
    expect((await gw.call('/limited/x', { headers: { authorization: again } })).status).toBe(200);
  });
});
