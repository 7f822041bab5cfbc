// bench/operator: how fast the operator converges a burst of resources onto a gateway, and what a restart costs.
//
//   npm run bench:operator [-- --apis 1000 --policies 100 --ingresses 300 --namespaces 1 --no-floor --json]
//
// At scale (issue 26): --apis 10000 --policies 1000 --namespaces 100 --ingresses 0 --no-floor spreads the resources
// over 100 namespaces (API i and policy p in bench-<i mod 100>, a policy granting ten APIs of its own namespace,
// bench/operator-manifests.ts) with the operator watching every namespace. The operator always runs with leader
// election (--leader-elect) and the Lease is sampled every second while it converges (bench/lease-watch.ts): the renewal's age (now - renewTime, target below the renew deadline, 10 s) and any change of
// holder (leadership lost: the operator exits). Targets: RSS <= 500 MB; all Successful within 1.5x the apply time
// after the apply ended; restart <= 10 s with zero writes; no leader loss.
//
// On a local control plane (the one tests use) with a real gateway process:
//   1. floor     the unavoidable work without any operator, measured in the same run: `kubectl apply` of the same
//                number of objects into a namespace nobody watches, then a minimal hand-written sync of them (for
//                each: the gateway write, the finalizer patch and the status apply, as many at once as the
//                operator runs reconciles, no client rate limit; one gateway reload at the end).
//   2. converge  `kubectl apply` of APIS ApiDefinitions and POLICIES SecurityPolicies (each policy grants ten APIs,
//                so policies first wait for their APIs) into the operator's namespace; time from the start of the
//                apply until every resource reads Successful. Reconciles per second, gateway writes and reloads
//                from the operator's metrics; the operator's peak RSS (VmHWM). Then until it settles (queue empty:
//                the back-links of APIs that synced before their policies existed are written last).
//   3. restart   SIGTERM, start again: time from the spawn until every resource has been reconciled again, and
//                the gateway writes and cluster writes that took (targets: within 10 s, zero writes).
//   4. ingresses `kubectl apply` of INGRESSES Ingresses (class annotation, one host and path each) into the same
//                namespace; time until every ApiDefinition they make reads Successful; compared with the same
//                number of ApiDefinitions at the rate of phase 2 (no target: a figure to watch).
// Ratios: converge / floor (below 1: the operator overlaps its work with the apply better than apply-then-sync).
// Targets (issue 4): 1 000 APIs Successful within 30 s; re-verification within 10 s with zero writes; RSS < 200 MB.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { KubeClient } from '../src/kube/client.ts';
import type { KubeObject } from '../src/kube/object.ts';
import { GatewayClient } from '../src/mgmt/gateway.ts';
import { idFor } from '../src/operator/sync/ids.ts';
import { GwResources } from '../src/operator/cluster/resources.ts';
import { startControlPlane } from '../src/up/controlplane.ts';
import { installCrds } from '../src/up/crds.ts';
import { REPO_ROOT } from '../src/up/paths.ts';
import { freePorts } from '../src/up/ports.ts';
import { watchLease } from './lease-watch.ts';
import { benchManifests } from './operator-manifests.ts';

const SECRET = 'bench-secret';
const WORKERS = 16; // the operator's default GW_MAX_CONCURRENT_RECONCILES

const { values } = parseArgs({
  options: {
    apis: { type: 'string', default: '1000' },
    policies: { type: 'string', default: '100' },
    ingresses: { type: 'string', default: '300' },
    namespaces: { type: 'string', default: '1' },
    floor: { type: 'boolean', default: true },
    json: { type: 'boolean', default: false },
  },
  allowNegative: true,
});
const namespaceCount = Number(values.namespaces);
/** The operator's namespaces: `bench` alone, or bench-0 ... bench-<N-1>. */
const namespaces = namespaceCount > 1 ? Array.from({ length: namespaceCount }, (_, n) => `bench-${n}`) : ['bench'];
const LEASE_NAMESPACE = 'bench-lease';
const apiCount = Number(values.apis);
const policyCount = Number(values.policies);
const total = apiCount + policyCount;
const ingressCount = Number(values.ingresses);
const progress = (line: string): boolean => process.stderr.write(`${line}\n`);

const work = mkdtempSync(join(tmpdir(), 'gw-bench-operator-'));
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});
process.on('SIGINT', () => process.exit(130));

