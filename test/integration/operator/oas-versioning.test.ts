// GwOasApiDefinition spec.versioning on the real control plane with a real gateway: a base API and its v2 version,
// each a GwOasApiDefinition with its document in a ConfigMap; the base waits (WaitingForDependency, named) while
// the v2 resource does not exist and syncs as soon as it appears; the gateway then sends `x-api-version: v2` to
// the v2 API's upstream and a request naming no version to the base's. As Tyk Operator, the v2 resource is not
// deleted while the base lists it.
import { beforeAll, describe, expect, it } from 'vitest';
import { idFor } from '../../../src/operator/sync/ids.ts';
import { installCrds } from '../../support/crds.ts';
import { startGateway, type RunningGateway } from '../../support/gateway.ts';
import { kubectl, useFileNamespace } from '../../support/kubectl.ts';
import { startOperator } from '../../support/operator.ts';
import { apply, manifest, ready, synced, waitFor } from '../../support/resources.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

function namedUpstream(name: string): Promise<Upstream> {
  return startUpstream((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(name);
    return true;
  });
}

const document = (name: string, listenPath: string, url: string): string =>
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: name, version: '1' },
    paths: {},
    'x-gw-api-gateway': { info: { name, state: { active: true } }, upstream: { url }, server: { listenPath: { value: listenPath, strip: true } } },
  });

const configMap = (name: string, text: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { 'oas.json': text } });
const oasResource = (name: string, extra: Record<string, unknown> = {}) =>
  manifest('GwOasApiDefinition', name, { gwOAS: { configmapRef: { name, keyName: 'oas.json' } }, ...extra });

describe('GwOasApiDefinition versioning', () => {
  const ns = useFileNamespace('oasver');
  let gw: RunningGateway;
  let base: Upstream;
  let two: Upstream;

  beforeAll(async () => {
    await installCrds();
    [base, two] = await Promise.all([namedUpstream('base'), namedUpstream('v2')]);
    gw = await startGateway();
    await startOperator({ gateway: gw, namespace: ns.name });
  });

  it('waits for the v2 resource, routes x-api-version: v2 to it and no version to the base, and keeps it while listed', async () => {
    const versioning = {
      enabled: true,
      name: 'v1',
      default: 'v1',
      location: 'header',
      key: 'x-api-version',
      versions: [{ name: 'v2', gwOasApiDefinitionRef: { name: 'orders-v2' } }],
    };
    await apply(ns.name, configMap('orders', document('orders', '/orders', base.url)), oasResource('orders', { versioning }));
    const waiting = await waitFor('gwoasapidefinition', ns.name, 'orders', (r) => ready(r)?.reason === 'WaitingForDependency');
    expect(ready(waiting)?.message).toBe(`GwOasApiDefinition ${ns.name}/orders-v2 (spec.versioning.versions[0].gwOasApiDefinitionRef) does not exist`);

    await apply(ns.name, configMap('orders-v2', document('orders v2', '/orders-v2', two.url)), oasResource('orders-v2'));
    await waitFor('gwoasapidefinition', ns.name, 'orders', synced);
    const stored = (await gw.admin('GET', `/gw/apis/oas/${idFor(ns.name, 'orders')}`)).json<Record<string, { info: { versioning: unknown } }>>();
    expect(stored['x-gw-api-gateway']!.info.versioning).toEqual({ ...versioning, versions: [{ name: 'v2', id: idFor(ns.name, 'orders-v2') }] });

    const version = await waitFor('gwoasapidefinition', ns.name, 'orders-v2', (r) => synced(r) && r?.status?.versioningStatus !== undefined);
    expect(version?.status?.versioningStatus).toEqual({
      isVersionedAPI: true,
      baseAPIVersionContextRef: { name: 'orders', namespace: ns.name },
      isDefaultVersion: false,
    });
    await expect.poll(async () => (await gw.call('/orders/list', { headers: { 'x-api-version': 'v2' } })).text, { timeout: 10_000 }).toBe('v2');
    expect((await gw.call('/orders/list')).text).toBe('base');
    expect((await gw.call('/orders/list', { headers: { 'x-api-version': 'v9' } })).status).toBe(404);

    // A version the base still lists is not deleted; once the base no longer lists it, it is.
    await kubectl(['delete', 'gwoasapidefinition', '-n', ns.name, 'orders-v2', '--wait=false']);
    const blocked = await waitFor('gwoasapidefinition', ns.name, 'orders-v2', (r) => ready(r)?.reason === 'DeletionBlocked');
    expect(ready(blocked)?.message).toBe(`not deleted while GwOasApiDefinition ${ns.name}/orders (spec.versioning.versions) still needs it`);
    expect((await gw.admin('GET', `/gw/apis/oas/${idFor(ns.name, 'orders-v2')}`)).status).toBe(200);

    await apply(ns.name, oasResource('orders'));
    await waitFor('gwoasapidefinition', ns.name, 'orders-v2', (r) => r === undefined);
    expect((await gw.admin('GET', `/gw/apis/oas/${idFor(ns.name, 'orders-v2')}`)).status).toBe(404);
  });
});
