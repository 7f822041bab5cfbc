// The operator against what goes wrong in production, on the real control plane with real gateway processes:
// hands editing the gateway behind its back (drift), the gateway going away for longer than a drift period (until
// the operator's retry backoff has grown past it), the operator itself killed half-way through a burst of creates.
import { beforeAll, describe, expect, it } from 'vitest';
import { contentHash } from '../../../src/domain/canonical-json.ts';
import { idFor } from '../../../src/operator/sync/ids.ts';
import { installCrds } from '../../support/crds.ts';
import { startGateway } from '../../support/gateway.ts';
import { useNamespace } from '../../support/kubectl.ts';
import { startOperator } from '../../support/operator.ts';
import { apply, list, manifest, ready, synced, waitFor, type Resource } from '../../support/resources.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

// The outage's drift period, and the failures after which a resource's next retry (client-go's per-item backoff,
// 5 ms doubling: src/kube/rate-limiter.ts) waits longer than it.
const DRIFT_PERIOD_S = 2;
const FAILURES_PAST_DRIFT_PERIOD = Math.ceil(Math.log2((DRIFT_PERIOD_S * 1000) / 5)) + 1;

const api = (name: string, target: string, listenPath = `/${name}`) =>
  manifest('ApiDefinition', name, { name, use_keyless: true, active: true, proxy: { listen_path: listenPath, target_url: target, strip_listen_path: true } });

const listApis = (namespace: string): Promise<Resource[]> => list('apidefinition', namespace);

