// The chart as users run it, on a real node: a private control plane plus containerd, kubelet, kube-proxy and the
// CNI bridge (src/up/node/node.ts), the product image built here without a registry (src/up/image/build-image.ts) and
// imported. `helm install` with the chart's defaults -> the operator Deployment's pod runs that image, elects a
// leader, serves the admission webhook through its Service (the apiserver's calls go through kube-proxy), and syncs
// config/samples to a gateway that runs as a pod behind a NodePort Service; requests reach it through kube-proxy on
// the node address. Then what operators do: helm upgrade with a changed value, pod deletion (a new leader within
// the lease duration), kubectl rollout restart, helm uninstall. Security settings, probes and metrics are observed
// on the running pods. Last, the teardown leaves the host exactly as it found it.
//
// Skips, printing why, on a machine without what a node needs (src/up/node/host-features.ts).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/up/paths.ts';
import { processesOf } from '../../src/up/node/host-state.ts';
import { http } from '../support/gateway.ts';
import { liveNode } from '../../src/up/node/node-lock.ts';
import { undoStaleNode } from '../../src/up/node/node.ts';
import { hostSnapshot, nodeSkipReason, startNodeCluster, type HostSnapshot, type NodeCluster } from '../support/node-cluster.ts';
import { echoWorkload, gatewayWorkload, GATEWAY_PORT, GATEWAY_SECRET, WORKLOAD_NAMESPACE } from '../../src/up/node-workloads.ts';
import { takeNodeTurn } from '../support/node-turn.ts';
import { waitUntil } from '../support/wait.ts';

const RELEASE = 'gw-operator';
const NS = 'gw-operator-system';
const DEPLOYMENT = 'gw-operator-controller-manager';
const skipReason = nodeSkipReason();
if (skipReason) process.stderr.write(`node e2e skipped: ${skipReason}\n`);

const snapshot = hostSnapshot;