progress('starting the local control plane');
const plane = await startControlPlane({ dir: join(work, 'cluster') });
process.on('exit', () => {
  plane.kill();
  rmSync(work, { recursive: true, force: true });
});
const kubectlBin = join(plane.binDir, 'kubectl');
const kubectl = (args: string[], input?: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const child = execFile(kubectlBin, args, { env: { ...process.env, KUBECONFIG: plane.kubeconfig }, maxBuffer: 1 << 28 }, (error, stdout, stderr) =>
      error ? reject(new Error(`kubectl ${args.join(' ')}: ${stderr}`)) : resolve(stdout),
    );
    if (input !== undefined) child.stdin!.end(input);
  });
await installCrds({ kubectl: kubectlBin, kubeconfig: plane.kubeconfig });
const kube = KubeClient.fromKubeconfig({ kubeconfig: plane.kubeconfig, qps: 1e6, burst: 1e6, fieldManager: 'bench' });

/** A gateway process on a free port, its configuration and embedded store in its own directory. */
async function startGateway(name: string): Promise<{ url: string; process: ChildProcess }> {
  const [port] = (await freePorts(1)) as [number];
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'gw.json');
  writeFileSync(config, JSON.stringify({ listen_address: '127.0.0.1', listen_port: port, secret: SECRET, log_level: 'error' }));
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'gw'), 'gateway', '--config', config], { stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      const ready = await request(`${url}/ready`);
      await ready.body.dump();
      if (ready.statusCode === 200) return { url, process: child };
    } catch {
      if (i > 300) throw new Error(`gateway ${name} did not start`);
    }
    await sleep(50);
  }
}

async function createNamespaces(names: string[]): Promise<void> {
  await kubectl(
    ['apply', '-f', '-'],
    JSON.stringify({ apiVersion: 'v1', kind: 'List', items: names.map((name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })) }),
  );
}

/** kubectl apply of every manifest (into `namespace`, or the operator's namespaces); seconds it took. */
async function applyAll(namespace?: string): Promise<number> {
  await createNamespaces(namespace ? [namespace] : namespaces);
  const started = performance.now();
  await kubectl(
    ['apply', '-f', '-'],
    JSON.stringify({ apiVersion: 'v1', kind: 'List', items: benchManifests(apiCount, policyCount, namespace ? [namespace] : namespaces) }),
  );
  return (performance.now() - started) / 1000;
}

async function pool<T>(items: T[], concurrency: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
}

// 1. floor
let floorApply = 0;
let floorSync = 0;
if (values.floor) {
  progress(`floor: kubectl apply of ${total} objects, then a minimal direct sync (${WORKERS} at once)`);
  const floorGateway = await startGateway('floor-gateway');
  floorApply = await applyAll('bench-floor');
  const floorClient = new GatewayClient({ url: floorGateway.url, secret: SECRET });
  const floorObjects = [
    ...(await kube.list<KubeObject>(GwResources.apiDefinition, 'bench-floor')).items.map((o) => ({ o, resource: GwResources.apiDefinition })),
    ...(await kube.list<KubeObject>(GwResources.securityPolicy, 'bench-floor')).items.map((o) => ({ o, resource: GwResources.securityPolicy })),
  ];
  const floorStarted = performance.now();
  await pool(floorObjects, WORKERS, async ({ o, resource }) => {
    const id = idFor(o.metadata.namespace, o.metadata.name);
    const spec = (o as KubeObject & { spec: Record<string, unknown> }).spec;
    if (resource === GwResources.apiDefinition) await floorClient.putApi(id, { ...spec, api_id: id, org_id: 'bench' });
    else await floorClient.putPolicy(id, { ...spec, id, org_id: 'bench', access_rights: {} });
    await kube.mergePatch(resource, o.metadata.namespace, o.metadata.name, { metadata: { finalizers: ['bench/floor'] } });
    await kube.apply(
      resource,
      {
        metadata: { name: o.metadata.name, namespace: o.metadata.namespace },
        status: { latestTransaction: { status: 'Successful', time: new Date().toISOString() } },
      } as KubeObject,
      'status',
    );
  });
  await floorClient.reload();
  floorSync = (performance.now() - floorStarted) / 1000;
  floorGateway.process.kill('SIGTERM');
}

