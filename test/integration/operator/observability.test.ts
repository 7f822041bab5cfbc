// What an operator user watches, on the real control plane with a real gateway process: /metrics after a
// reconcile holds controller-runtime's and client-go's standard series with their label names (next to gw's own),
// and one reconcile's id is the same on its Event, its operator log line and the gateway's log line of its write.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { installCrds } from '../../support/crds.ts';
import { http, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { kubectl, useNamespace } from '../../support/kubectl.ts';
import { startOperator, type RunningOperator } from '../../support/operator.ts';
import { apply, manifest, synced, waitFor } from '../../support/resources.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

const CONTROLLER = 'ApiDefinition';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The JSON log lines of a process's output. */
const logLines = (output: string): Record<string, unknown>[] =>
  output.split('\n').flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });

describe('operator observability', () => {
  const ns = useNamespace('obs');
  let gw: RunningGateway;
  let op: RunningOperator;
  let upstream: Upstream;
  beforeAll(async () => {
    await installCrds();
    upstream = await startUpstream();
  });
  beforeEach(async () => {
    gw = await startGateway();
    op = await startOperator({ gateway: gw, namespace: ns.name, env: { GW_LOG_LEVEL: 'debug' } });
  });

  const createApi = async (name: string) => {
    await apply(
      ns.name,
      manifest('ApiDefinition', name, {
        name,
        use_keyless: true,
        active: true,
        proxy: { listen_path: `/${name}`, target_url: upstream.url, strip_listen_path: true },
      }),
    );
    await waitFor('apidefinition', ns.name, name, synced);
  };

  it('serves controller-runtime and client-go series with their label names after a reconcile, and gw_operator_* still', async () => {
    await createApi('metered');
    const text = (await http(`http://127.0.0.1:${op.metricsPort}/metrics`)).text;
    const series = (name: string) => text.split('\n').filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));

    expect(await op.metric('controller_runtime_reconcile_total', { controller: CONTROLLER, result: 'success' })).toBeGreaterThanOrEqual(1);
    for (const result of ['success', 'error', 'requeue', 'requeue_after'])
      expect(series('controller_runtime_reconcile_total')).toContainEqual(expect.stringContaining(`{controller="${CONTROLLER}",result="${result}"}`));
    expect(series('controller_runtime_reconcile_errors_total')).toContainEqual(
      expect.stringMatching(new RegExp(`^controller_runtime_reconcile_errors_total\\{controller="${CONTROLLER}"\\} `)),
    );
    expect(await op.metric('controller_runtime_reconcile_time_seconds_count', { controller: CONTROLLER })).toBeGreaterThanOrEqual(1);
    expect(await op.metric('workqueue_adds_total', { name: CONTROLLER })).toBeGreaterThanOrEqual(1);
    expect(await op.metric('workqueue_queue_duration_seconds_count', { name: CONTROLLER })).toBeGreaterThanOrEqual(1);
    expect(await op.metric('workqueue_work_duration_seconds_count', { name: CONTROLLER })).toBeGreaterThanOrEqual(1);
    for (const gauge of ['workqueue_depth', 'workqueue_unfinished_work_seconds', 'workqueue_longest_running_processor_seconds', 'workqueue_retries_total']) {
      expect(series(gauge)).toContainEqual(expect.stringContaining(`{name="${CONTROLLER}"}`));
    }
    const kubeconfig = JSON.parse((await kubectl(['config', 'view', '--minify', '-o', 'json'])).stdout) as { clusters: { cluster: { server: string } }[] };
    const host = new URL(kubeconfig.clusters[0]!.cluster.server).host;
    expect(await op.metric('rest_client_requests_total', { code: '200', method: 'GET', host })).toBeGreaterThanOrEqual(1);
    expect(series('rest_client_requests_total')).toContainEqual(
      expect.stringMatching(/^rest_client_requests_total\{code="\d{3}",method="[A-Z]+",host="[^"]+"\} \d+/),
    );
    // gw's own series are unchanged.
    expect(await op.metric('gw_operator_reconciles_total', { kind: CONTROLLER, outcome: 'success' })).toBeGreaterThanOrEqual(1);
    expect(await op.metric('gw_operator_gateway_writes_total', { kind: CONTROLLER })).toBeGreaterThanOrEqual(1);
    expect(await op.metric('gw_operator_queue_wait_seconds_count', { kind: CONTROLLER })).toBeGreaterThanOrEqual(1);
  });

  it('puts one reconcile id on its Event, its operator log line and the gateway log line of the write it made', async () => {
    await createApi('traced');
    const { stdout } = await kubectl(['get', 'events', '-n', ns.name, '--field-selector', 'involvedObject.name=traced,reason=Created', '-o', 'json']);
    const [created] = (JSON.parse(stdout) as { items: { metadata: { annotations?: Record<string, string> } }[] }).items;
    const reconcileID = created?.metadata.annotations?.['gw.io/reconcile-id'];
    expect(reconcileID).toMatch(UUID);

    const operatorLines = logLines(op.output()).filter((line) => line.reconcileID === reconcileID);
    expect(operatorLines).toContainEqual(expect.objectContaining({ controller: CONTROLLER, key: `${ns.name}/traced`, msg: 'reconcile done' }));
    expect(logLines(op.output()).filter((line) => line.msg === 'reconcile done' && line.reconcileID === reconcileID)).toHaveLength(1); // the id is this reconcile's alone
    await expect
      .poll(() => logLines(gw.output()).filter((line) => line.reconcileID === reconcileID && line.msg === 'management API write'))
      .toContainEqual(expect.objectContaining({ method: 'POST', path: expect.stringMatching(/^\/gw\/apis/) as unknown }));
  });
});
