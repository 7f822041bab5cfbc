// The gateway's load report on its management API, as a writer (the operator) reads it: GET /gw/reload/group?block=true
// answers once this gateway's own reload serves — alone (embedded store) and in a Redis group, where the other
// gateway reloads by itself — and GET /gw/load-problems then names each API the load refused, with a CamelCase
// reason and, for a duplicate listen path, the API that keeps it.
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, startGateway } from '../../support/gateway.ts';
import { startRedis } from '../../support/redis.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

describe('load problems on the management API', () => {
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream();
  });

  it('answers a blocking group reload once this gateway serves, then reports the refused API', async () => {
    const gw = await startGateway();
    expect((await gw.admin('GET', '/gw/load-problems')).json()).toMatchObject({ problems: [] });
    expect((await gw.admin('POST', '/gw/apis', classicApi('kept', '/same', upstream.url, { use_keyless: true }))).status).toBe(200);
    expect((await gw.admin('POST', '/gw/apis', classicApi('refused', '/same', upstream.url, { use_keyless: true }))).status).toBe(200);

    expect((await gw.admin('GET', '/gw/reload/group?block=true')).text).toBe('{"status":"ok","message":""}\n');
    expect((await gw.call('/same/get')).status).toBe(200); // served at once: the answer came after the reload
    const report = (await gw.admin('GET', '/gw/load-problems')).json<{ apis: number; problems: unknown[] }>();
    expect(report.apis).toBe(1);
    expect(report.problems).toEqual([
      { source: 'routing', id: 'refused', reason: 'ListenPathConflict', conflicts_with: 'kept', message: 'listen path /same is already served by api kept' },
    ]);
    expect((await gw.admin('GET', '/gw/load-problems', undefined, { 'x-gw-authorization': 'wrong' })).status).toBe(403);
  });

  it('in a Redis group: the asked gateway serves when it answers, the other reloads by itself', async () => {
    const redis = await startRedis();
    const config = { storage: { type: 'redis', host: '127.0.0.1', port: redis.port, key_prefix: 'gwprob:' }, group_id: 'edge' };
    const [a, b] = await Promise.all([startGateway(config), startGateway(config)]);
    expect((await a.admin('POST', '/gw/apis', classicApi('grouped', '/grouped', upstream.url, { use_keyless: true }))).status).toBe(200);
    expect((await a.admin('GET', '/gw/reload/group?block=true')).status).toBe(200);
    expect((await a.call('/grouped/get')).status).toBe(200);
    await expect.poll(async () => (await b.call('/grouped/get')).status, { timeout: 5000 }).toBe(200);
  });
});
