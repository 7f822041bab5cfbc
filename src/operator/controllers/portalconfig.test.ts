// The PortalConfig controller as a unit, against an in-memory dashboard portal (test/support/portal-fakes.ts):
// created when the organisation has none, otherwise updated under the dashboard's id, nothing written when in
// sync, a change made on the dashboard put back, and deletion keeps the dashboard's configuration.
import { describe, expect, it } from 'vitest';
import { Cache } from '../../kube/cache.ts';
import { TerminalError } from '../../kube/controller.ts';
import type { KubeObject } from '../../kube/object.ts';
import { FakePortal, fakeCluster, portalServices } from '../../../test/support/portal-fakes.ts';
import type { PortalConfigObject } from '../portal/portal-resources.ts';
import { PortalConfigReconciler } from './portalconfig.ts';

function setup(mode: 'ce' | 'pro' = 'pro') {
  const configs = new Cache<PortalConfigObject>();
  const cluster = fakeCluster([configs] as unknown as Cache<KubeObject>[]);
  const portal = new FakePortal();
  const reconciler = new PortalConfigReconciler(configs, portalServices(portal, cluster.writer, mode));
  configs.upsert({
    kind: 'PortalConfig',
    metadata: { name: 'portal', namespace: 'ns', uid: 'u1', generation: 1 },
    spec: { require_key_approval: true, signup_fields: ['company'] },
  });
  return { configs, cluster, portal, reconciler };
}

const ready = (o: PortalConfigObject | undefined) => o?.status?.conditions?.find((c) => c.type === 'Ready');