// 2. converge
const gateway = await startGateway('gateway');
const [metricsPort, healthPort] = (await freePorts(2)) as [number, number];
const operatorEnv = {
  ...process.env,
  KUBECONFIG: plane.kubeconfig,
  GW_OPERATOR_LICENSEKEY: 'bench',
  GW_MODE: 'ce',
  GW_URL: gateway.url,
  GW_AUTH: SECRET,
  GW_ORG: 'bench',
  // Every namespace when the floor's is gone (not made); otherwise the operator's own (the floor's is not watched).
  WATCH_NAMESPACE: values.floor ? namespaces.join(',') : '',
  GW_LOG_LEVEL: 'warn',
};
await createNamespaces([LEASE_NAMESPACE]);
/** Exit codes of operators that ended before the bench stopped them (1: leadership lost). */
const unexpectedExits: string[] = [];
const stopping = new WeakSet<ChildProcess>();
function stopOperator(child: ChildProcess): void {
  stopping.add(child);
  child.kill('SIGTERM');
}
function startOperator(): ChildProcess {
  const child = spawn(
    process.execPath,
    [
      join(REPO_ROOT, 'bin', 'gw'),
      'operator',
      '--metrics-bind-address',
      `127.0.0.1:${metricsPort}`,
      '--health-probe-bind-address',
      `127.0.0.1:${healthPort}`,
      '--leader-elect',
      '--leader-election-namespace',
      LEASE_NAMESPACE,
    ],
    { env: operatorEnv, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  children.push(child);
  child.once('exit', (code, signal) => {
    if (!stopping.has(child)) unexpectedExits.push(`exit ${code ?? signal}`);
  });
  return child;
}

async function metric(name: string, labels: Record<string, string> = {}): Promise<number> {
  const response = await request(`http://127.0.0.1:${metricsPort}/metrics`);
  const text = await response.body.text();
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = new RegExp(`^${name}(\\{[^}]*\\})? ([0-9.e+-]+)$`).exec(line);
    if (match && Object.entries(labels).every(([k, v]) => (match[1] ?? '').includes(`${k}="${v}"`))) sum += Number(match[2]);
  }
  return sum;
}

async function metricsUp(): Promise<void> {
  for (;;) {
    try {
      await metric('gw_operator_reconciles_total');
      return;
    } catch {
      await sleep(20);
    }
  }
}

/** The operator's resources (in its namespaces) of one kind. */
async function listOwn<T extends KubeObject>(resource: typeof GwResources.apiDefinition, query: Record<string, string> = {}): Promise<T[]> {
  if (namespaces.length === 1) return (await kube.list<T>(resource, namespaces[0], query)).items;
  const own = new Set(namespaces);
  return (await kube.list<T>(resource, undefined, query)).items.filter((o) => own.has(o.metadata.namespace ?? ''));
}

/** Resources of the bench namespaces reading Successful. */
async function successful(): Promise<number> {
  let count = 0;
  for (const resource of [GwResources.apiDefinition, GwResources.securityPolicy]) {
    for (const o of await listOwn<KubeObject & { status?: { latestTransaction?: { status?: string } } }>(resource)) {
      if (o.status?.latestTransaction?.status === 'Successful') count++;
    }
  }
  return count;
}

const peakRssMb = (pid: number): number => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const currentRssMb = (pid: number): number => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

progress(`converge: kubectl apply of ${apiCount} ApiDefinitions and ${policyCount} SecurityPolicies into the operator's ${namespaces.length} namespace(s)`);
let operator = startOperator();
await metricsUp();
const lease = watchLease(kube, LEASE_NAMESPACE, 'gw-operator.gw.io');
const convergeStarted = performance.now();
const applying = applyAll();
let applySeconds = 0;
void applying.then((seconds) => (applySeconds = seconds));
// Listing thousands of objects is work for the API server too: polled less often at scale.
const pollMs = total > 2000 ? 2000 : 250;
/** The operator's V8 heap in use, its peak over the samples (what RSS holds beyond it is heap slack and buffers). */
let peakHeapUsedMb = 0;
for (let last = -1; ;) {
  await sleep(pollMs);
  peakHeapUsedMb = Math.max(peakHeapUsedMb, (await metric('nodejs_heap_size_used_bytes')) / 2 ** 20);
  const done = await successful();
  if (done !== last) progress(`  ${done}/${total} Successful after ${((performance.now() - convergeStarted) / 1000).toFixed(1)} s`);
  last = done;
  if (done === total) break;
}
const convergeSeconds = (performance.now() - convergeStarted) / 1000;
await applying;
// Settled: the back-links of APIs synced before their policies existed are written too; the queue is empty and
// no reconcile has run for a second.
for (let previous = -1; ;) {
  const count = await metric('gw_operator_reconciles_total');
  if (count === previous && (await metric('gw_operator_queue_depth')) === 0) break;
  previous = count;
  await sleep(1000);
}
const settledSeconds = (performance.now() - convergeStarted) / 1000 - 1;
const reconciles = await metric('gw_operator_reconciles_total');
const writes = await metric('gw_operator_gateway_writes_total');
const convergePeakRss = peakRssMb(operator.pid!);
const settledRss = currentRssMb(operator.pid!);
await lease.stop();

// 3. restart
progress('restart: SIGTERM, start again, wait until every resource has been reconciled again');
const before = new Map<string, KubeObject>();
for (const resource of [GwResources.apiDefinition, GwResources.securityPolicy]) {
  for (const o of await listOwn(resource)) before.set(`${resource.kind}/${o.metadata.namespace}/${o.metadata.name}`, o);
}
stopOperator(operator);
await new Promise((resolve) => operator.once('exit', resolve));
const restartStarted = performance.now();
operator = startOperator();
await metricsUp();
for (;;) {
  const succeeded = await metric('gw_operator_reconciles_total', { outcome: 'success' });
  const depth = await metric('gw_operator_queue_depth');
  if (succeeded >= total && depth === 0) break;
  await sleep(50);
}
const restartSeconds = (performance.now() - restartStarted) / 1000;
const restartWrites = await metric('gw_operator_gateway_writes_total');
let clusterWrites = 0;
for (const resource of [GwResources.apiDefinition, GwResources.securityPolicy]) {
  for (const o of await listOwn(resource)) {
    const previous = before.get(`${resource.kind}/${o.metadata.namespace}/${o.metadata.name}`);
    if (previous?.metadata.resourceVersion === o.metadata.resourceVersion) continue;
    if (clusterWrites++ < 3)
      progress(
        `  written again: ${resource.kind} ${o.metadata.name}\n    before ${JSON.stringify((previous as { status?: unknown } | undefined)?.status)}\n    after  ${JSON.stringify((o as { status?: unknown }).status)}`,
      );
  }
}
const restartPeakRss = peakRssMb(operator.pid!);

// 4. ingresses
let ingressSeconds = 0;
let ingressApplySeconds = 0;
const sameApisSeconds = (convergeSeconds / total) * ingressCount;
if (ingressCount > 0) {
  progress(`ingresses: kubectl apply of ${ingressCount} Ingresses (one host and path each)`);
  const ingresses = Array.from({ length: ingressCount }, (_, i) => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: `ing-${i}`, annotations: { 'kubernetes.io/ingress.class': 'gw' } },
    spec: {
      rules: [
        { host: `ing-${i}.bench.example`, http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] } },
      ],
    },
  }));
  const ingressStarted = performance.now();
  await kubectl(['apply', '-n', namespaces[0]!, '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: ingresses }));
  ingressApplySeconds = (performance.now() - ingressStarted) / 1000;
  for (let last = -1; ;) {
    const made = (
      await kube.list<KubeObject & { status?: { latestTransaction?: { status?: string } } }>(GwResources.apiDefinition, namespaces[0], {
        labelSelector: 'gw.gw.io/ingress',
      })
    ).items;
    const done = made.filter((o) => o.status?.latestTransaction?.status === 'Successful').length;
    if (done !== last) progress(`  ${done}/${ingressCount} Ingress APIs Successful after ${((performance.now() - ingressStarted) / 1000).toFixed(1)} s`);
    last = done;
    if (done === ingressCount) break;
    await sleep(250);
  }
  ingressSeconds = (performance.now() - ingressStarted) / 1000;
}
stopOperator(operator);
gateway.process.kill('SIGTERM');

const floorSeconds = floorApply + floorSync;
const results = {
  apis: apiCount,
  policies: policyCount,
  namespaces: namespaces.length,
  floor: { apply_s: floorApply, direct_sync_s: floorSync, total_s: floorSeconds },
  converge: {
    seconds: convergeSeconds,
    settled_s: settledSeconds,
    kubectl_apply_s: applySeconds,
    reconciles,
    reconciles_per_s: reconciles / convergeSeconds,
    gateway_writes: writes,
    peak_rss_mb: convergePeakRss,
    peak_heap_used_mb: peakHeapUsedMb,
    settled_rss_mb: settledRss,
    ratio_vs_floor: values.floor ? convergeSeconds / floorSeconds : null,
    after_apply_s: convergeSeconds - applySeconds,
    after_apply_vs_apply: (convergeSeconds - applySeconds) / applySeconds,
  },
  lease: { samples: lease.samples, max_renew_age_s: lease.maxRenewAgeS, holders: lease.holders.size, operator_exits: unexpectedExits },
  restart: { seconds: restartSeconds, gateway_writes: restartWrites, cluster_writes: clusterWrites, peak_rss_mb: restartPeakRss },
  ingresses: { count: ingressCount, seconds: ingressSeconds, kubectl_apply_s: ingressApplySeconds, ratio_vs_apidefinitions: ingressSeconds / sameApisSeconds },
};
const dir = join(REPO_ROOT, 'bench', 'results');
mkdirSync(dir, { recursive: true });
const file = join(dir, `operator-${new Date().toISOString().replaceAll(':', '-')}.json`);
writeFileSync(file, JSON.stringify(results, null, 2));
if (values.json) {
  console.log(JSON.stringify(results, null, 2));
} else {
  const f = (n: number, d = 1): string => n.toFixed(d);
  console.log(`bench/operator: ${apiCount} ApiDefinitions + ${policyCount} SecurityPolicies (each granting 10 APIs) in ${namespaces.length} namespace(s)`);
  if (values.floor) console.log(`floor (no operator)      kubectl apply ${f(floorApply)} s + direct sync ${f(floorSync)} s = ${f(floorSeconds)} s`);
  console.log(
    `converge                 all Successful ${f(convergeSeconds)} s after the apply started (kubectl apply itself: ${f(applySeconds)} s)  target <= 30 s`,
  );
  console.log(
    `                         ${f(convergeSeconds - applySeconds)} s after the apply ended: ${f((convergeSeconds - applySeconds) / applySeconds, 2)}x the apply time  target <= 1.5x`,
  );
  console.log(`                         settled (back-links written, queue empty) after ${f(settledSeconds)} s`);
  console.log(
    `                         ${values.floor ? `${f(convergeSeconds / floorSeconds, 2)}x the floor; ` : ''}${reconciles} reconciles (${f(reconciles / convergeSeconds, 0)}/s); ${writes} gateway writes for ${total} resources`,
  );
  console.log(
    `                         operator RSS peak ${f(convergePeakRss, 0)} MB (V8 heap in use at most ${f(peakHeapUsedMb, 0)} MB), settled ${f(settledRss, 0)} MB  target < 200 MB (1 100 resources), <= 500 MB (11 000)`,
  );
  console.log(
    `leader Lease             ${lease.samples} samples while converging: renewed at most ${f(lease.maxRenewAgeS)} s before a sample (renew deadline 10 s), ${lease.holders.size} holder(s), operator exits: ${unexpectedExits.join(', ') || 'none'}  target: 1 holder, no exit`,
  );
  console.log(`restart                  re-verified ${total} resources in ${f(restartSeconds)} s from spawn  target <= 10 s`);
  console.log(`                         ${restartWrites} gateway writes, ${clusterWrites} cluster writes  target 0; RSS peak ${f(restartPeakRss, 0)} MB`);
  if (ingressCount > 0)
    console.log(
      `ingresses                ${ingressCount} Ingresses served (their ApiDefinitions Successful) ${f(ingressSeconds)} s after the apply started (kubectl apply itself: ${f(ingressApplySeconds)} s)`,
    );
  if (ingressCount > 0)
    console.log(
      `                         ${f(ingressSeconds / sameApisSeconds, 2)}x as long as ${ingressCount} resources at the converge rate (${f(sameApisSeconds)} s)`,
    );
  console.log(`results: ${file}`);
}
await plane.stop();
process.exit(0);
