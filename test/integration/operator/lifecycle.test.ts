// The operator's whole lifecycle for each kind, on the real control plane with a real gateway process: what
// `kubectl apply` creates appears on the gateway, changes follow, deletes remove it, status and Events say so.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { idFor } from '../../../src/operator/sync/ids.ts';
import { installCrds } from '../../support/crds.ts';
import { startGateway, type RunningGateway } from '../../support/gateway.ts';
import { kubectl, useNamespace } from '../../support/kubectl.ts';
import { startOperator, type RunningOperator } from '../../support/operator.ts';
import { apply, events, get, manifest, ready, synced, waitFor } from '../../support/resources.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

describe('operator lifecycle', () => {
  const ns = useNamespace('op');
  let gw: RunningGateway;
  let op: RunningOperator;
  let upstream: Upstream;
  beforeAll(async () => {
    await installCrds();
    upstream = await startUpstream();
  });
  beforeEach(async () => {
    gw = await startGateway();
    op = await startOperator({ gateway: gw, namespace: ns.name });
  });

  const gatewayApi = async (id: string) => gw.admin('GET', `/gw/apis/${id}`);

  it('creates, updates and deletes an ApiDefinition on the gateway; kubectl get shows SYNCSTATUS Successful', async () => {
    const id = idFor(ns.name, 'httpbin');
    await apply(
      ns.name,
      manifest('ApiDefinition', 'httpbin', {
        name: 'httpbin',
        use_keyless: true,
        active: true,
        proxy: { listen_path: '/httpbin', target_url: upstream.url, strip_listen_path: true },
      }),
    );
    const created = await waitFor('apidefinition', ns.name, 'httpbin', synced);
    expect(created?.status).toMatchObject({ api_id: id, orgId: 'test-org', observedGeneration: 1 });
    expect(created?.metadata.finalizers).toEqual(['finalizers.gw.io/apidefinition']);
    expect((await gatewayApi(id)).json()).toMatchObject({ api_id: id, org_id: 'test-org', proxy: { listen_path: '/httpbin' } });
    await expect.poll(async () => (await gw.call('/httpbin/get')).status, { timeout: 5000 }).toBe(200); // the coalesced reload happened
    const row = (await kubectl(['get', 'apidefinitions', '-n', ns.name, 'httpbin', '--no-headers'])).stdout.trim().split(/\s+/);
    expect(row).toEqual(['httpbin', '/httpbin', upstream.url, 'true', 'Successful', 'True', 'Synced', expect.any(String)]); // no DOMAIN, no INGRESSTEMPLATE: empty cells

    await apply(
      ns.name,
      manifest('ApiDefinition', 'httpbin', {
        name: 'httpbin',
        use_keyless: true,
        active: true,
        proxy: { listen_path: '/v2/httpbin', target_url: upstream.url, strip_listen_path: true },
      }),
    );
    await waitFor('apidefinition', ns.name, 'httpbin', (r) => synced(r) && r?.status?.observedGeneration === 2);
    expect((await gatewayApi(id)).json()).toMatchObject({ proxy: { listen_path: '/v2/httpbin' } });

    await kubectl(['delete', 'apidefinition', '-n', ns.name, 'httpbin', '--timeout=30s']);
    expect((await gatewayApi(id)).status).toBe(404);
    // The Deleted Event is posted as the finalizer goes, so it may land just after kubectl delete returns.
    await expect
      .poll(async () => (await events(ns.name, 'httpbin')).map((e) => `${e.type}/${e.reason}`), { timeout: 15_000 })
      .toEqual(expect.arrayContaining(['Normal/Created', 'Normal/Updated', 'Normal/Deleted']));
  });

  it('makes a SecurityPolicy wait for its API, grants it once synced, and a key under it passes the gateway', async () => {
    await apply(ns.name, manifest('SecurityPolicy', 'gold', { name: 'Gold', rate: 100, per: 60, access_rights_array: [{ name: 'orders' }] }));
    const waiting = await waitFor('securitypolicy', ns.name, 'gold', (r) => ready(r)?.reason === 'WaitingForDependency');
    expect(ready(waiting)?.message).toBe(`ApiDefinition ${ns.name}/orders (access_rights_array) does not exist`);
    expect(waiting?.status?.latestTransaction?.status).toBe('Failed');

    await apply(
      ns.name,
      manifest('ApiDefinition', 'orders', {
        name: 'orders',
        use_keyless: false,
        proxy: { listen_path: '/orders', target_url: upstream.url, strip_listen_path: true },
      }),
    );
    const policy = await waitFor('securitypolicy', ns.name, 'gold', synced);
    const polId = String(policy?.status?.pol_id);
    expect(polId).toBe(idFor(ns.name, 'gold'));
    expect(policy?.status?.linked_apis).toEqual([{ name: 'orders', namespace: ns.name, kind: 'ApiDefinition' }]);
    const api = await waitFor('apidefinition', ns.name, 'orders', (r) => (r?.status?.linked_by_policies as unknown[] | undefined)?.length === 1);
    expect(api?.status?.linked_by_policies).toEqual([{ kind: 'SecurityPolicy', name: 'gold', namespace: ns.name }]);
    expect((await gw.admin('GET', `/gw/policies/${polId}`)).json()).toMatchObject({
      name: 'Gold',
      access_rights: { [idFor(ns.name, 'orders')]: { api_name: 'orders' } },
    });

    const key = (await gw.admin('POST', '/gw/keys/create', { apply_policies: [polId] })).json<{ key: string }>().key;
    await expect.poll(async () => (await gw.call('/orders/x', { headers: { authorization: key } })).status, { timeout: 5000 }).toBe(200);
    expect((await gw.call('/orders/x')).status).toBe(401);
  });

  it('back-links an already synced API to a policy created after it, and unlinks it when the policy goes', async () => {
    await apply(ns.name, manifest('ApiDefinition', 'early', { name: 'early', use_keyless: false, proxy: { listen_path: '/early', target_url: upstream.url } }));
    await waitFor('apidefinition', ns.name, 'early', synced);
    await apply(ns.name, manifest('SecurityPolicy', 'late', { name: 'late', access_rights_array: [{ name: 'early' }] }));
    await waitFor('securitypolicy', ns.name, 'late', synced);
    const linked = await waitFor('apidefinition', ns.name, 'early', (r) => (r?.status?.linked_by_policies as unknown[] | undefined)?.length === 1, 10_000);
    expect(linked?.status?.linked_by_policies).toEqual([{ kind: 'SecurityPolicy', name: 'late', namespace: ns.name }]);
    await kubectl(['delete', 'securitypolicy', '-n', ns.name, 'late', '--timeout=30s']);
    await waitFor('apidefinition', ns.name, 'early', (r) => (r?.status?.linked_by_policies as unknown[] | undefined)?.length === 0, 10_000);
  });

  it('does not delete an API while a policy grants it, says so, and deletes it once the policy is gone', async () => {
    await apply(
      ns.name,
      manifest('ApiDefinition', 'kept', { name: 'kept', use_keyless: false, proxy: { listen_path: '/kept', target_url: upstream.url } }),
      manifest('SecurityPolicy', 'holder', { name: 'holder', access_rights_array: [{ name: 'kept' }] }),
    );
    await waitFor('securitypolicy', ns.name, 'holder', synced);
    await kubectl(['delete', 'apidefinition', '-n', ns.name, 'kept', '--wait=false']);
    const blocked = await waitFor('apidefinition', ns.name, 'kept', (r) => ready(r)?.reason === 'DeletionBlocked');
    expect(ready(blocked)?.message).toBe(`not deleted while SecurityPolicy ${ns.name}/holder still needs it`);
    expect((await gatewayApi(idFor(ns.name, 'kept'))).status).toBe(200);
    expect((await events(ns.name, 'kept')).some((e) => e.type === 'Warning' && e.reason === 'DeletionBlocked')).toBe(true);

    await kubectl(['delete', 'securitypolicy', '-n', ns.name, 'holder', '--timeout=30s']);
    await waitFor('apidefinition', ns.name, 'kept', (r) => r === undefined);
    expect((await gatewayApi(idFor(ns.name, 'kept'))).status).toBe(404);
  });

  it('syncs a GwOasApiDefinition from its ConfigMap: waits for it, shows its columns, follows its changes', async () => {
    const oas = (listenPath: string, extra: Record<string, unknown> = {}) =>
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'Petstore', version: '1' },
        paths: {},
        'x-gw-api-gateway': {
          info: { name: 'petstore', state: { active: true } },
          upstream: { url: upstream.url },
          server: { listenPath: { value: listenPath, strip: true } },
          ...extra,
        },
      });
    const configMap = (data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'petstore' }, data });
    await apply(ns.name, manifest('GwOasApiDefinition', 'petstore', { gwOAS: { configmapRef: { name: 'petstore', keyName: 'oas.json' } } }));
    const waiting = await waitFor('gwoasapidefinition', ns.name, 'petstore', (r) => ready(r)?.reason === 'WaitingForDependency');
    expect(ready(waiting)?.message).toBe(`ConfigMap ${ns.name}/petstore (spec.gwOAS.configmapRef) does not exist`);

    await apply(ns.name, configMap({ 'oas.json': oas('/petstore/') }));
    const synced1 = await waitFor('gwoasapidefinition', ns.name, 'petstore', synced);
    const id = idFor(ns.name, 'petstore');
    expect(synced1?.status).toMatchObject({ id, name: 'petstore', listenPath: '/petstore/', targetURL: upstream.url, enabled: true });
    const row = (await kubectl(['get', 'gwoas', '-n', ns.name, 'petstore', '--no-headers'])).stdout.trim().split(/\s+/);
    expect(row.slice(0, 5)).toEqual(['petstore', '/petstore/', upstream.url, 'true', 'Successful']);
    expect((await gw.admin('GET', `/gw/apis/oas/${id}`)).json()).toMatchObject({ 'x-gw-api-gateway': { info: { id, orgId: 'test-org' } } });

    await apply(ns.name, configMap({ 'oas.json': oas('/pets-v2/') }));
    await waitFor('gwoasapidefinition', ns.name, 'petstore', (r) => r?.status?.listenPath === '/pets-v2/' && synced(r));
    expect((await gw.admin('GET', `/gw/apis/oas/${id}`)).json()).toMatchObject({ 'x-gw-api-gateway': { server: { listenPath: { value: '/pets-v2/' } } } });

    await apply(ns.name, configMap({ 'oas.json': JSON.stringify({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} }) }));
    const refused = await waitFor('gwoasapidefinition', ns.name, 'petstore', (r) => ready(r)?.reason === 'InvalidSpec');
    expect(ready(refused)?.message).toBe(`ConfigMap ${ns.name}/petstore key oas.json must contain the x-gw-api-gateway section`);

    await kubectl(['delete', 'gwoasapidefinition', '-n', ns.name, 'petstore', '--timeout=30s']);
    expect((await gw.admin('GET', `/gw/apis/oas/${id}`)).status).toBe(404);
  });

  it('writes nothing to the gateway and nothing to the cluster when nothing changed, even after a restart', async () => {
    const apis = Array.from({ length: 5 }, (_, i) =>
      manifest('ApiDefinition', `still-${i}`, { name: `still-${i}`, use_keyless: true, proxy: { listen_path: `/still-${i}`, target_url: upstream.url } }),
    );
    await apply(ns.name, ...apis);
    for (let i = 0; i < 5; i++) await waitFor('apidefinition', ns.name, `still-${i}`, synced);
    expect(await op.metric('gw_operator_gateway_writes_total')).toBe(5);
    const before = await Promise.all(apis.map((_, i) => get('apidefinition', ns.name, `still-${i}`)));

    await op.restart();
    await expect
      .poll(() => op.metric('gw_operator_reconciles_total', { kind: 'ApiDefinition', outcome: 'success' }), { timeout: 20_000 })
      .toBeGreaterThanOrEqual(5);
    expect(await op.metric('gw_operator_gateway_writes_total')).toBe(0);
    const after = await Promise.all(apis.map((_, i) => get('apidefinition', ns.name, `still-${i}`)));
    expect(after.map((r) => r?.metadata.resourceVersion)).toEqual(before.map((r) => r?.metadata.resourceVersion)); // no status write either
  });
});
