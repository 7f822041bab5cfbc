// A real Kubernetes control plane on loopback: etcd, kube-apiserver and kube-controller-manager from the
// multi-call binary of test/controlplane, each its own process, on free ports, with everything they need generated
// here in Node (admin and controller-manager tokens, the service-account signing key). The apiserver makes its own
// self-signed serving certificate in <dir>/certs; kubeconfigs trust it.
//
// Everything lives under one state directory (data, certs, logs, kubeconfig, state.json with the pids), so
// `stopControlPlane(dir)` can stop exactly the processes this module started there and nothing else: a pid is
// only signalled when its command line still names our binary and that directory.
//
// What runs: RBAC and token authentication on; controller-manager runs the namespace, garbage-collector,
// service-account, service-account-token and root-CA-publisher controllers (namespaces terminate, ownerReferences
// are collected, ServiceAccounts get tokens). No scheduler, no kubelet: nothing here runs Pods.
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { stringify } from 'yaml';
import { controlPlaneBinDir } from './binaries.ts';
import { freePorts } from './ports.ts';

export interface ControlPlaneOptions {
  /** State directory; created when missing. */
  dir: string;
  /** Let the processes outlive this Node process (`npm run cluster:up`). Default false. */
  detached?: boolean;
  /** Progress lines; default: none. */
  log?: (line: string) => void;
  /** How long the apiserver may take to answer /readyz. Default 120 s (a start takes ~3 s on 2 cores). */
  readyTimeoutMs?: number;
  /** Directory holding the controlplane binary; default: controlPlaneBinDir(). */
  binDir?: string;
  /** Extra kube-apiserver flags (tests: --watch-cache=false, --etcd-compaction-interval=1s, ...). */
  apiserverArgs?: string[];
}

export interface ControlPlane {
  dir: string;
  /** Admin kubeconfig (system:masters). */
  kubeconfig: string;
  server: string;
  /** Directory holding kubectl and helm. */
  binDir: string;
  /** Stops the processes gracefully (SIGTERM, then SIGKILL after 10 s each). */
  stop(): Promise<void>;
  /** Kills them at once; synchronous, for process 'exit' hooks. */
  kill(): void;
  /** Stops one component (SIGTERM) and starts it again with the same flags; the apiserver is waited for. */
  restart(component: 'kube-apiserver' | 'kube-controller-manager' | 'etcd'): Promise<void>;
}

interface State {
  binary: string;
  binDir: string;
  server: string;
  kubeconfig: string;
  pids: Record<string, number>;
}

const COMPONENTS_STOP_ORDER = ['kube-controller-manager', 'kube-apiserver', 'etcd'];

export async function startControlPlane(options: ControlPlaneOptions): Promise<ControlPlane> {
  const log = options.log ?? (() => {});
  const binDir = options.binDir ?? (await controlPlaneBinDir());
  // A port taken between choosing and binding is the one failure worth retrying.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options, binDir, log);
    } catch (error) {
      if (!(error instanceof PortInUseError) || attempt === 3) throw error;
      log(`a port was taken meanwhile (${error.message}); retrying`);
    }
  }
}

class PortInUseError extends Error {}

