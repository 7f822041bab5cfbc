// A gateway's load-time refusal reaches the resource (issue 24, item 4), on the real control plane with a real
// gateway: two ApiDefinitions on one listen path — the second is written (the gateway accepts the write) but its
// load refuses it; the operator reads the gateway's load problems after the reload and reports the second
// Ready=False ListenPathConflict naming the first, SYNCSTATUS Failed, with a Warning Event. Once the first goes,
// the next load serves the second and it turns Synced by itself.
import { beforeAll, describe, expect, it } from 'vitest';
import { idFor } from '../../../src/operator/sync/ids.ts';
import { installCrds } from '../../support/crds.ts';
import { startGateway } from '../../support/gateway.ts';
import { kubectl, useNamespace } from '../../support/kubectl.ts';
import { startOperator } from '../../support/operator.ts';
import { apply, events, manifest, ready, synced, waitFor } from '../../support/resources.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

const api = (name: string, listenPath: string, target: string) =>
  manifest('ApiDefinition', name, { name, use_keyless: true, active: true, proxy: { listen_path: listenPath, target_url: target, strip_listen_path: true } });

describe('load problems', () => {
  const ns = useNamespace('loadprob');
  let upstream: Upstream;
  beforeAll(async () => {
    await installCrds();
    upstream = await startUpstream();
  });

  it('reports a duplicate listen path on the API the gateway does not serve, naming the other, until it is served', async () => {
    const gw = await startGateway();
    await startOperator({ gateway: gw, namespace: ns.name });
    await apply(ns.name, api('first', '/shared', upstream.url));
    await waitFor('apidefinition', ns.name, 'first', synced);
    await apply(ns.name, api('second', '/shared', upstream.url));

    const refused = await waitFor('apidefinition', ns.name, 'second', (r) => ready(r)?.reason === 'ListenPathConflict');
    expect(ready(refused)?.status).toBe('False');
    expect(ready(refused)?.message).toContain(`listen path /shared is already served by api ${idFor(ns.name, 'first')}`);
    expect(ready(refused)?.message).toContain(`(ApiDefinition ${ns.name}/first)`);
    expect(refused?.status?.latestTransaction?.status).toBe('Failed');
    expect((await events(ns.name, 'second')).find((e) => e.reason === 'ListenPathConflict')).toMatchObject({ type: 'Warning' });
    expect(ready(await waitFor('apidefinition', ns.name, 'first', () => true))).toMatchObject({ status: 'True', reason: 'Synced' });
    const table = (await kubectl(['get', 'apidefinition', '-n', ns.name, 'second'])).stdout.split('\n')[1] ?? '';
    expect(table).toMatch(/\sFailed\s+False\s+ListenPathConflict\s/); // SYNCSTATUS, READY, REASON

    await kubectl(['delete', 'apidefinition', '-n', ns.name, 'first', '--timeout=30s']);
    const served = await waitFor('apidefinition', ns.name, 'second', synced, 30_000);
    expect(ready(served)).toMatchObject({ status: 'True', reason: 'Synced' });
    const report = (await gw.admin('GET', '/gw/load-problems')).json<{ problems: unknown[] }>();
    expect(report.problems).toEqual([]);
  });
});
