// Status tells the truth (issue 10, item 14), on the real control plane with a real gateway behind a loopback
// proxy that makes it fail in one precise way: a reload that keeps failing leaves the resource not Ready until a
// reload succeeds; a write the gateway refuses with 409 is a terminal GatewayConflict carrying the gateway's
// message, not retried until the resource changes.
import { beforeAll, describe, expect, it } from 'vitest';
import { idFor } from '../../../src/operator/sync/ids.ts';
import { installCrds } from '../../support/crds.ts';
import { startGateway } from '../../support/gateway.ts';
import { useNamespace } from '../../support/kubectl.ts';
import { startManagementProxy } from '../../support/management-proxy.ts';
import { startOperator } from '../../support/operator.ts';
import { apply, manifest, ready, synced, waitFor } from '../../support/resources.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

const api = (name: string, target: string, extra: Record<string, unknown> = {}) =>
  manifest('ApiDefinition', name, {
    name,
    use_keyless: true,
    active: true,
    proxy: { listen_path: `/${name}`, target_url: target, strip_listen_path: true },
    ...extra,
  });

describe('truthful status', () => {
  let upstream: Upstream;
  beforeAll(async () => {
    await installCrds();
    upstream = await startUpstream();
  });

  describe('failed reloads', () => {
    const ns = useNamespace('reload');
    it('keeps a written API Ready=False (ReloadFailed) while reloads fail, retries them, and is Ready once one succeeds', async () => {
      const gw = await startGateway();
      const failReloads = (r: { path: string }) =>
        r.path.startsWith('/gw/reload') ? { status: 500, body: JSON.stringify({ status: 'error', message: 'reload broke' }) } : undefined;
      const proxy = await startManagementProxy(gw.controlUrl, failReloads);
      await startOperator({ gateway: { ...gw, controlUrl: proxy.url }, namespace: ns.name });
      await apply(ns.name, api('held', upstream.url));

      const failing = await waitFor('apidefinition', ns.name, 'held', (r) => ready(r)?.reason === 'ReloadFailed');
      expect(ready(failing)?.status).toBe('False');
      expect(ready(failing)?.message).toContain('reload broke');
      expect(failing?.status?.latestTransaction?.status).toBe('Successful'); // the write itself went through
      expect((await gw.admin('GET', `/gw/apis/${idFor(ns.name, 'held')}`)).status).toBe(200);
      // Retried by itself, with no new request from the cluster:
      const reloadsSeen = () => proxy.requests.filter((r) => r.path.startsWith('/gw/reload')).length;
      await expect.poll(reloadsSeen, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
      expect(ready(await waitFor('apidefinition', ns.name, 'held', () => true))?.status).toBe('False');

      proxy.setFault(undefined);
      const live = await waitFor('apidefinition', ns.name, 'held', synced, 60_000);
      expect(ready(live)).toMatchObject({ status: 'True', reason: 'Synced' });
      await expect.poll(async () => (await gw.call('/held/get')).status, { timeout: 5000 }).toBe(200);
    });
  });

  describe('conflicts', () => {
    const ns = useNamespace('conflict');
    it('reports a 409 as GatewayConflict with the gateway message and does not retry it until the resource changes', async () => {
      const gw = await startGateway();
      const policyPath = `/gw/policies/${encodeURIComponent(idFor(ns.name, 'gold'))}`;
      const message = 'a policy named "gold" already exists (duplicate slug)';
      const proxy = await startManagementProxy(gw.controlUrl, (r) =>
        r.method === 'POST' && r.path === policyPath ? { status: 409, body: JSON.stringify({ status: 'error', message }) } : undefined,
      );
      const operator = await startOperator({ gateway: { ...gw, controlUrl: proxy.url }, namespace: ns.name });
      await apply(ns.name, api('pets', upstream.url));
      await waitFor('apidefinition', ns.name, 'pets', synced);
      const policy = (rate: number) => manifest('SecurityPolicy', 'gold', { name: 'gold', rate, per: 1, access_rights_array: [{ name: 'pets' }] });
      await apply(ns.name, policy(10));

      const conflicted = await waitFor('securitypolicy', ns.name, 'gold', (r) => ready(r)?.reason === 'GatewayConflict');
      expect(ready(conflicted)).toMatchObject({ status: 'False', message });
      expect(conflicted?.status?.latestTransaction).toMatchObject({ status: 'Failed', error: message });
      const writes = () => proxy.requests.filter((r) => r.method === 'POST' && r.path === policyPath).length;
      const writesWhenConflicted = writes();

      // Reconciled again with the same content (a change to the API it grants requeues it): the refused write is
      // not sent again (before the fix every reconcile the informer caused wrote it again and got the 409 again).
      const terminal = () => operator.metric('gw_operator_reconciles_total', { kind: 'SecurityPolicy', outcome: 'terminal' });
      const terminalBefore = await terminal();
      await apply(ns.name, api('pets', upstream.url, { tags: ['touched'] }));
      await expect.poll(terminal, { timeout: 30_000 }).toBeGreaterThan(terminalBefore);
      expect(writes()).toBe(writesWhenConflicted);

      // Let the operator do other work meanwhile: a retried conflict would have written again by then.
      await apply(ns.name, api('other', upstream.url));
      await waitFor('apidefinition', ns.name, 'other', synced);
      expect(writes()).toBe(writesWhenConflicted);

      proxy.setFault(undefined);
      await apply(ns.name, policy(20)); // the resource changes: tried again
      await waitFor('securitypolicy', ns.name, 'gold', (r) => synced(r) && r?.status?.observedGeneration === r?.metadata.generation);
      expect(writes()).toBeGreaterThan(writesWhenConflicted);
    });
  });
});
