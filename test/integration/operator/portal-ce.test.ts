// The portal kinds with an operator in ce mode (no dashboard), on the real control plane: config/samples/portal
// applied with kubectl, the API and policy sync to the gateway, and the three portal kinds say they need licensed
// mode (Ready=False LicensedModeRequired and a Warning Event, counted as terminal reconciles, not successes)
// instead of staying silent; the catalogue's ID, READY and REASON columns are printed; with nothing on a dashboard
// their deletion is not held up.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/up/paths.ts';
import { installCrds } from '../../support/crds.ts';
import { startGateway } from '../../support/gateway.ts';
import { kubectl, useNamespace } from '../../support/kubectl.ts';
import { startOperator } from '../../support/operator.ts';
import { events, get, ready, synced, waitFor } from '../../support/resources.ts';

describe('portal kinds in ce mode', () => {
  const ns = useNamespace('portal-ce');
  beforeAll(installCrds);

  it('report that they need licensed mode, with a condition and an Event', async () => {
    const gw = await startGateway();
    const operator = await startOperator({ gateway: gw, namespace: ns.name });
    await kubectl(['apply', '-n', ns.name, '-f', join(REPO_ROOT, 'config', 'samples', 'portal')]);
    await waitFor('apidefinition', ns.name, 'payments', synced);
    await waitFor('securitypolicy', ns.name, 'payments-developer', synced);
    for (const [kind, name] of [
      ['apidescription', 'payments'],
      ['portalapicatalogue', 'catalogue'],
      ['portalconfig', 'portal'],
    ] as const) {
      const object = await waitFor(kind, ns.name, name, (r) => ready(r)?.reason === 'LicensedModeRequired');
      expect(ready(object)).toMatchObject({ status: 'False' });
      expect(ready(object)?.message).toContain('needs licensed mode');
      expect(ready(object)?.message).toContain(gw.controlUrl);
      expect((await events(ns.name, name)).filter((e) => e.reason === 'LicensedModeRequired').map((e) => e.type)).toContain('Warning');
    }
    // Not counted as successes: nothing works until the context changes.
    for (const kind of ['APIDescription', 'PortalAPICatalogue', 'PortalConfig']) {
      expect(await operator.metric('gw_operator_reconciles_total', { kind, outcome: 'success' }), kind).toBe(0);
      expect(await operator.metric('gw_operator_reconciles_total', { kind, outcome: 'terminal' }), kind).toBeGreaterThan(0);
    }
    const table = (await kubectl(['get', 'portalapicatalogues', '-n', ns.name])).stdout;
    expect(table.split('\n')[0]).toMatch(/^NAME\s+ID\s+READY\s+REASON\s+AGE$/);
    expect(table.split('\n')[1]).toMatch(/^catalogue\s+False\s+LicensedModeRequired\s/); // no ID: nothing on a dashboard

    await kubectl(['delete', '-n', ns.name, 'portalapicatalogue/catalogue', 'portalconfig/portal', 'apidescription/payments', '--wait=true', '--timeout=60s']);
    expect(await get('portalapicatalogue', ns.name, 'catalogue')).toBeUndefined();
    expect(await get('apidescription', ns.name, 'payments')).toBeUndefined();
  });
});
