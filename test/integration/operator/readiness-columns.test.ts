// `kubectl get` shows every kind's state (issue 24, item 7), on the real control plane with the operator running:
// READY and REASON (the Ready condition) on the kinds that showed only AGE (SubGraph, SuperGraph), an
// OperatorContext's MODE and URL when they come from its Secret, SecurityPolicy without a second NAME header, and a
// SubGraph that cannot work (invalid SDL) counted as a terminal reconcile, not a success.
import { beforeAll, describe, expect, it } from 'vitest';
import { installCrds } from '../../support/crds.ts';
import { SECRET, startGateway } from '../../support/gateway.ts';
import { kubectl, useNamespace } from '../../support/kubectl.ts';
import { startOperator } from '../../support/operator.ts';
import { apply, manifest, ready, waitFor } from '../../support/resources.ts';

/** `kubectl get` as rows of cells: the header first. */
async function table(namespace: string, ...args: string[]): Promise<string[][]> {
  const { stdout } = await kubectl(['get', '-n', namespace, ...args]);
  return stdout
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/));
}

describe('readiness columns', () => {
  const ns = useNamespace('columns');
  beforeAll(installCrds);

  it('print READY and REASON on every kind, and what an OperatorContext resolves to', async () => {
    const gw = await startGateway();
    const operator = await startOperator({ gateway: gw, namespace: ns.name });
    await kubectl([
      'create',
      'secret',
      'generic',
      'from-secret',
      '-n',
      ns.name,
      '--from-literal=GW_MODE=ce',
      `--from-literal=GW_URL=${gw.controlUrl}`,
      `--from-literal=GW_AUTH=${SECRET}`,
      '--from-literal=GW_ORG=o',
    ]);
    await apply(
      ns.name,
      manifest('OperatorContext', 'secret-backed', { secretRef: { name: 'from-secret' } }),
      manifest('SubGraph', 'broken', { sdl: 'type Query {', schema: '' }),
      manifest('SubGraph', 'users', { sdl: 'type Query { me: String }', schema: '' }),
      manifest('SuperGraph', 'social', { subgraph_refs: [{ name: 'users' }], schema: '' }),
      manifest('SecurityPolicy', 'gold', { name: 'gold-policy', state: 'active', access_rights_array: [] }),
    );
    await waitFor('operatorcontext', ns.name, 'secret-backed', (r) => ready(r)?.reason === 'Resolved');
    await waitFor('subgraph', ns.name, 'broken', (r) => ready(r)?.reason === 'InvalidSDL');
    await waitFor('subgraph', ns.name, 'users', (r) => ready(r)?.reason === 'WaitingForApi'); // no ApiDefinition serves it
    await waitFor('supergraph', ns.name, 'social', (r) => ready(r)?.reason === 'Composed');
    await waitFor('securitypolicy', ns.name, 'gold', (r) => ready(r)?.status === 'True');

    expect(await table(ns.name, 'operatorcontext', 'secret-backed')).toEqual([
      ['NAME', 'MODE', 'URL', 'READY', 'REASON', 'AGE'],
      ['secret-backed', 'ce', gw.controlUrl, 'True', 'Resolved', expect.any(String)],
    ]);
    const subgraphs = await table(ns.name, 'subgraphs');
    expect(subgraphs[0]).toEqual(['NAME', 'READY', 'REASON', 'AGE']);
    expect(subgraphs.slice(1).map((row) => row.slice(0, 3))).toEqual([
      ['broken', 'False', 'InvalidSDL'],
      ['users', 'False', 'WaitingForApi'],
    ]);
    expect((await table(ns.name, 'supergraph', 'social')).map((row) => row.slice(0, 3))).toEqual([
      ['NAME', 'READY', 'REASON'],
      ['social', 'True', 'Composed'],
    ]);
    expect((await table(ns.name, 'securitypolicy', 'gold')).map((row) => row.slice(0, 6))).toEqual([
      ['NAME', 'POLICYNAME', 'STATE', 'SYNCSTATUS', 'READY', 'REASON'],
      ['gold', 'gold-policy', 'active', 'Successful', 'True', 'Synced'],
    ]);

    expect(await operator.metric('gw_operator_reconciles_total', { kind: 'SubGraph', outcome: 'terminal' })).toBeGreaterThan(0);
  });
});