describe('operator resilience', () => {
  let upstream: Upstream;
  beforeAll(async () => {
    await installCrds();
    upstream = await startUpstream();
  });

  describe('drift', () => {
    const ns = useNamespace('drift');
    it('restores an API deleted or edited by hand on the gateway through its change feed (the periodic scan is 10 min away)', async () => {
      const gw = await startGateway();
      const op = await startOperator({ gateway: gw, namespace: ns.name, env: { GW_DRIFT_PERIOD: '600' } });
      await apply(
        ns.name,
        api('pets', upstream.url),
        manifest('SecurityPolicy', 'pets-gold', { name: 'pets-gold', rate: 10, per: 1, access_rights_array: [{ name: 'pets' }] }),
      );
      await waitFor('securitypolicy', ns.name, 'pets-gold', synced);
      const id = idFor(ns.name, 'pets');
      const polId = idFor(ns.name, 'pets-gold');

      // (No check that it stopped serving in between: the change feed restores it faster than a reload could show.)
      expect((await gw.admin('DELETE', `/gw/apis/${id}`)).status).toBe(200);
      await expect.poll(async () => (await gw.admin('GET', `/gw/apis/${id}`)).status, { timeout: 10_000, interval: 250 }).toBe(200);
      await expect.poll(async () => (await gw.call('/pets/get')).status, { timeout: 5000 }).toBe(200); // and reloaded

      const edited = (await gw.admin('GET', `/gw/apis/${id}`)).json<Record<string, unknown>>();
      expect((await gw.admin('PUT', `/gw/apis/${id}`, { ...edited, proxy: { ...(edited.proxy as object), listen_path: '/hijacked' } })).status).toBe(200);
      await expect
        .poll(async () => (await gw.admin('GET', `/gw/apis/${id}`)).json<{ proxy: { listen_path: string } }>().proxy.listen_path, {
          timeout: 10_000,
          interval: 250,
        })
        .toBe('/pets');

      const policy = (await gw.admin('GET', `/gw/policies/${polId}`)).json<Record<string, unknown>>();
      expect((await gw.admin('PUT', `/gw/policies/${polId}`, { ...policy, rate: 1_000_000 })).status).toBe(200);
      await expect
        .poll(async () => (await gw.admin('GET', `/gw/policies/${polId}`)).json<{ rate: number }>().rate, { timeout: 10_000, interval: 250 })
        .toBe(10);

      expect(await op.metric('gw_operator_drift_corrections_total', { kind: 'ApiDefinition' })).toBeGreaterThanOrEqual(2);
      expect(await op.metric('gw_operator_drift_corrections_total', { kind: 'SecurityPolicy' })).toBeGreaterThanOrEqual(1);
      // After the repairs the status records exactly what the gateway now holds, and says so.
      const onGateway = contentHash((await gw.admin('GET', `/gw/apis/${id}`)).json<Record<string, unknown>>());
      // It passes through ReloadPending (written, the gateway's reload not yet seen) on the way.
      const settled = await waitFor('apidefinition', ns.name, 'pets', (r) => r?.status?.latestGwSpecHash === onGateway && ready(r)?.status === 'True');
      expect(ready(settled)).toMatchObject({ status: 'True', reason: 'Synced' });
      expect(settled?.status?.latestTransaction?.status).toBe('Successful');
    });
  });

  describe('gateway outage', () => {
    const ns = useNamespace('outage');
    it('says the gateway is unavailable while it is down, and converges once it is back, however far its retry backoff grew', async () => {
      const gw = await startGateway();
      const op = await startOperator({ gateway: gw, namespace: ns.name, env: { GW_DRIFT_PERIOD: String(DRIFT_PERIOD_S) } });
      await apply(ns.name, api('before', upstream.url));
      await waitFor('apidefinition', ns.name, 'before', synced);

      await gw.stop();
      await apply(ns.name, api('during', upstream.url), api('before', upstream.url, '/before-v2'));
      for (const name of ['during', 'before']) {
        const failing = await waitFor('apidefinition', ns.name, name, (r) => ready(r)?.reason === 'GatewayUnavailable');
        expect(ready(failing)?.status).toBe('False');
        expect(ready(failing)?.message).toContain(gw.controlUrl);
        expect(failing?.status?.latestTransaction?.status).toBe('Failed');
      }
      // Down until the operator has failed the two often enough that their next retry (5 ms x 2^failures) is further
      // away than a drift period: it is the drift scan, not the backoff, that must end the outage for them (a fixed
      // 30 s outage before, the same condition on the 5 s period it used).
      await expect
        .poll(() => op.metric('gw_operator_reconciles_total', { outcome: 'error' }), { timeout: 60_000, interval: 250 })
        .toBeGreaterThanOrEqual(2 * FAILURES_PAST_DRIFT_PERIOD);

      await gw.restart();
      for (const name of ['during', 'before'])
        await waitFor('apidefinition', ns.name, name, (r) => synced(r) && r?.status?.observedGeneration === r?.metadata.generation, 30_000);
      expect((await gw.admin('GET', `/gw/apis/${idFor(ns.name, 'before')}`)).json()).toMatchObject({ proxy: { listen_path: '/before-v2' } });
      await expect.poll(async () => (await gw.call('/during/get')).status, { timeout: 5000 }).toBe(200);
    }, 120_000);
  });

  describe('operator crash', () => {
    const ns = useNamespace('crash');
    it('converges after being SIGKILLed half-way through 200 creates, with no duplicates on the gateway', async () => {
      const gw = await startGateway();
      const op = await startOperator({ gateway: gw, namespace: ns.name });
      const names = Array.from({ length: 200 }, (_, i) => `burst-${String(i).padStart(3, '0')}`);
      const applying = apply(ns.name, ...names.map((name) => api(name, upstream.url)));
      await expect.poll(() => op.metric('gw_operator_gateway_writes_total'), { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(40);
      await op.stop('SIGKILL');
      await applying;
      const createdBeforeCrash = (await gw.admin('GET', '/gw/apis')).json<unknown[]>().length;
      expect(createdBeforeCrash).toBeLessThan(200); // really half-way
      await op.restart();

      await expect.poll(async () => (await listApis(ns.name)).filter((r) => synced(r)).length, { timeout: 120_000, interval: 500 }).toBe(200);
      const onGateway = (await gw.admin('GET', '/gw/apis')).json<{ api_id: string }[]>().map((a) => a.api_id);
      expect(onGateway).toHaveLength(200);
      expect(new Set(onGateway)).toEqual(new Set(names.map((name) => idFor(ns.name, name))));
      expect((await listApis(ns.name)).every((r) => r.metadata.finalizers?.includes('finalizers.gw.io/apidefinition'))).toBe(true);
    }, 180_000);
  });
});
