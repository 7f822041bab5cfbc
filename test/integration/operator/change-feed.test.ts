// Drift in seconds (issue 10, item 15): the operator watches the gateway's change feed, so an API deleted by hand
// is restored without waiting for the periodic scan (set to 10 minutes here, so only the feed can explain a
// quick restore). The restore time is measured and printed, not asserted.
import { beforeAll, describe, expect, it } from 'vitest';
import { idFor } from '../../../src/operator/sync/ids.ts';
import { installCrds } from '../../support/crds.ts';
import { startGateway } from '../../support/gateway.ts';
import { useNamespace } from '../../support/kubectl.ts';
import { startManagementProxy } from '../../support/management-proxy.ts';
import { startOperator } from '../../support/operator.ts';
import { apply, manifest, synced, waitFor } from '../../support/resources.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

describe('drift through the change feed', () => {
  let upstream: Upstream;
  beforeAll(async () => {
    await installCrds();
    upstream = await startUpstream();
  });

  const pets = () =>
    manifest('ApiDefinition', 'pets', {
      name: 'pets',
      use_keyless: true,
      active: true,
      proxy: { listen_path: '/pets', target_url: upstream.url, strip_listen_path: true },
    });
  const ns = useNamespace('feed');
  it('restores an API deleted by hand on the gateway long before the periodic scan would', async () => {
    const gw = await startGateway();
    const op = await startOperator({ gateway: gw, namespace: ns.name, env: { GW_DRIFT_PERIOD: '600' } });
    await apply(ns.name, pets());
    await waitFor('apidefinition', ns.name, 'pets', synced);
    const id = idFor(ns.name, 'pets');

    // The feed itself: a hand DELETE moves the version a waiting poll sees.
    const before = (await gw.admin('GET', '/gw/changes?since=0&timeout=0')).json<{ version: number; epoch: string }>();
    const deletedAt = Date.now();
    expect((await gw.admin('DELETE', `/gw/apis/${id}`)).status).toBe(200);
    const after = (await gw.admin('GET', `/gw/changes?since=${before.version}&epoch=${before.epoch}&timeout=5`)).json<{ version: number; epoch: string }>();
    expect(after.epoch).toBe(before.epoch);
    expect(after.version).toBeGreaterThan(before.version);

    await expect.poll(async () => (await gw.admin('GET', `/gw/apis/${id}`)).status, { timeout: 60_000, interval: 50 }).toBe(200);
    const restoredMs = Date.now() - deletedAt;
    process.stdout.write(`change feed: API deleted by hand restored on the gateway after ${restoredMs} ms (periodic scan: 600 s)\n`);
    await expect.poll(async () => (await gw.call('/pets/get')).status, { timeout: 10_000 }).toBe(200);
    expect(await op.metric('gw_operator_drift_corrections_total', { kind: 'ApiDefinition' })).toBeGreaterThanOrEqual(1);
  });

  const fallback = useNamespace('nofeed');
  it('falls back to the periodic scan for a gateway without a change feed', async () => {
    const gw = await startGateway();
    const noFeed = await startManagementProxy(gw.controlUrl, (r) =>
      r.path.startsWith('/gw/changes') ? { status: 404, body: '404 page not found' } : undefined,
    );
    await startOperator({ gateway: { ...gw, controlUrl: noFeed.url }, namespace: fallback.name, env: { GW_DRIFT_PERIOD: '2' } });
    await apply(fallback.name, pets());
    await waitFor('apidefinition', fallback.name, 'pets', synced);
    const id = idFor(fallback.name, 'pets');
    expect((await gw.admin('DELETE', `/gw/apis/${id}`)).status).toBe(200);
    await expect.poll(async () => (await gw.admin('GET', `/gw/apis/${id}`)).status, { timeout: 30_000, interval: 100 }).toBe(200);
    expect(noFeed.requests.some((r) => r.path.startsWith('/gw/changes'))).toBe(true); // it asked, and was told there is none
  });
});