describe.skipIf(skipReason !== null)('the chart on a real node', () => {
  let env: NodeCluster;
  let before: HostSnapshot;
  let nodePort: number;
  let releaseTurn: (() => void) | undefined;
  const kubectl = (args: string[], input?: string): Promise<string> =>
    env.kubectl(args, input === undefined ? {} : { input }).then((result) => result.stdout.trim());
  const json = async <T>(args: string[]): Promise<T> => JSON.parse(await kubectl([...args, '-o', 'json'])) as T;
  const viaNode = (path: string): Promise<{ status: number; text: string; json<T>(): T }> => http(`http://${env.node.ip}:${nodePort}${path}`);
  const operatorPods = async (): Promise<{ name: string; ip: string; ready: boolean }[]> => {
    const list = await json<{
      items: { metadata: { name: string; deletionTimestamp?: string }; status: { podIP?: string; conditions?: { type: string; status: string }[] } }[];
    }>(['get', 'pods', '-n', NS, '-l', 'control-plane=controller-manager']);
    return list.items
      .filter((pod) => !pod.metadata.deletionTimestamp)
      .map((pod) => ({
        name: pod.metadata.name,
        ip: pod.status.podIP ?? '',
        ready: pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false,
      }));
  };
  const leader = (): Promise<string> => kubectl(['get', 'lease', 'gw-operator.gw.io', '-n', NS, '-o', 'jsonpath={.spec.holderIdentity}']).catch(() => '');
  const metricsToken = async (): Promise<string> => kubectl(['create', 'token', 'prometheus', '-n', NS]);
  const scrape = async (token?: string): Promise<{ status: number; text: string }> => {
    const ip = await kubectl(['get', 'service', `${DEPLOYMENT}-metrics-service`, '-n', NS, '-o', 'jsonpath={.spec.clusterIP}']);
    const response = await request(`https://${ip}:8443/metrics`, {
      dispatcher: new Agent({ connect: { rejectUnauthorized: false } }),
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return { status: response.statusCode, text: await response.body.text() };
  };

  beforeAll(async () => {
    releaseTurn = await takeNodeTurn((line) => process.stderr.write(`${line}\n`));
    const undone = await undoStaleNode(); // a killed earlier run's node: the host as it is without one is the baseline
    if (undone) process.stderr.write(`undid the stale test node of a killed run (${undone})\n`);
    before = snapshot();
    env = await startNodeCluster((line) => process.stderr.write(`${line}\n`));
    process.stderr.write(
      `node e2e timings: image ${env.timings.imageSeconds} s (build or cache), control plane ${env.timings.controlPlaneSeconds} s, node ${env.timings.nodeSeconds} s (${JSON.stringify(env.node.laps)})\n`,
    );
  });

  afterAll(async () => {
    await env?.stop();
    releaseTurn?.();
  });

  it('helm install with the defaults: the operator pod runs the image as non-root on a read-only root filesystem and elects a leader', async () => {
    await kubectl(['create', 'namespace', WORKLOAD_NAMESPACE]);
    await kubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: echoWorkload() }));
    const echoIp = await kubectl(['get', 'service', 'echo', '-n', WORKLOAD_NAMESPACE, '-o', 'jsonpath={.spec.clusterIP}']);
    // No cluster DNS: the gateway's documented fallback maps the Service name to its Service IP (kube-proxy routes it).
    await kubectl(
      ['apply', '-f', '-'],
      JSON.stringify({ apiVersion: 'v1', kind: 'List', items: gatewayWorkload({ [`echo.${WORKLOAD_NAMESPACE}.svc`]: echoIp }) }),
    );
    const gatewayIp = await kubectl(['get', 'service', 'gateway', '-n', WORKLOAD_NAMESPACE, '-o', 'jsonpath={.spec.clusterIP}']);
    nodePort = Number(await kubectl(['get', 'service', 'gateway', '-n', WORKLOAD_NAMESPACE, '-o', 'jsonpath={.spec.ports[0].nodePort}']));

    const install = await env.helm(['install', RELEASE, join(REPO_ROOT, 'charts', 'gw-operator'), '-n', NS, '--create-namespace']);
    expect(install.stdout).toContain('STATUS: deployed');
    await kubectl([
      'create',
      'secret',
      'generic',
      'gw-operator-conf',
      '-n',
      NS,
      '--from-literal=GW_OPERATOR_LICENSEKEY=node-e2e',
      '--from-literal=GW_MODE=ce',
      `--from-literal=GW_URL=http://${gatewayIp}:${GATEWAY_PORT}`,
      `--from-literal=GW_AUTH=${GATEWAY_SECRET}`,
      '--from-literal=GW_ORG=node-e2e',
    ]);
    await kubectl(['rollout', 'status', `deployment/${DEPLOYMENT}`, '-n', NS, '--timeout=180s']);
    await kubectl(['rollout', 'status', 'deployment/gateway', '-n', WORKLOAD_NAMESPACE, '--timeout=180s']);

    const [pod] = await operatorPods();
    const spec = await json<{ spec: { containers: { image: string }[] }; status: { containerStatuses: { imageID: string; restartCount: number }[] } }>([
      'get',
      'pod',
      pod!.name,
      '-n',
      NS,
    ]);
    expect(spec.spec.containers[0]!.image).toBe('gw:v1.0.0');
    // Observed inside the running container: uid/gid, and a write to the root filesystem refused.
    const inside = await kubectl([
      'exec',
      '-n',
      NS,
      pod!.name,
      '-c',
      'manager',
      '--',
      'node',
      '-e',
      "const fs=require('fs');let w;try{fs.writeFileSync('/app/probe','x');w='written'}catch(e){w=e.code}console.log(process.getuid(),process.getgid(),w)",
    ]);
    expect(inside).toBe('1000 1000 EROFS');
    // The same image runs every command: the operator here, the gateway pod below, the dashboard's entry point.
    expect(await kubectl(['exec', '-n', NS, pod!.name, '-c', 'manager', '--', '/app/bin/gw', 'dashboard', '--help'])).toContain('usage: gw dashboard');
    // The probes the kubelet runs answer on the pod's own address.
    expect((await http(`http://${pod!.ip}:8081/healthz`)).status).toBe(200);
    expect((await http(`http://${pod!.ip}:8081/readyz`)).status).toBe(200);
    expect(spec.status.containerStatuses[0]!.restartCount).toBe(0);
    // ...and the kubelet does probe them: its own counters of successful probes of this pod's manager container
    // (the liveness probe starts after the chart's initial delay).
    const succeeded = (text: string, probeType: string): boolean =>
      new RegExp(
        `^prober_probe_total\\{[^}]*container="manager"[^}]*pod="${pod!.name}"[^}]*probe_type="${probeType}"[^}]*result="successful"[^}]*\\} [1-9]`,
        'm',
      ).test(text);
    await waitUntil(
      "the kubelet's successful liveness and readiness probes of the manager",
      async () => {
        const probes = await request(`https://${env.node.ip}:10250/metrics/probes`, { dispatcher: new Agent({ connect: { rejectUnauthorized: false } }) });
        const text = await probes.body.text();
        return succeeded(text, 'Liveness') && succeeded(text, 'Readiness');
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    expect(
      await waitUntil('the operator pod to hold the Lease', async () => ((await leader()).startsWith(`${pod!.name}_`) ? true : undefined), {
        timeoutMs: 30_000,
      }),
    ).toBe(true);
  });

  it('the apiserver calls the webhook through its Service; config/samples syncs to the gateway pod, reached through kube-proxy on the node address', async () => {
    await kubectl(['create', 'namespace', 'samples']);
    const invalid = await env.kubectl(['apply', '-n', 'samples', '-f', join(REPO_ROOT, 'config', 'samples', 'invalid', 'httpbin_invalid.yaml')], {
      allowFailure: true,
    });
    expect(invalid.code).not.toBe(0);
    expect(invalid.stderr).toContain('spec.use_keyless: Forbidden: a keyless API cannot also use standard auth');

    await kubectl(['apply', '-n', 'samples', '-f', join(REPO_ROOT, 'config', 'samples', 'httpbin.yaml')]);
    await waitUntil(
      'the httpbin sample to be Successful',
      async () => (await kubectl(['get', 'apidefinition', 'httpbin', '-n', 'samples', '-o', 'jsonpath={.status.latestTransaction.status}'])) === 'Successful',
      { timeoutMs: 60_000 },
    );
    const sample = await waitUntil(
      'the sample through the NodePort',
      async () => {
        const response = await viaNode('/httpbin/get?sample=1');
        return response.status === 200 ? response : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    expect(sample.json<{ url: string; server: string }>()).toMatchObject({ url: '/get?sample=1', server: 'sample-upstream' });
  });

  it('an upstream named <service>.<namespace>.svc:<port> is reached through the Service', async () => {
    const api = {
      apiVersion: 'gw.gw.io/v1alpha1',
      kind: 'ApiDefinition',
      metadata: { name: 'echo-svc', namespace: 'samples' },
      spec: {
        name: 'echo-svc',
        protocol: 'http',
        active: true,
        use_keyless: true,
        proxy: { target_url: `echo.${WORKLOAD_NAMESPACE}.svc:8080`, listen_path: '/echo-svc/', strip_listen_path: true },
      },
    };
    await kubectl(['apply', '-f', '-'], JSON.stringify(api));
    const answer = await waitUntil(
      'the svc-form API through the NodePort',
      async () => {
        const response = await viaNode('/echo-svc/hello');
        return response.status === 200 ? response.json<{ url: string; host: string; server: string }>() : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(answer).toEqual({ url: '/hello', host: `echo.${WORKLOAD_NAMESPACE}.svc:8080`, server: 'echo' });
  });

  it('serves HTTPS metrics through its Service to a ServiceAccount token allowed to read them, and counts the webhook calls', async () => {
    expect((await scrape()).status).toBe(401);
    await kubectl(['create', 'serviceaccount', 'prometheus', '-n', NS]);
    await kubectl(['create', 'clusterrolebinding', 'node-e2e-prometheus', '--clusterrole=gw-operator-metrics-reader', `--serviceaccount=${NS}:prometheus`]);
    const scraped = await scrape(await metricsToken());
    expect(scraped.status).toBe(200);
    expect(scraped.text).toMatch(/^gw_operator_leader 1$/m);
    expect(scraped.text).toMatch(/^gw_operator_webhook_requests_total\{webhook="validate-gw-gw-io-v1alpha1-apidefinition",allowed="false"\} 1$/m);
  });

  it('helm upgrade with a changed value runs two pods; deleting the leader hands the Lease to another pod within the lease duration', async () => {
    const upgrade = await env.helm(['upgrade', RELEASE, join(REPO_ROOT, 'charts', 'gw-operator'), '-n', NS, '--reuse-values', '--set', 'replicaCount=2']);
    expect(upgrade.stdout).toContain('REVISION: 2');
    await kubectl(['rollout', 'status', `deployment/${DEPLOYMENT}`, '-n', NS, '--timeout=180s']);
    await waitUntil('two Ready operator pods', async () => (await operatorPods()).filter((pod) => pod.ready).length === 2, {
      timeoutMs: 120_000,
      intervalMs: 250,
    });
    const holder = (await leader()).split('_')[0]!;
    const leaseSeconds = Number(await kubectl(['get', 'lease', 'gw-operator.gw.io', '-n', NS, '-o', 'jsonpath={.spec.leaseDurationSeconds}']));
    expect(leaseSeconds).toBeGreaterThan(0);
    await kubectl(['delete', 'pod', holder, '-n', NS, '--wait=false']);
    const next = await waitUntil(
      `a new leader within the lease duration (${leaseSeconds} s)`,
      async () => {
        const now = (await leader()).split('_')[0];
        return now && now !== holder ? now : undefined;
      },
      { timeoutMs: leaseSeconds * 1000, intervalMs: 100 },
    );
    expect((await operatorPods()).map((pod) => pod.name)).toContain(next);
  });

  it('kubectl rollout restart replaces the pods and the new leader keeps syncing', async () => {
    const old = (await operatorPods()).map((pod) => pod.name);
    await kubectl(['rollout', 'restart', `deployment/${DEPLOYMENT}`, '-n', NS]);
    await kubectl(['rollout', 'status', `deployment/${DEPLOYMENT}`, '-n', NS, '--timeout=180s']);
    const current = await waitUntil(
      'only new operator pods',
      async () => {
        const pods = await operatorPods();
        return pods.length === 2 && pods.every((pod) => !old.includes(pod.name)) ? pods : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 250 },
    );
    await waitUntil(
      'a new pod to lead',
      async () => {
        const holder = (await leader()).split('_')[0];
        return current.some((pod) => pod.name === holder);
      },
      { timeoutMs: 60_000 },
    );
    // Just after a restart kube-proxy may still send the webhook's Service to a pod that is gone, and the apiserver
    // refuses the write (failed calling webhook): a client retries that, as kubectl users do. Anything else fails.
    await waitUntil(
      'the patch admitted through the webhook Service',
      async () => {
        try {
          await kubectl([
            'patch',
            'apidefinition',
            'echo-svc',
            '-n',
            'samples',
            '--type=merge',
            '-p',
            JSON.stringify({ spec: { proxy: { listen_path: '/echo-moved/' } } }),
          ]);
          return true;
        } catch (error) {
          if (/failed calling webhook/.test(String(error))) return undefined;
          throw error;
        }
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    const moved = await waitUntil(
      'the change synced by the new leader',
      async () => {
        const response = await viaNode('/echo-moved/x');
        return response.status === 200 ? response.json<{ url: string }>() : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(moved.url).toBe('/x');
  });

  it("helm uninstall removes the release's pods, Services and webhooks", async () => {
    await kubectl(['delete', 'clusterrolebinding', 'node-e2e-prometheus']);
    const uninstall = await env.helm(['uninstall', RELEASE, '-n', NS, '--wait']);
    expect(uninstall.stdout).toContain('uninstalled');
    await waitUntil('no operator pods', async () => (await operatorPods()).length === 0, { timeoutMs: 120_000, intervalMs: 250 });
    expect(
      await kubectl([
        'get',
        'services,validatingwebhookconfigurations,mutatingwebhookconfigurations',
        '-A',
        '-l',
        `app.kubernetes.io/instance=${RELEASE}`,
        '-o',
        'name',
      ]),
    ).toBe('');
  });

  it('stopping the node leaves the host as it was (processes, mounts, links, rules, sysctls, cgroups), and so does undoing a node whose run was killed', async () => {
    const nodeDir = env.node.dir;
    await env.node.stop();
    expect(snapshot()).toEqual(before);
    expect(processesOf([], nodeDir)).toEqual([]);

    // A run killed while its node runs pods: the node's owner dies with SIGKILL, nothing of it is stopped.
    const crashDir = join(env.dir, 'crashed-node');
    const child = spawn(
      process.execPath,
      [
        join(REPO_ROOT, 'test', 'support', 'node-crash-child.ts'),
        JSON.stringify({
          dir: crashDir,
          cluster: { kubeconfig: env.cluster.kubeconfig, server: env.cluster.server, binDir: env.cluster.binDir },
          nodeBinDir: env.nodeBinDir,
          images: [env.image.archive],
        }),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let said = '';
    child.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()));
    await waitUntil("the crash child's node to be ready", () => said.includes('ready'), { timeoutMs: 180_000, intervalMs: 250 });
    await waitUntil(
      "the workloads' pods running on it",
      async () =>
        (await kubectl(['get', 'pods', '-n', WORKLOAD_NAMESPACE, '--field-selector=status.phase=Running', '-o', 'name'])).split('\n').filter(Boolean).length >=
        2,
      { timeoutMs: 120_000, intervalMs: 500 },
    );
    child.kill('SIGKILL');
    await waitUntil('the crash child to be gone', () => child.exitCode !== null || child.signalCode !== null);
    expect(processesOf([], crashDir).length).toBeGreaterThan(0); // containerd, kubelet, shims, ... still run
    expect(liveNode()).toBeNull(); // its owner is dead: stale, not live
    expect(await undoStaleNode()).toBe(crashDir);
    expect(snapshot()).toEqual(before);
    expect(processesOf([], crashDir)).toEqual([]);
    await env.stop();
  });
});
