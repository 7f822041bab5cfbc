// Rate limits and quotas of one gateway running 4 worker threads (`workers`) stay exact: 200 clients at once, on
// as many connections spread by the kernel over the workers, and exactly the limit passes, on the embedded store
// (the workers decide on counters they share: store/shared-counters.ts) and on Redis (every worker runs the same
// Lua script); what the workers counted survives a restart.
import { beforeAll, describe, expect, it } from 'vitest';
import { addApi, addKey, classicApi, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startRedis } from '../../support/redis.ts';
import { startUpstream } from '../../support/upstream.ts';
import { waitUntil } from '../../support/wait.ts';

const WORKERS = { GW_GATEWAY_WORKERS: '4' };
const CLIENTS = 200;

/** CLIENTS requests at once with this key; the statuses, counted. */
async function burst(gateway: RunningGateway, key: string): Promise<Record<number, number>> {
  const statuses = await Promise.all(
    Array.from({ length: CLIENTS }, () => gateway.call('/limited/x', { headers: { authorization: key } }).then((r) => r.status)),
  );
  const counted: Record<number, number> = {};
  for (const status of statuses) counted[status] = (counted[status] ?? 0) + 1;
  return counted;
}

describe.each([
  ['the embedded store', async (): Promise<Record<string, unknown>> => ({})],
  [
    'Redis',
    async (): Promise<Record<string, unknown>> => ({ storage: { type: 'redis', host: '127.0.0.1', port: (await startRedis()).port, key_prefix: 'workers:' } }),
  ],
])('4 workers on %s', (_store, storage) => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    const upstream = await startUpstream();
    gateway = await startGateway(await storage(), { env: WORKERS });
    // The reload answers once every worker serves the API (a reload round waits for every worker to listen).
    await addApi(gateway, classicApi('limited', '/limited', upstream.url));
    await waitUntil('the gateway to say it runs 4 workers', () => gateway.output().includes('"workers":4'));
  });

  it('rate 10 per 10 s under 200 concurrent clients: exactly 10 accepted', async () => {
    const key = await addKey(gateway, ['limited'], { rate: 10, per: 10 });
    expect(await burst(gateway, key)).toEqual({ 200: 10, 429: CLIENTS - 10 });
  });

  it('quota 10 per hour under 200 concurrent clients: exactly 10 accepted, and the key reports none left', async () => {
    const key = await addKey(gateway, ['limited'], { quota_max: 10, quota_renewal_rate: 3600 });
    expect(await burst(gateway, key)).toEqual({ 200: 10, 403: CLIENTS - 10 });
    expect((await gateway.admin('GET', `/gw/keys/${key}`)).json()).toMatchObject({ quota_remaining: 0 });
  });

  it('a quota counted by the workers survives a restart of the gateway', async () => {
    const key = await addKey(gateway, ['limited'], { quota_max: 10, quota_renewal_rate: 3600 });
    for (let i = 0; i < 6; i++) expect((await gateway.call('/limited/x', { headers: { authorization: key } })).status).toBe(200);
    await gateway.restart();
    expect((await gateway.admin('GET', `/gw/keys/${key}`)).json()).toMatchObject({ quota_remaining: 4 });
    expect(await burst(gateway, key)).toEqual({ 200: 4, 403: CLIENTS - 4 });
  });
});
