// Deletion never hangs without saying why (issue 24, item 6), on the real control plane: a resource no gateway ever
// acknowledged (its OperatorContext's URL never answered) loses its finalizer at once; one that was written waits
// for its gateway with Ready=False DeletionPending naming what it waits for and the annotation that ends the wait,
// and that annotation releases it, leaving the gateway's copy behind with a Warning Event saying so.
import { beforeAll, describe, expect, it } from 'vitest';
import { idFor } from '../../../src/operator/sync/ids.ts';
import { freePort } from '../../../src/up/ports.ts';
import { installCrds } from '../../support/crds.ts';
import { SECRET, startGateway } from '../../support/gateway.ts';
import { kubectl, useNamespace } from '../../support/kubectl.ts';
import { startOperator } from '../../support/operator.ts';
import { apply, events, get, manifest, ready, synced, waitFor } from '../../support/resources.ts';

const api = (name: string, extra: Record<string, unknown> = {}) =>
  manifest('ApiDefinition', name, {
    name,
    use_keyless: true,
    active: true,
    proxy: { listen_path: `/${name}`, target_url: 'http://127.0.0.1:9', strip_listen_path: true },
    ...extra,
  });

describe('deletion', () => {
  beforeAll(installCrds);

  describe('never written', () => {
    const ns = useNamespace('del-never');
    it('releases at once a resource whose gateway never answered', async () => {
      const gw = await startGateway();
      await startOperator({ gateway: gw, namespace: ns.name });
      const silent = `http://127.0.0.1:${await freePort()}`; // nothing listens there
      await apply(
        ns.name,
        manifest('OperatorContext', 'nowhere', { env: { mode: 'ce', url: silent, auth: SECRET, org: 'o' } }),
        api('stranded', { contextRef: { name: 'nowhere' } }),
      );
      const failing = await waitFor('apidefinition', ns.name, 'stranded', (r) => ready(r)?.reason === 'GatewayUnavailable');
      expect(failing?.metadata.finalizers).toEqual(['finalizers.gw.io/apidefinition']);
      expect(failing?.status?.latestGwSpecHash).toBeUndefined(); // no write was ever acknowledged

      const deleted = await kubectl(['delete', 'apidefinition', '-n', ns.name, 'stranded', '--timeout=30s'], { allowFailure: true });
      expect(deleted.stderr).toBe('');
      expect(await get('apidefinition', ns.name, 'stranded')).toBeUndefined();
      expect((await events(ns.name, 'stranded')).find((e) => e.reason === 'Deleted')?.message).toContain('no gateway ever acknowledged a write');
    });
  });

  describe('written, gateway gone', () => {
    const ns = useNamespace('del-gone');
    it('waits with DeletionPending naming the gateway and the annotation, and the annotation releases it', async () => {
      const gw = await startGateway();
      await startOperator({ gateway: gw, namespace: ns.name });
      await apply(ns.name, api('kept'));
      await waitFor('apidefinition', ns.name, 'kept', synced);
      await gw.stop();

      await kubectl(['delete', 'apidefinition', '-n', ns.name, 'kept', '--wait=false']);
      const pending = await waitFor('apidefinition', ns.name, 'kept', (r) => ready(r)?.reason === 'DeletionPending');
      expect(ready(pending)?.status).toBe('False');
      expect(ready(pending)?.message).toContain(`deletion waits for ${gw.controlUrl} to delete ApiDefinition ${idFor(ns.name, 'kept')}`);
      expect(ready(pending)?.message).toContain('annotate gw.gw.io/skip-gateway-deletion=true');
      expect(pending?.metadata.deletionTimestamp).toBeDefined(); // still held: its copy may still be served

      await kubectl(['annotate', 'apidefinition', '-n', ns.name, 'kept', 'gw.gw.io/skip-gateway-deletion=true']);
      await waitFor('apidefinition', ns.name, 'kept', (r) => r === undefined, 30_000);
      expect((await events(ns.name, 'kept')).find((e) => e.reason === 'GatewayCopyKept')).toMatchObject({ type: 'Warning' });
    });
  });
});
