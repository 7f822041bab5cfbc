// Leader election cannot leave two leaders (src/kube/leader.ts), against the real kube-apiserver: the leader talks
// to it through a loopback TCP proxy the test hangs (requests sent and never answered, as on a stalled network),
// a standby talks to it directly. The leader gives up (onLost) before the standby can take the Lease, because each
// renewal is aborted at the renew deadline instead of waiting for its request; and renewals go through a client of
// their own, so a shared client whose rate limit is exhausted does not starve them.
// Timings: lease 4 s, renew deadline 1 s, retry 0.25 s (client-go's order: lease > deadline > retry).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { KubeClient } from '../../../src/kube/client.ts';
import { LeaderElector } from '../../../src/kube/leader.ts';
import type { KubeObject } from '../../../src/kube/object.ts';
import { CoreResources } from '../../../src/kube/resource.ts';
import { useNamespace } from '../../support/kubectl.ts';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.ts';
import { waitUntil } from '../../support/wait.ts';

const log = pino({ level: 'silent' });
const TIMINGS = { leaseDurationMs: 4000, renewDeadlineMs: 1000, retryPeriodMs: 250 };
const dir = mkdtempSync(join(tmpdir(), 'gw-leader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The shared kubeconfig with its server replaced by the proxy's address (same TLS name: 127.0.0.1). */
async function proxiedClient(): Promise<{ client: KubeClient; proxy: TcpProxy }> {
  const config = parse(readFileSync(inject('kubeconfig'), 'utf8')) as { clusters: { cluster: { server: string } }[] };
  const server = new URL(config.clusters[0]!.cluster.server);
  const proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port) });
  for (const c of config.clusters) c.cluster.server = `https://${proxy.address}`;
  const path = join(dir, `kubeconfig-${proxy.address.split(':')[1]}`);
  writeFileSync(path, stringify(config));
  return { client: KubeClient.fromKubeconfig({ kubeconfig: path }), proxy };
}

const elector = (client: KubeClient, namespace: string, identity: string) => new LeaderElector(client, { namespace, name: 'lease', identity, log, ...TIMINGS });

describe('leader election deadlines', () => {
  const ns = useNamespace('lead');

  it('a leader whose requests hang gives up before a standby can take the Lease', async () => {
    const { client, proxy } = await proxiedClient();
    const order: string[] = [];
    const leader = elector(client, ns.name, 'leader');
    const stop = new AbortController();
    expect(await leader.acquire(stop.signal)).toBe(true);
    const holding = leader.hold(stop.signal, () => order.push('leader lost'));

    proxy.hang();
    const standby = elector(KubeClient.fromKubeconfig({ kubeconfig: inject('kubeconfig') }), ns.name, 'standby');
    expect(await standby.acquire(stop.signal)).toBe(true);
    order.push('standby acquired');
    expect(order).toEqual(['leader lost', 'standby acquired']);
    await holding;
    expect(leader.leading).toBe(false);
    stop.abort();
    proxy.resume();
  });

  it('renews on a client of its own: a shared client out of rate-limit tokens does not starve renewals', async () => {
    // One token, refilled every 1000 s: after the first request, the shared client waits far past every deadline.
    const starved = KubeClient.fromKubeconfig({ kubeconfig: inject('kubeconfig'), qps: 0.001, burst: 1 });
    await starved.get(CoreResources.namespace, undefined, ns.name);
    const leader = elector(starved, ns.name, 'leader');
    const stop = new AbortController();
    const lost: string[] = [];
    expect(await leader.acquire(stop.signal)).toBe(true);
    const holding = leader.hold(stop.signal, () => lost.push('lost'));
    const direct = KubeClient.fromKubeconfig({ kubeconfig: inject('kubeconfig') });
    const renewals = new Set<string>();
    await waitUntil(
      'three renewals of the Lease',
      async () => {
        const lease = await direct.get<KubeObject & { spec?: { renewTime?: string } }>(CoreResources.lease, ns.name, 'lease');
        renewals.add(lease.spec?.renewTime ?? '');
        return renewals.size >= 4;
      },
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    expect(lost).toEqual([]);
    expect(leader.leading).toBe(true);
    stop.abort();
    await holding;
  });
});