async function startOnce(options: ControlPlaneOptions, binDir: string, log: (line: string) => void): Promise<ControlPlane> {
  const dir = options.dir;
  const binary = join(binDir, 'controlplane');
  const paths = {
    etcdData: join(dir, 'etcd'),
    certs: join(dir, 'certs'),
    logs: join(dir, 'logs'),
    tokens: join(dir, 'tokens.csv'),
    saKey: join(dir, 'sa.key'),
    saPub: join(dir, 'sa.pub'),
    kubeconfig: join(dir, 'kubeconfig'),
    kcmKubeconfig: join(dir, 'kube-controller-manager.kubeconfig'),
  };
  // Every start is a new cluster: nothing of an earlier (or failed) start is reused.
  for (const d of [paths.etcdData, paths.certs]) rmSync(d, { recursive: true, force: true });
  for (const d of [dir, paths.etcdData, paths.certs, paths.logs]) mkdirSync(d, { recursive: true, mode: 0o700 });

  const [etcdClient, etcdPeer, apiserverPort] = (await freePorts(3)) as [number, number, number];
  const server = `https://127.0.0.1:${apiserverPort}`;
  const adminToken = randomBytes(24).toString('hex');
  const kcmToken = randomBytes(24).toString('hex');
  writeFileSync(paths.tokens, `${adminToken},gw-admin,gw-admin,"system:masters"\n${kcmToken},system:kube-controller-manager,kcm,"system:masters"\n`, {
    mode: 0o600,
  });
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(paths.saKey, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  writeFileSync(paths.saPub, publicKey.export({ type: 'spki', format: 'pem' }));
  const ca = join(paths.certs, 'apiserver.crt');
  writeFileSync(paths.kubeconfig, kubeconfigYaml(server, ca, adminToken, 'gw-admin'), { mode: 0o600 });
  writeFileSync(paths.kcmKubeconfig, kubeconfigYaml(server, ca, kcmToken, 'kube-controller-manager'), { mode: 0o600 });

  const pids: Record<string, number> = {};
  const exited = new Map<string, number | null>();
  const specs = new Map<string, string[]>();
  const launch = (name: string, args: string[]): void => {
    specs.set(name, args);
    exited.delete(name);
    const out = openSync(join(paths.logs, `${name}.log`), 'a');
    const child = spawn(binary, [name, ...args], { stdio: ['ignore', out, out], detached: options.detached ?? false });
    closeSync(out);
    if (child.pid === undefined) throw new Error(`could not start ${name}`);
    pids[name] = child.pid;
    // A restarted component's old process exits after the new one started: only the current one counts.
    child.on('exit', (code) => {
      if (pids[name] === child.pid) exited.set(name, code);
    });
    if (options.detached) child.unref();
  };
  const state = (): State => ({ binary, binDir, server, kubeconfig: paths.kubeconfig, pids });
  const fail = async (message: string): Promise<never> => {
    await stopProcesses(state());
    const tails = Object.keys(pids).map(
      (name) => `--- ${name} (last lines of ${join(paths.logs, name + '.log')}):\n${tail(join(paths.logs, `${name}.log`), 15)}`,
    );
    const text = `${message}\n${tails.join('\n')}`;
    throw /address already in use/.test(text) ? new PortInUseError(message) : new Error(text);
  };
  const running = (name: string): void => {
    if (exited.has(name)) throw new Error(`${name} exited with code ${exited.get(name)}`);
  };

  log(`starting etcd on 127.0.0.1:${etcdClient}`);
  launch('etcd', [
    `--name=gw-test`,
    `--data-dir=${paths.etcdData}`,
    `--listen-client-urls=http://127.0.0.1:${etcdClient}`,
    `--advertise-client-urls=http://127.0.0.1:${etcdClient}`,
    `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`,
    `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeer}`,
    `--initial-cluster=gw-test=http://127.0.0.1:${etcdPeer}`,
    '--unsafe-no-fsync',
    '--log-level=warn',
  ]);

  log(`starting kube-apiserver on ${server}`);
  launch('kube-apiserver', [
    `--etcd-servers=http://127.0.0.1:${etcdClient}`,
    `--cert-dir=${paths.certs}`,
    `--secure-port=${apiserverPort}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    '--service-cluster-ip-range=10.0.0.0/24',
    '--authorization-mode=RBAC',
    `--token-auth-file=${paths.tokens}`,
    `--service-account-issuer=${server}`,
    `--service-account-key-file=${paths.saPub}`,
    `--service-account-signing-key-file=${paths.saKey}`,
    // The apiserver would publish 127.0.0.1 as the `kubernetes` Service endpoint, which Endpoints reject.
    '--endpoint-reconciler-type=none',
    '--allow-privileged=true',
    '--shutdown-delay-duration=0s',
    '--profiling=false',
    ...(options.apiserverArgs ?? []),
  ]);

  const deadline = Date.now() + (options.readyTimeoutMs ?? 120_000);
  try {
    while (!(await probe(server, ca, adminToken, '/readyz'))) {
      running('etcd');
      running('kube-apiserver');
      if (Date.now() > deadline) throw new Error('kube-apiserver did not become ready in time');
      await sleep(250);
    }
  } catch (error) {
    return fail(`control plane failed to start: ${(error as Error).message}`);
  }

  log('starting kube-controller-manager');
  launch('kube-controller-manager', [
    `--kubeconfig=${paths.kcmKubeconfig}`,
    `--authentication-kubeconfig=${paths.kcmKubeconfig}`,
    `--authorization-kubeconfig=${paths.kcmKubeconfig}`,
    '--secure-port=0',
    '--leader-elect=false',
    '--use-service-account-credentials=false',
    '--controllers=namespace-controller,garbage-collector-controller,serviceaccount-controller,serviceaccount-token-controller,root-ca-certificate-publisher-controller',
    `--service-account-private-key-file=${paths.saKey}`,
    `--root-ca-file=${ca}`,
  ]);
  try {
    // The `default` ServiceAccount appears once the controller-manager's controllers run.
    while (!(await probe(server, ca, adminToken, '/api/v1/namespaces/default/serviceaccounts/default'))) {
      running('kube-controller-manager');
      if (Date.now() > deadline) throw new Error('kube-controller-manager did not start its controllers in time');
      await sleep(250);
    }
  } catch (error) {
    return fail(`control plane failed to start: ${(error as Error).message}`);
  }

  writeFileSync(join(dir, 'state.json'), JSON.stringify(state(), null, 2));
  log(`control plane ready: ${server}`);
  const restart = async (component: string): Promise<void> => {
    const pid = pids[component];
    if (pid !== undefined) await stopProcesses({ ...state(), pids: { [component]: pid } });
    launch(component, specs.get(component)!);
    writeFileSync(join(dir, 'state.json'), JSON.stringify(state(), null, 2));
    if (component !== 'kube-apiserver') return;
    const until = Date.now() + (options.readyTimeoutMs ?? 120_000);
    while (!(await probe(server, ca, adminToken, '/readyz'))) {
      running('kube-apiserver');
      if (Date.now() > until) throw new Error('kube-apiserver did not become ready again');
      await sleep(100);
    }
  };
  return { dir, kubeconfig: paths.kubeconfig, server, binDir, stop: () => stopProcesses(state()), kill: () => killProcesses(state()), restart };
}

/** Stops the control plane recorded in dir/state.json; false when there was none. */
export async function stopControlPlane(dir: string): Promise<boolean> {
  const file = join(dir, 'state.json');
  if (!existsSync(file)) return false;
  await stopProcesses(JSON.parse(readFileSync(file, 'utf8')) as State);
  return true;
}

/** The running control plane recorded in dir, if every one of its processes is still ours and alive. */
export function runningControlPlane(dir: string): { kubeconfig: string; binDir: string; server: string } | null {
  const file = join(dir, 'state.json');
  if (!existsSync(file)) return null;
  const state = JSON.parse(readFileSync(file, 'utf8')) as State;
  const alive = Object.values(state.pids).every((pid) => isOurs(pid, state.binary));
  return alive ? { kubeconfig: state.kubeconfig, binDir: state.binDir, server: state.server } : null;
}

async function stopProcesses(state: State): Promise<void> {
  for (const name of COMPONENTS_STOP_ORDER) {
    const pid = state.pids[name];
    if (pid === undefined || !isOurs(pid, state.binary)) continue;
    process.kill(pid, 'SIGTERM');
    for (let waited = 0; waited < 10_000 && isOurs(pid, state.binary); waited += 100) await sleep(100);
    if (isOurs(pid, state.binary)) process.kill(pid, 'SIGKILL');
  }
}

function killProcesses(state: State): void {
  for (const pid of Object.values(state.pids)) if (isOurs(pid, state.binary)) process.kill(pid, 'SIGKILL');
}

/** True when pid is alive and still runs our binary (not a recycled pid of something else). */
function isOurs(pid: number, binary: string): boolean {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const zombie = stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
    return !zombie && cmdline.split('\0')[0] === binary;
  } catch {
    return false;
  }
}

function probe(server: string, caFile: string, token: string, path: string): Promise<boolean> {
  if (!existsSync(caFile)) return Promise.resolve(false);
  return new Promise((resolveProbe) => {
    const req = request(`${server}${path}`, { ca: readFileSync(caFile), headers: { Authorization: `Bearer ${token}` }, timeout: 2_000 }, (res) => {
      res.resume();
      resolveProbe(res.statusCode === 200);
    });
    req.on('error', () => resolveProbe(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

function kubeconfigYaml(server: string, ca: string, token: string, user: string): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'gw-local', cluster: { server, 'certificate-authority': ca } }],
    users: [{ name: user, user: { token } }],
    contexts: [{ name: 'gw-local', context: { cluster: 'gw-local', user, namespace: 'default' } }],
    'current-context': 'gw-local',
  });
}

function tail(file: string, lines: number): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
