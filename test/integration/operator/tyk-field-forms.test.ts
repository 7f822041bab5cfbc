// ApiDefinition fields written the way Tyk Operator's CRD types or places them, on the real control plane with a
// real gateway: circuit_breakers[].threshold_percent as a string ("0.5") is stored by the apiserver (the CRD
// refused it before), synced, and trips the breaker on the gateway; spec.graphql.graph_ref (Tyk Operator's place)
// links a SubGraph as spec.graph_ref does (the CRD pruned it before).
import { beforeAll, describe, expect, it } from 'vitest';
import { idFor } from '../../../src/operator/sync/ids.ts';
import { installCrds } from '../../support/crds.ts';
import { startGateway, type RunningGateway } from '../../support/gateway.ts';
import { kubectl, useFileNamespace } from '../../support/kubectl.ts';
import { startOperator } from '../../support/operator.ts';
import { apply, manifest, synced, waitFor } from '../../support/resources.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

const USERS_SDL = 'type Query { me: String }';

describe('Tyk Operator field forms', () => {
  const ns = useFileNamespace('tykforms');
  let gw: RunningGateway;
  let failing: Upstream;

  beforeAll(async () => {
    await installCrds();
    failing = await startUpstream((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('broken');
      return true;
    });
    gw = await startGateway();
    await startOperator({ gateway: gw, namespace: ns.name });
  });

  it('stores, syncs and enforces circuit_breakers[].threshold_percent written as "0.5"', async () => {
    const breaker = { path: '/flaky', method: 'GET', threshold_percent: '0.5', samples: 2, return_to_service_after: 3600 };
    await apply(
      ns.name,
      manifest('ApiDefinition', 'breaker', {
        name: 'breaker',
        use_keyless: true,
        proxy: { listen_path: '/breaker', target_url: failing.url, strip_listen_path: true },
        extended_paths: { circuit_breakers: [breaker] },
      }),
    );
    await waitFor('apidefinition', ns.name, 'breaker', synced);
    const stored = (
      await kubectl(['get', 'apidefinition', '-n', ns.name, 'breaker', '-o', 'jsonpath={.spec.extended_paths.circuit_breakers[0].threshold_percent}'])
    ).stdout;
    expect(stored).toBe('0.5');
    await expect.poll(async () => (await gw.call('/breaker/flaky')).status, { timeout: 10_000 }).toBe(500);
    expect((await gw.call('/breaker/flaky')).status).toBe(500); // 2 of the last 2 failed: trips
    expect((await gw.call('/breaker/flaky')).status).toBe(503);
  });

  it('links a SubGraph named in spec.graphql.graph_ref, as spec.graph_ref', async () => {
    await apply(
      ns.name,
      manifest('SubGraph', 'users', { sdl: USERS_SDL, schema: USERS_SDL }),
      manifest('ApiDefinition', 'users-api', {
        name: 'users-api',
        use_keyless: true,
        graphql: { enabled: true, execution_mode: 'subgraph', version: '2', graph_ref: 'users' },
        proxy: { listen_path: '/users-api', target_url: failing.url, strip_listen_path: true },
      }),
    );
    const api = await waitFor('apidefinition', ns.name, 'users-api', synced);
    expect(api?.status?.linked_to_subgraph).toBe('users');
    const onGateway = (await gw.admin('GET', `/gw/apis/${idFor(ns.name, 'users-api')}`)).json<{ graphql: Record<string, unknown> }>();
    expect(onGateway.graphql).toMatchObject({ schema: USERS_SDL, subgraph: { sdl: USERS_SDL } });
    expect(onGateway.graphql).not.toHaveProperty('graph_ref');
  });
});
