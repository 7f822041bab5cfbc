// Two operator replicas behind one Lease (`gw operator --leader-elect`, what `replicaCount: 2` runs): exactly one
// reconciles; the other lists and watches, is ready, and writes nothing; when the leader is killed the standby takes
// the Lease once it expires, and when the leader stops gracefully it hands the Lease over at once. Writes to the
// gateway are counted on both replicas: every resource is written exactly once across them.
// Short lease timings (4 s / 3 s / 0.5 s) keep the test quick; the defaults are client-go's 15 s / 10 s / 2 s.
import { beforeAll, describe, expect, it } from 'vitest';
import { installCrds } from '../../support/crds.ts';
import { startGateway, type RunningGateway } from '../../support/gateway.ts';
import { kubectl, useNamespace } from '../../support/kubectl.ts';
import { startOperator, type RunningOperator } from '../../support/operator.ts';
import { apply, manifest, synced, waitFor } from '../../support/resources.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

const LEASE_SECONDS = 4;
const RETRY_SECONDS = 0.5;

interface LeaseSpec {
  holderIdentity?: string;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

const api = (name: string, target: string) =>
  manifest('ApiDefinition', name, { name, use_keyless: true, active: true, proxy: { listen_path: `/${name}`, target_url: target, strip_listen_path: true } });

describe('leader election', () => {
  const ns = useNamespace('leader');
  let upstream: Upstream;
  let gw: RunningGateway;
  beforeAll(async () => {
    await installCrds();
    upstream = await startUpstream();
  });

  const replica = (): Promise<RunningOperator> =>
    startOperator({
      gateway: gw,
      namespace: ns.name,
      args: [
        '--leader-elect',
        '--leader-election-namespace',
        ns.name,
        '--leader-election-id',
        'gw-operator-test',
        '--leader-elect-lease-duration',
        `${LEASE_SECONDS}s`,
        '--leader-elect-renew-deadline',
        '3s',
        '--leader-elect-retry-period',
        `${RETRY_SECONDS * 1000}ms`,
      ],
    });
  const lease = async (): Promise<LeaseSpec> =>
    JSON.parse((await kubectl(['get', 'lease', 'gw-operator-test', '-n', ns.name, '-o', 'jsonpath={.spec}'])).stdout) as LeaseSpec;
  const leading = (op: RunningOperator): Promise<number> => op.metric('gw_operator_leader');
  const writes = (op: RunningOperator): Promise<number> => op.metric('gw_operator_gateway_writes_total');

  it('one replica reconciles; a killed leader is replaced once the Lease expires; a stopped one hands over at once; nothing is written twice', async () => {
    gw = await startGateway();
    const first = await replica();
    await expect.poll(() => leading(first), { timeout: 15_000 }).toBe(1);
    const second = await replica(); // ready (listed and watching) but standing by
    expect(await leading(second)).toBe(0);

    await apply(ns.name, api('alpha', upstream.url));
    await waitFor('apidefinition', ns.name, 'alpha', synced);
    expect(await writes(first)).toBe(1);
    expect(await writes(second)).toBe(0);
    expect(await second.metric('gw_operator_reconciles_total')).toBe(0);
    expect((await lease()).holderIdentity).toMatch(/_/);

    // Crash: no release. The standby must wait for the Lease to expire, then take it and carry on.
    const held = await lease();
    await first.stop('SIGKILL');
    await apply(ns.name, api('beta', upstream.url));
    await expect.poll(() => leading(second), { timeout: 30_000, interval: 200 }).toBe(1);
    const taken = await lease();
    expect(taken.holderIdentity).not.toBe(held.holderIdentity);
    expect(taken.leaseTransitions).toBe((held.leaseTransitions ?? 0) + 1);
    // Taken over one lease duration after the dead leader's last renewal (read just before the kill), plus the
    // renewal it may have made since and the standby's polling period; 2 s of slack for a loaded machine.
    const gapSeconds = (Date.parse(taken.acquireTime!) - Date.parse(held.renewTime!)) / 1000;
    expect(gapSeconds).toBeGreaterThanOrEqual(LEASE_SECONDS - 1);
    expect(gapSeconds).toBeLessThanOrEqual(LEASE_SECONDS + 2 * RETRY_SECONDS + 2);
    await waitFor('apidefinition', ns.name, 'beta', synced);
    expect((await gw.call('/beta/get')).status).toBe(200);
    // The new leader re-verified alpha against the gateway and wrote only beta.
    expect(await writes(second)).toBe(1);

    // Graceful stop: the leader drains, releases, and a standby takes over without waiting for expiry.
    const third = await replica();
    expect(await leading(third)).toBe(0);
    expect(await second.stop('SIGTERM')).toBe(0);
    expect(second.output()).toContain('lease released');
    await expect.poll(() => leading(third), { timeout: 10_000, interval: 100 }).toBe(1);
    expect((await lease()).leaseTransitions).toBe((taken.leaseTransitions ?? 0) + 1);
    await apply(ns.name, api('gamma', upstream.url));
    await waitFor('apidefinition', ns.name, 'gamma', synced);
    expect(await writes(third)).toBe(1);
    for (const name of ['alpha', 'beta', 'gamma']) expect((await gw.call(`/${name}/get`)).status).toBe(200);
  });
});
