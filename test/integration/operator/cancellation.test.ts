// A deposed leader stops writing at once (issue 10, item 13): the gateway hangs on the leader's write, another
// identity takes the Lease, and the replica must abort that reconcile — no retry of the write, no status write
// after it — and exit, instead of draining for as long as its reconciles take.
import { beforeAll, describe, expect, it } from 'vitest';
import { idFor } from '../../../src/operator/sync/ids.ts';
import { installCrds } from '../../support/crds.ts';
import { http, startGateway } from '../../support/gateway.ts';
import { kubectl, useNamespace } from '../../support/kubectl.ts';
import { startManagementProxy } from '../../support/management-proxy.ts';
import { startOperator } from '../../support/operator.ts';
import { apply, get, manifest, ready } from '../../support/resources.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

describe('cancellation on a lost Lease', () => {
  const ns = useNamespace('deposed');
  let upstream: Upstream;
  beforeAll(async () => {
    await installCrds();
    upstream = await startUpstream();
  });

  it('aborts the write in flight, retries nothing, writes no status, and exits', async () => {
    const gw = await startGateway();
    const apiPath = '/gw/apis';
    const proxy = await startManagementProxy(gw.controlUrl, (r) => (r.method === 'POST' && r.path === apiPath ? 'hang' : undefined));
    const op = await startOperator({
      gateway: { ...gw, controlUrl: proxy.url },
      namespace: ns.name,
      env: { GW_RECONCILE_TIMEOUT: '600' },
      args: [
        '--leader-elect',
        '--leader-election-namespace',
        ns.name,
        '--leader-election-id',
        'gw-operator-deposed',
        '--leader-elect-lease-duration',
        '15s',
        '--leader-elect-renew-deadline',
        '10s',
        '--leader-elect-retry-period',
        '500ms',
      ],
    });
    await expect.poll(() => op.metric('gw_operator_leader'), { timeout: 15_000 }).toBe(1);
    await apply(
      ns.name,
      manifest('ApiDefinition', 'stuck', {
        name: 'stuck',
        use_keyless: true,
        active: true,
        proxy: { listen_path: '/stuck', target_url: upstream.url, strip_listen_path: true },
      }),
    );
    const posts = () => proxy.requests.filter((r) => r.method === 'POST' && r.path === apiPath && r.body.includes(idFor(ns.name, 'stuck'))).length;
    await expect.poll(posts, { timeout: 30_000 }).toBe(1);

    // Someone else holds the Lease now (the API server would have let another replica take it).
    const now = new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
    await kubectl([
      'patch',
      'lease',
      'gw-operator-deposed',
      '-n',
      ns.name,
      '--type',
      'merge',
      '-p',
      JSON.stringify({ spec: { holderIdentity: 'usurper', renewTime: now, acquireTime: now, leaseDurationSeconds: 600 } }),
    ]);

    // The deposed replica exits (its probes stop answering) without waiting for the hung write.
    await expect
      .poll(
        async () =>
          await http(`http://127.0.0.1:${op.healthPort}/healthz`).then(
            () => 'up',
            () => 'down',
          ),
        { timeout: 60_000, interval: 200 },
      )
      .toBe('down');
    // Its health server closes as the shutdown starts; the log line reaches our pipe a moment later.
    await expect.poll(() => op.output(), { timeout: 15_000 }).toContain('leadership lost');
    expect(posts()).toBe(1); // the aborted write was not retried
    const status = await get('apidefinition', ns.name, 'stuck');
    expect(ready(status)?.reason).not.toBe('GatewayUnavailable'); // and no failure was written after the loss
    expect(status?.status?.latestTransaction).toBeUndefined();
  });
});
