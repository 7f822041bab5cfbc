// A real Kubernetes node joined to the local control plane (src/up/controlplane.ts): containerd and runc from
// Debian, kubelet, kube-proxy and kube-scheduler from scripts/build-node.sh, a second kube-controller-manager for
// the workload controllers (Deployments, ReplicaSets, EndpointSlices) the control plane does not run, the CNI
// bridge network, and the images imported into containerd (no registry: pods use the imported images as they are).
// The recipe (a real kubelet node on one machine, as the chart's users run it) is this file's own: every host change is recorded in
// <dir>/node-state.json BEFORE it is made, so src/up/node/teardown.ts can undo it even after a crash, and one node
// per machine (src/up/node/node-lock.ts): a stale node is undone first, a live one makes the start fail with
// NodeUnavailableError.
//
// Pods reach the apiserver (which listens on loopback only) through the `kubernetes` Service: its EndpointSlice
// points at a forwarder on the node address. There is no cluster DNS: `<service>.<namespace>.svc` names resolve
// through the gateway's upstream_hosts (its documented fallback) to Service IPs, which kube-proxy routes.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { cacheRoot } from '../paths.ts';
import { buildOciArchive } from '../image/oci-archive.ts';
import { CGROUP_V1_CONTROLLERS, CNI_BIN_DIR, missingNodeFeatures, RUNC } from './host-features.ts';
import { hostState } from './host-state.ts';
import {
  APISERVER_NODE_PORT,
  cniConfig,
  containerdConfig,
  KUBE_PROXY_HEALTHZ_PORT,
  KUBE_PROXY_METRICS_PORT,
  kubeletConfig,
  NODE_BRIDGE,
  NODE_IP,
  NODE_NAME,
  nodePaths,
  PAUSE_IMAGE,
  POD_CIDR,
} from './node-config.ts';
import { liveNode, releaseLock, staleNode, writeLock } from './node-lock.ts';
import { readNodeState, teardownNode, writeNodeState, type NodeState } from './teardown.ts';

export class NodeUnavailableError extends Error {
  readonly code = 'NODE_UNAVAILABLE';
  readonly missing: string[];
  constructor(missing: string[]) {
    super(`a test node cannot start on this machine; missing: ${missing.join('; ')}`);
    this.missing = missing;
  }
}

export interface NodeOptions {
  /** The node's state directory (containerd's root, the kubelet's, logs, node-state.json); created when missing. */
  dir: string;
  /** The control plane to join: its admin kubeconfig, apiserver URL and the directory holding kubectl and controlplane. */
  cluster: { kubeconfig: string; server: string; binDir: string };
  /** Directory of scripts/build-node.sh's output. */
  nodeBinDir: string;
  /** OCI archives to import into containerd (the pause image is always imported). */
  images: string[];
  log?: (line: string) => void;
  /** How long the Node may take to become Ready. Default 120 s. */
  readyTimeoutMs?: number;
  /** The node outlives this process (`cluster:up`); default false: it is stale once this process is gone. */
  outlivesStarter?: boolean;
}

export interface TestNode {
  name: string;
  ip: string;
  dir: string;
  /** Seconds from the start of startNode to each step's end. */
  laps: Record<string, number>;
  stop(): Promise<void>;
}

function run(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
}

/** Undoes the node a killed run left behind (its owner is gone), if any; returns its directory. */
export async function undoStaleNode(): Promise<string | null> {
  const stale = staleNode();
  if (!stale) return null;
  const { errors } = await teardownNode(stale);
  if (errors.length > 0) throw new Error(`undoing the stale node in ${stale}: ${errors.join('; ')}`);
  releaseLock(stale);
  return stale;
}

/** Takes the machine's node lock for dir; undoes a stale node first; refuses while another node lives. */
async function acquireLock(dir: string, owner: number | null): Promise<void> {
  const live = liveNode();
  if (live && live !== dir)
    throw new NodeUnavailableError([`another test node is running on this machine (state in ${live}; stop it with npm run cluster:down)`]);
  await undoStaleNode();
  writeLock(dir, owner);
}

