// OperatorContexts on the real control plane with three real gateways: the operator's own settings for resources
// naming no context, a context's spec.env or its secretRef Secret for those naming one; a context that does not
// exist (yet) reported on the resource; a context in use cannot be deleted; ingress ports refused by name.
import { beforeAll, describe, expect, it } from 'vitest';
import { idFor } from '../../../src/operator/sync/ids.ts';
import { installCrds } from '../../support/crds.ts';
import { SECRET, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { kubectl, useNamespace } from '../../support/kubectl.ts';
import { startOperator } from '../../support/operator.ts';
import { apply, events, get, manifest, ready, synced, waitFor } from '../../support/resources.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

describe('operator contexts', () => {
  const ns = useNamespace('ctx');
  let upstream: Upstream;
  beforeAll(async () => {
    await installCrds();
    upstream = await startUpstream();
  });

  const api = (name: string, contextRef?: string) =>
    manifest('ApiDefinition', name, {
      name,
      use_keyless: false,
      proxy: { listen_path: `/${name}`, target_url: upstream.url },
      ...(contextRef ? { contextRef: { name: contextRef } } : {}),
    });
  const holds = async (gw: RunningGateway, name: string) => (await gw.admin('GET', `/gw/apis/${idFor(ns.name, name)}`)).status === 200;

  it('syncs each resource to the gateway its context names: defaults, spec.env, secretRef', async () => {
    const [home, east, west] = await Promise.all([startGateway(), startGateway(), startGateway()]);
    await startOperator({ gateway: home, namespace: ns.name });
    await kubectl([
      'create',
      'secret',
      'generic',
      'west-credentials',
      '-n',
      ns.name,
      `--from-literal=GW_MODE=ce`,
      `--from-literal=GW_URL=${west.controlUrl}`,
      `--from-literal=GW_AUTH=${SECRET}`,
      '--from-literal=GW_ORG=west-org',
    ]);
    await apply(
      ns.name,
      manifest('OperatorContext', 'east', { env: { mode: 'ce', url: east.controlUrl, auth: SECRET, org: 'east-org' } }),
      manifest('OperatorContext', 'west', { secretRef: { name: 'west-credentials' } }),
      api('plain'),
      api('eastern', 'east'),
      api('western', 'west'),
      manifest('SecurityPolicy', 'east-gold', { name: 'east-gold', contextRef: { name: 'east' }, access_rights_array: [{ name: 'eastern' }] }),
    );
    for (const name of ['plain', 'eastern', 'western']) await waitFor('apidefinition', ns.name, name, synced);
    await waitFor('securitypolicy', ns.name, 'east-gold', synced);

    expect([await holds(home, 'plain'), await holds(east, 'plain'), await holds(west, 'plain')]).toEqual([true, false, false]);
    expect([await holds(home, 'eastern'), await holds(east, 'eastern'), await holds(west, 'eastern')]).toEqual([false, true, false]);
    expect([await holds(home, 'western'), await holds(east, 'western'), await holds(west, 'western')]).toEqual([false, false, true]);
    expect((await east.admin('GET', `/gw/apis/${idFor(ns.name, 'eastern')}`)).json()).toMatchObject({ org_id: 'east-org' });
    expect((await west.admin('GET', `/gw/apis/${idFor(ns.name, 'western')}`)).json()).toMatchObject({ org_id: 'west-org' });
    expect((await east.admin('GET', `/gw/policies/${idFor(ns.name, 'east-gold')}`)).status).toBe(200);
    expect((await home.admin('GET', `/gw/policies/${idFor(ns.name, 'east-gold')}`)).status).toBe(404);

    const eastContext = await waitFor('operatorcontext', ns.name, 'east', (r) => (r?.status?.linked_api_definitions as unknown[] | undefined)?.length === 1);
    expect(eastContext?.status).toMatchObject({
      linked_api_definitions: [{ name: 'eastern', namespace: ns.name }],
      linked_security_policies: [{ name: 'east-gold', namespace: ns.name }],
    });
    expect(ready(eastContext)).toMatchObject({ status: 'True', reason: 'Resolved' });
    expect(JSON.stringify(await get('operatorcontext', ns.name, 'west'))).not.toContain(SECRET); // credentials never reach status
  });

  it('reports a missing context on the resource and syncs once the context appears', async () => {
    const [home, other] = await Promise.all([startGateway(), startGateway()]);
    await startOperator({ gateway: home, namespace: ns.name });
    await apply(ns.name, api('orphan', 'later'));
    const waiting = await waitFor('apidefinition', ns.name, 'orphan', (r) => ready(r)?.reason === 'ContextNotFound');
    expect(ready(waiting)?.message).toBe(`OperatorContext ${ns.name}/later (contextRef) does not exist`);
    expect((await events(ns.name, 'orphan')).some((e) => e.type === 'Warning' && e.reason === 'ContextNotFound')).toBe(true);

    await apply(ns.name, manifest('OperatorContext', 'later', { env: { mode: 'ce', url: other.controlUrl, org: 'o' } }));
    const incomplete = await waitFor('operatorcontext', ns.name, 'later', (r) => ready(r)?.reason === 'Incomplete');
    expect(ready(incomplete)?.message).toBe(`OperatorContext ${ns.name}/later lacks auth (spec.env.auth or GW_AUTH in the secretRef Secret)`);

    await apply(ns.name, manifest('OperatorContext', 'later', { env: { mode: 'ce', url: other.controlUrl, org: 'o', auth: SECRET } }));
    await waitFor('apidefinition', ns.name, 'orphan', synced, 15_000); // the context's change queued its users at once
    expect(await holds(other, 'orphan')).toBe(true);
  });

  it('does not delete a context while a resource uses it', async () => {
    const [home, other] = await Promise.all([startGateway(), startGateway()]);
    await startOperator({ gateway: home, namespace: ns.name });
    await apply(ns.name, manifest('OperatorContext', 'busy', { env: { mode: 'ce', url: other.controlUrl, auth: SECRET, org: 'o' } }), api('user', 'busy'));
    await waitFor('apidefinition', ns.name, 'user', synced);
    await kubectl(['delete', 'operatorcontext', '-n', ns.name, 'busy', '--wait=false']);
    const blocked = await waitFor('operatorcontext', ns.name, 'busy', (r) => ready(r)?.reason === 'DeletionBlocked');
    expect(ready(blocked)?.message).toBe(`not deleted while ApiDefinition ${ns.name}/user still uses it`);
    expect((await events(ns.name, 'busy')).some((e) => e.type === 'Warning' && e.reason === 'DeletionBlocked')).toBe(true);

    await kubectl(['delete', 'apidefinition', '-n', ns.name, 'user', '--timeout=30s']);
    expect(await holds(other, 'user')).toBe(false); // deleted from the context's gateway before the context went
    await waitFor('operatorcontext', ns.name, 'busy', (r) => r === undefined, 15_000);
  });

  it('refuses spec.env.ingress ports by name (gw gateways open no port per API) while its users still sync', async () => {
    const [home, other] = await Promise.all([startGateway(), startGateway()]);
    await startOperator({ gateway: home, namespace: ns.name });
    const env = { mode: 'ce', url: other.controlUrl, auth: SECRET, org: 'o' };
    await apply(ns.name, manifest('OperatorContext', 'ported', { env: { ...env, ingress: { httpsPort: 8443 } } }), api('through-ported', 'ported'));
    const refused = await waitFor('operatorcontext', ns.name, 'ported', (r) => ready(r)?.reason === 'Unsupported');
    expect(ready(refused)).toMatchObject({ status: 'False', message: expect.stringMatching(/^spec\.env\.ingress\.httpsPort: /) as string });
    expect(
      (await events(ns.name, 'ported')).some((e) => e.type === 'Warning' && e.reason === 'Unsupported' && e.message.includes('spec.env.ingress.httpsPort')),
    ).toBe(true);
    await waitFor('apidefinition', ns.name, 'through-ported', synced);

    await apply(ns.name, manifest('OperatorContext', 'ported', { env }));
    await waitFor('operatorcontext', ns.name, 'ported', (r) => ready(r)?.reason === 'Resolved', 15_000);
  });
});