describe('PortalConfig controller', () => {
  it('creates the configuration when the organisation has none; id in status; nothing written again when in sync', async () => {
    const t = setup();
    expect(await t.reconciler.reconcile('ns/portal')).toEqual({ requeueAfterMs: 60_000 });
    expect(t.portal.calls).toEqual(['GET configuration', 'POST configuration', 'GET configuration']);
    expect(t.portal.configuration).toEqual({ require_key_approval: true, signup_fields: ['company'], org_id: 'org-1', id: 'conf-1' });
    expect(t.configs.get('ns/portal')!.status).toMatchObject({ id: 'conf-1', latestTransaction: { status: 'Successful' } });
    expect(ready(t.configs.get('ns/portal'))).toMatchObject({ status: 'True', reason: 'Synced' });
    t.portal.calls.length = 0;
    await t.reconciler.reconcile('ns/portal');
    expect(t.portal.calls).toEqual(['GET configuration']);
  });

  it("updates the organisation's existing configuration under its id, and puts back a change made on the dashboard", async () => {
    const t = setup();
    t.portal.configuration = { id: 'existing', org_id: 'org-1', disable_signup: true };
    await t.reconciler.reconcile('ns/portal');
    expect(t.portal.calls).toEqual(['GET configuration', 'PUT configuration', 'GET configuration']);
    expect(t.portal.configuration).toEqual({ id: 'existing', org_id: 'org-1', require_key_approval: true, signup_fields: ['company'] });
    t.portal.configuration = { ...t.portal.configuration, require_key_approval: false };
    await t.reconciler.reconcile('ns/portal');
    expect(t.portal.configuration.require_key_approval).toBe(true);
    expect(t.cluster.events.map((e) => e.reason)).toEqual(['Updated', 'Updated']);
  });

  it("keeps the fields Tyk's CRD does not have (set on the dashboard) through an update and a repair; editing only them writes nothing", async () => {
    const t = setup();
    const onDashboard = { portal_name: 'Payments Portal', require_developer_approval: true };
    t.portal.configuration = { id: 'existing', org_id: 'org-1', HashKeys: true, disable_signup: true, ...onDashboard };
    await t.reconciler.reconcile('ns/portal');
    expect(t.portal.configuration).toEqual({ id: 'existing', org_id: 'org-1', require_key_approval: true, signup_fields: ['company'], ...onDashboard });

    t.portal.configuration = { ...t.portal.configuration, require_key_approval: false };
    await t.reconciler.reconcile('ns/portal');
    expect(t.portal.configuration).toMatchObject({ require_key_approval: true, ...onDashboard });

    t.portal.configuration = { ...t.portal.configuration, portal_name: 'Renamed on the dashboard' };
    t.portal.calls.length = 0;
    await t.reconciler.reconcile('ns/portal');
    expect(t.portal.calls).toEqual(['GET configuration']);
    expect(t.portal.configuration.portal_name).toBe('Renamed on the dashboard');
  });

  it("deletion removes only the finalizer: the dashboard's configuration is kept, and an Event says so", async () => {
    const t = setup();
    await t.reconciler.reconcile('ns/portal');
    const kept = structuredClone(t.portal.configuration);
    t.cluster.deleting(t.configs, 'ns/portal');
    t.portal.calls.length = 0;
    await t.reconciler.reconcile('ns/portal');
    expect(t.configs.get('ns/portal')).toBeUndefined();
    expect(t.portal.calls).toEqual([]);
    expect(t.portal.configuration).toEqual(kept);
    expect(t.cluster.events.at(-1)).toMatchObject({ reason: 'Deleted', message: "PortalConfig deleted; the dashboard's portal configuration conf-1 is kept" });
  });

  it('a second PortalConfig for the organisation is not synced: it names the oldest, which owns the configuration', async () => {
    const t = setup();
    await t.reconciler.reconcile('ns/portal');
    t.configs.upsert({
      kind: 'PortalConfig',
      metadata: { name: 'younger', namespace: 'ns', uid: 'u2', generation: 1, creationTimestamp: '2030-01-01T00:00:00Z' },
      spec: { require_key_approval: false },
    });
    t.portal.calls.length = 0;
    await t.reconciler.reconcile('ns/younger');
    expect(ready(t.configs.get('ns/younger'))).toMatchObject({ status: 'False', reason: 'OrganisationTaken' });
    expect(ready(t.configs.get('ns/younger'))?.message).toContain('from PortalConfig ns/portal (the oldest)');
    expect(t.portal.calls).toEqual([]);
    expect(t.portal.configuration?.require_key_approval).toBe(true);
  });

  it('in ce mode: Ready=False LicensedModeRequired and a Warning Event, nothing called, a terminal outcome', async () => {
    const t = setup('ce');
    await expect(t.reconciler.reconcile('ns/portal')).rejects.toThrow(TerminalError);
    expect(ready(t.configs.get('ns/portal'))).toMatchObject({ status: 'False', reason: 'LicensedModeRequired' });
    expect(t.cluster.events).toMatchObject([{ type: 'Warning', reason: 'LicensedModeRequired' }]);
    expect(t.portal.calls).toEqual([]);
  });

  it.each(['secure_key_approval', 'enable_multi_selection'])(
    'refuses %s set to true by name: Ready=False Unsupported, a Warning Event, nothing written to the dashboard',
    async (field) => {
      const t = setup();
      const config = t.configs.get('ns/portal')!;
      t.configs.upsert({ ...config, spec: { ...config.spec, [field]: true } });
      await expect(t.reconciler.reconcile('ns/portal')).rejects.toThrow(TerminalError);
      expect(ready(t.configs.get('ns/portal'))).toMatchObject({
        status: 'False',
        reason: 'Unsupported',
        message: expect.stringContaining(`spec.${field}: `) as string,
      });
      expect(t.cluster.events.at(-1)).toMatchObject({ type: 'Warning', reason: 'Unsupported' });
      expect(t.portal.calls.filter((call) => !call.startsWith('GET'))).toEqual([]);

      t.configs.upsert({ ...config, spec: { ...config.spec, [field]: false } });
      await t.reconciler.reconcile('ns/portal');
      expect(ready(t.configs.get('ns/portal'))).toMatchObject({ status: 'True', reason: 'Synced' });
    },
  );
});