/** The pause image from the node build's pause binary, cached by the binary's hash. */
function pauseImage(nodeBinDir: string): string {
  const binary = join(nodeBinDir, 'pause');
  const key = createHash('sha256').update(readFileSync(binary)).update(PAUSE_IMAGE).digest('hex').slice(0, 16);
  const archive = join(cacheRoot(), 'image', `pause-${key}.oci.tar`);
  if (existsSync(archive)) return archive;
  mkdirSync(join(cacheRoot(), 'image'), { recursive: true });
  const staging = mkdtempSync(join(cacheRoot(), 'image', '.pause-'));
  try {
    writeFileSync(join(staging, 'pause'), readFileSync(binary), { mode: 0o755 });
    buildOciArchive({ reference: PAUSE_IMAGE, out: archive, layers: [{ directory: staging }], config: { entrypoint: ['/pause'], user: '65535:65535' } });
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return archive;
}

/** The v1 cgroup path of this process's memory controller: the kubelet's cgroups nest below it. */
function ownMemoryCgroup(): string {
  const line = readFileSync('/proc/self/cgroup', 'utf8')
    .split('\n')
    .find((entry) => entry.split(':')[1] === 'memory');
  return line ? line.split(':')[2]! : '/';
}

function probe(url: string, ca: Buffer, token: string): Promise<boolean> {
  return new Promise((resolveProbe) => {
    const req = request(url, { ca, headers: { authorization: `Bearer ${token}` }, timeout: 2_000 }, (res) => {
      res.resume();
      resolveProbe(res.statusCode === 200);
    });
    req.on('error', () => resolveProbe(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

export async function startNode(options: NodeOptions): Promise<TestNode> {
  const log = options.log ?? (() => {});
  const started = Date.now();
  const laps: Record<string, number> = {};
  const lap = (name: string): void => {
    laps[name] = Math.round((Date.now() - started) / 100) / 10;
    log(`  ${name} (${laps[name]} s)`);
  };
  const missing = missingNodeFeatures();
  if (missing.length > 0) throw new NodeUnavailableError(missing);
  const dir = options.dir;
  await acquireLock(dir, options.outlivesStarter ? null : process.pid);
  if (readNodeState(dir)) await teardownNode(dir); // leftovers of an earlier run in the same directory
  const paths = nodePaths(dir);
  rmSync(dir, { recursive: true, force: true });
  for (const d of [dir, paths.logs, paths.cniConfDir, paths.cniState, paths.kubeletRoot, paths.podLogs, paths.containerdRoot, paths.containerdState])
    mkdirSync(d, { recursive: true });
  const kubectl = join(options.cluster.binDir, 'kubectl');
  const kubeNode = join(options.nodeBinDir, 'kube-node');
  const state: NodeState = {
    dir,
    kubeconfig: options.cluster.kubeconfig,
    kubectl,
    kubeNode,
    processes: {},
    createdCgroups: [],
    varLibCniExisted: existsSync('/var/lib/cni'),
    before: hostState(),
  };
  writeNodeState(state);
  const stop = async (): Promise<void> => {
    await stopNode(dir, log);
  };
  const launch = (name: string, binary: string, args: string[]): void => {
    const out = openSync(join(paths.logs, `${name}.log`), 'a');
    const child = spawn(binary, args, { stdio: ['ignore', out, out], detached: true });
    closeSync(out);
    if (child.pid === undefined) throw new Error(`could not start ${name}`);
    child.unref();
    state.processes[name] = [binary, child.pid];
    writeNodeState(state);
  };
  const kube = (args: string[]): string => run(kubectl, ['--kubeconfig', options.cluster.kubeconfig, ...args]);
  const tail = (name: string): string => {
    try {
      return readFileSync(join(paths.logs, `${name}.log`), 'utf8')
        .trimEnd()
        .split('\n')
        .slice(-15)
        .join('\n');
    } catch {
      return '(no log)';
    }
  };
  const waitFor = async (
    what: string,
    component: string,
    check: () => boolean | Promise<boolean>,
    timeoutMs = options.readyTimeoutMs ?? 120_000,
  ): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`${what} did not happen in ${timeoutMs / 1000} s; last lines of ${component}.log:\n${tail(component)}`);
      await sleep(200);
    }
  };

  try {
    log(`starting node ${NODE_NAME} on ${NODE_IP} (state in ${dir})`);
    // The node address on a bridge of its own: local only, nothing leaves the machine.
    run('ip', ['link', 'add', NODE_BRIDGE, 'type', 'bridge']);
    run('ip', ['addr', 'add', `${NODE_IP}/32`, 'dev', NODE_BRIDGE]);
    run('ip', ['link', 'set', NODE_BRIDGE, 'up']);
    writeFileSync('/proc/sys/net/bridge/bridge-nf-call-iptables', '1'); // Service traffic between pods on one bridge
    // The kubelet's cgroups, nested below this job's own memory cgroup, in every v1 hierarchy.
    const cgroupRoot = `${ownMemoryCgroup().replace(/\/$/, '')}/${NODE_NAME}`;
    state.cgroupRoot = cgroupRoot;
    for (const controller of [...CGROUP_V1_CONTROLLERS, 'blkio', 'systemd']) {
      const hierarchy = `/sys/fs/cgroup/${controller}`;
      if (!existsSync(`${hierarchy}/cgroup.procs`)) continue;
      let path = hierarchy;
      for (const part of cgroupRoot.split('/').filter(Boolean)) {
        const parent = path;
        path = `${path}/${part}`;
        if (existsSync(path)) continue;
        state.createdCgroups.push(path);
        writeNodeState(state);
        mkdirSync(path);
        if (controller === 'cpuset') {
          for (const file of ['cpuset.cpus', 'cpuset.mems']) writeFileSync(`${path}/${file}`, readFileSync(`${parent}/${file}`, 'utf8'));
        }
      }
    }
    writeFileSync(join(dir, 'containerd.toml'), containerdConfig(paths, CNI_BIN_DIR, RUNC));
    writeFileSync(join(paths.cniConfDir, '10-gw-node.conflist'), cniConfig(paths));
    writeFileSync(join(dir, 'kubelet.yaml'), kubeletConfig(paths, cgroupRoot));
    lap('host prepared');

    const containerd = run('sh', ['-c', 'command -v containerd']).trim();
    launch('containerd', containerd, ['--config', join(dir, 'containerd.toml')]);
    const ctr = (args: string[]): string => run('ctr', ['-a', paths.containerdSocket, '-n', 'k8s.io', ...args]);
    await waitFor(
      'containerd answering',
      'containerd',
      () => {
        try {
          ctr(['version']);
          return true;
        } catch {
          return false;
        }
      },
      30_000,
    );
    lap('containerd up');
    for (const archive of [pauseImage(options.nodeBinDir), ...options.images]) ctr(['images', 'import', archive]);
    lap('images imported');

    const admin = options.cluster.kubeconfig;
    launch('kube-scheduler', kubeNode, [
      'kube-scheduler',
      `--kubeconfig=${admin}`,
      `--authentication-kubeconfig=${admin}`,
      `--authorization-kubeconfig=${admin}`,
      '--secure-port=0',
      '--leader-elect=false',
    ]);
    launch('kube-controller-manager-workloads', join(options.cluster.binDir, 'controlplane'), [
      'kube-controller-manager',
      `--kubeconfig=${admin}`,
      `--authentication-kubeconfig=${admin}`,
      `--authorization-kubeconfig=${admin}`,
      '--secure-port=0',
      '--leader-elect=false',
      '--use-service-account-credentials=false',
      '--controllers=deployment-controller,replicaset-controller,endpointslice-controller,endpoints-controller,node-lifecycle-controller',
    ]);
    launch('kubelet', kubeNode, [
      'kubelet',
      `--config=${join(dir, 'kubelet.yaml')}`,
      `--kubeconfig=${admin}`,
      `--root-dir=${paths.kubeletRoot}`,
      `--cert-dir=${join(paths.kubeletRoot, 'pki')}`,
      `--hostname-override=${NODE_NAME}`,
      `--node-ip=${NODE_IP}`,
    ]);
    await waitFor(`Node ${NODE_NAME} Ready`, 'kubelet', () => {
      try {
        return kube(['get', 'node', NODE_NAME, '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}']) === 'True';
      } catch {
        return false;
      }
    });
    lap('node Ready');

    launch('kube-proxy', kubeNode, [
      'kube-proxy',
      `--kubeconfig=${admin}`,
      `--hostname-override=${NODE_NAME}`,
      `--cluster-cidr=${POD_CIDR}`,
      '--proxy-mode=iptables',
      `--metrics-bind-address=127.0.0.1:${KUBE_PROXY_METRICS_PORT}`,
      `--healthz-bind-address=127.0.0.1:${KUBE_PROXY_HEALTHZ_PORT}`,
      '--conntrack-max-per-core=0',
      '--conntrack-tcp-timeout-established=0',
      '--conntrack-tcp-timeout-close-wait=0',
      `--nodeport-addresses=${NODE_IP}/32`,
    ]);
    // Pods reach the apiserver through the `kubernetes` Service: a forwarder on the node address, published as its
    // endpoint (the control plane runs with --endpoint-reconciler-type=none, so nothing else writes it).
    const apiserverPort = new URL(options.cluster.server).port;
    launch('apiserver-forwarder', run('sh', ['-c', 'command -v socat']).trim(), [
      `TCP-LISTEN:${APISERVER_NODE_PORT},bind=${NODE_IP},fork,reuseaddr`,
      `TCP:127.0.0.1:${apiserverPort}`,
    ]);
    const endpointSlice = {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        name: 'kubernetes',
        namespace: 'default',
        labels: { 'kubernetes.io/service-name': 'kubernetes', 'endpointslice.kubernetes.io/managed-by': 'gw-node' },
      },
      addressType: 'IPv4',
      endpoints: [{ addresses: [NODE_IP], conditions: { ready: true } }],
      ports: [{ name: 'https', port: APISERVER_NODE_PORT, protocol: 'TCP' }],
    };
    execFileSync(kubectl, ['--kubeconfig', admin, 'apply', '-f', '-'], { input: JSON.stringify(endpointSlice), stdio: ['pipe', 'ignore', 'pipe'] });
    const ca = readFileSync(kube(['config', 'view', '--raw', '-o', 'jsonpath={.clusters[0].cluster.certificate-authority}']).trim());
    const token = kube(['config', 'view', '--raw', '-o', 'jsonpath={.users[0].user.token}']).trim();
    const serviceIp = kube(['get', 'service', 'kubernetes', '-n', 'default', '-o', 'jsonpath={.spec.clusterIP}']).trim();
    await waitFor(`the apiserver through kube-proxy (https://${serviceIp})`, 'kube-proxy', () => probe(`https://${serviceIp}/readyz`, ca, token));
    lap('kube-proxy routes Services');
    log(`node ${NODE_NAME} Ready in ${laps['kube-proxy routes Services']} s`);
    return { name: NODE_NAME, ip: NODE_IP, dir, laps, stop };
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
}

/** Stops the node recorded in dir (if any) and undoes its host changes; false when there was none. */
export async function stopNode(dir: string, log: (line: string) => void = () => {}): Promise<boolean> {
  if (!readNodeState(dir)) {
    releaseLock(dir);
    return false;
  }
  const { errors, laps } = await teardownNode(dir);
  log(`node teardown (seconds after its start, per step): ${JSON.stringify(laps)}`);
  if (errors.length > 0) throw new Error(`node teardown (run it again to retry): ${errors.join('; ')}`);
  releaseLock(dir);
  return true;
}
