// Stops a test node and undoes every host change it made, from the state file src/up/node/node.ts writes BEFORE
// each change (so a crashed or killed run can still be undone by the next one): pods first (the kubelet runs each
// sandbox's CNI DEL), then the processes, containerd's leftovers, mounts below the node's directory, the two
// bridges, the iptables/ip6tables rules and chains and nftables tables that were not there before, the sysctls that
// differ from the snapshot, the cgroups it created, and /var/lib/cni when it did not exist. Every step runs even when
// an earlier one failed; the failures are reported together at the end, and the state file is kept for another try. It never touches what the snapshot already
// held: a rule, table, link or cgroup that existed before the node is left alone.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { directoriesBelow, iptablesRules, processesOf, type HostState } from './host-state.ts';
import { CNI_BRIDGE, NODE_BRIDGE, nodePaths } from './node-config.ts';

export interface NodeState {
  dir: string;
  /** Admin kubeconfig and kubectl of the control plane the node joined. */
  kubeconfig: string;
  kubectl: string;
  kubeNode: string;
  /** Component -> [binary, pid]. */
  processes: Record<string, [string, number]>;
  /** The kubelet's cgroupRoot (a path inside each v1 hierarchy). */
  cgroupRoot?: string;
  /** Cgroup directories this node created (absolute), outermost first. */
  createdCgroups: string[];
  varLibCniExisted: boolean;
  before: HostState;
}

export const STATE_FILE = 'node-state.json';

export function readNodeState(dir: string): NodeState | null {
  try {
    return JSON.parse(readFileSync(join(dir, STATE_FILE), 'utf8')) as NodeState;
  } catch {
    return null;
  }
}

export function writeNodeState(state: NodeState): void {
  writeFileSync(join(state.dir, STATE_FILE), JSON.stringify(state, null, 2));
}

function run(command: string, args: string[], input?: string): string {
  return execFileSync(command, args, { encoding: 'utf8', input, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], timeout: 60_000 });
}

function alive(pid: number, binary: string): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return false;
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] === binary;
  } catch {
    return false;
  }
}

async function stopProcess(binary: string, pid: number): Promise<void> {
  if (!alive(pid, binary)) return;
  process.kill(pid, 'SIGTERM');
  for (let waited = 0; waited < 10_000 && alive(pid, binary); waited += 100) await sleep(100);
  if (alive(pid, binary)) process.kill(pid, 'SIGKILL');
  for (let waited = 0; waited < 5_000 && alive(pid, binary); waited += 100) await sleep(100);
}

/** Deletes every pod through the API while the kubelet still runs, so it stops each sandbox (CNI DEL, unmounts). */
async function drainPods(state: NodeState, ctr: (args: string[]) => string): Promise<void> {
  const kubelet = state.processes.kubelet;
  if (!kubelet || !alive(kubelet[1], kubelet[0])) return;
  for (const name of ['kube-scheduler', 'kube-controller-manager-workloads']) {
    const entry = state.processes[name];
    if (entry) await stopProcess(entry[0], entry[1]);
  }
  try {
    run(state.kubectl, [
      '--kubeconfig',
      state.kubeconfig,
      'delete',
      'pods',
      '--all',
      '-A',
      '--force',
      '--grace-period=0',
      '--wait=false',
      '--request-timeout=10s',
    ]);
  } catch {
    return; // the apiserver is gone: the containerd step below removes what is left
  }
  for (let waited = 0; waited < 30_000; waited += 250) {
    if (ctr(['tasks', 'ls', '-q']).trim() === '') return;
    await sleep(250);
  }
}

/** iptables-restore input that removes the rules and chains present now but not in `before`. */
export function iptablesUndoScript(before: string[], now: string[]): string {
  const had = new Set(before);
  const tables = new Map<string, { deletes: string[]; chains: string[] }>();
  const entry = (table: string): { deletes: string[]; chains: string[] } => {
    if (!tables.has(table)) tables.set(table, { deletes: [], chains: [] });
    return tables.get(table)!;
  };
  const chainsBefore = new Set(before.filter((line) => / :/.test(line)).map((line) => line.split(' ')[0] + ' ' + line.split(' ')[1]!.slice(1)));
  const newChains = new Set<string>();
  for (const line of now) {
    if (had.has(line)) continue;
    const [table, rest] = [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)];
    if (rest.startsWith(':')) {
      const [chain = '', policy] = rest.slice(1).split(' ');
      // A built-in chain (it has a policy, e.g. `:OUTPUT ACCEPT`) comes with its table and cannot be deleted.
      if (policy === '-' && !chainsBefore.has(`${table} ${chain}`)) {
        newChains.add(`${table} ${chain}`);
        entry(table).chains.push(chain);
      }
    }
  }
  for (const line of now) {
    if (had.has(line)) continue;
    const [table, rest] = [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)];
    if (!rest.startsWith('-A ')) continue;
    const chain = rest.split(' ')[1]!;
    if (newChains.has(`${table} ${chain}`)) continue; // goes with its chain
    entry(table).deletes.push(`-D ${rest.slice(3)}`);
  }
  let script = '';
  for (const [table, { deletes, chains }] of tables) {
    if (deletes.length === 0 && chains.length === 0) continue;
    script += `*${table}\n${deletes.join('\n')}${deletes.length ? '\n' : ''}`;
    script += chains.map((chain) => `-F ${chain}\n`).join('') + chains.map((chain) => `-X ${chain}\n`).join('');
    script += 'COMMIT\n';
  }
  return script;
}

export async function teardownNode(dir: string): Promise<{ errors: string[]; laps: Record<string, number> }> {
  const state = readNodeState(dir);
  if (!state) return { errors: [], laps: {} };
  const paths = nodePaths(dir);
  const errors: string[] = [];
  const laps: Record<string, number> = {};
  const started = Date.now();
  const step = async (what: string, action: () => unknown): Promise<void> => {
    try {
      await action();
    } catch (error) {
      errors.push(`${what}: ${(error as Error).message.split('\n')[0]}`);
    }
    laps[what] = Math.round((Date.now() - started) / 100) / 10;
  };
  const containerd = state.processes.containerd;
  const containerdUp = (): boolean => containerd !== undefined && alive(containerd[1], containerd[0]);
  const ctr = (args: string[]): string => (containerdUp() ? run('ctr', ['-a', paths.containerdSocket, '-n', 'k8s.io', ...args]) : '');

  await step('deleting pods', () =>
    drainPods(state, (args) => {
      try {
        return ctr(args);
      } catch {
        return '';
      }
    }),
  );
  for (const name of ['kube-proxy', 'kubelet', 'kube-scheduler', 'kube-controller-manager-workloads', 'apiserver-forwarder']) {
    const entry = state.processes[name];
    if (entry) await step(`stopping ${name}`, () => stopProcess(entry[0], entry[1]));
  }
  await step('kube-proxy --cleanup', () => run(state.kubeNode, ['kube-proxy', '--cleanup', '--proxy-mode=iptables']));
  await step('containerd tasks and containers', async () => {
    if (!containerdUp()) return;
    for (const task of ctr(['tasks', 'ls', '-q']).split('\n').filter(Boolean)) ctr(['tasks', 'kill', '-s', 'KILL', task]);
    for (let waited = 0; waited < 10_000 && ctr(['tasks', 'ls', '-q']).trim() !== ''; waited += 200) await sleep(200);
    for (const task of ctr(['tasks', 'ls', '-q']).split('\n').filter(Boolean)) ctr(['tasks', 'rm', '-f', task]);
  });
  if (containerd) await step('stopping containerd', () => stopProcess(containerd[0], containerd[1]));
  await step("processes left in the node's cgroups and shims", async () => {
    const pids = new Set(processesOf([], paths.containerdSocket)); // containerd-shim-runc-v2 -address <our socket>
    if (state.cgroupRoot) {
      for (const dirPath of state.createdCgroups.filter((path) => path.endsWith(state.cgroupRoot!))) {
        for (const cgroup of directoriesBelow(dirPath)) {
          try {
            for (const pid of readFileSync(join(cgroup, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) pids.add(Number(pid));
          } catch {
            // gone
          }
        }
      }
    }
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // exited meanwhile
      }
    }
    for (let waited = 0; waited < 5_000 && [...pids].some((pid) => existsSync(`/proc/${pid}`)); waited += 100) await sleep(100);
  });
  await step('unmounting below the node directory', () => {
    const mounts = readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' ')[4]!)
      .filter((mount) => mount.startsWith(`${dir}/`))
      .sort()
      .reverse();
    for (const mount of mounts) {
      try {
        run('umount', [mount]);
      } catch {
        run('umount', ['-l', mount]);
      }
    }
  });
  await step('network links', () => {
    const attached = run('ip', ['-o', 'link', 'show'])
      .split('\n')
      .filter((line) => line.includes(`master ${CNI_BRIDGE} `))
      .map((line) => line.split(':')[1]!.trim().split('@')[0]!);
    for (const link of [...attached, CNI_BRIDGE, NODE_BRIDGE]) {
      if (!state.before.links.includes(link) && run('ip', ['-o', 'link', 'show']).includes(` ${link}`)) run('ip', ['link', 'delete', link]);
    }
  });
  for (const family of ['ipv4', 'ipv6'] as const) {
    await step(`${family} iptables rules`, () => {
      const script = iptablesUndoScript(state.before.iptables[family], iptablesRules(family));
      if (script) run(family === 'ipv4' ? 'iptables-restore' : 'ip6tables-restore', ['--noflush'], script);
    });
  }
  await step('nftables tables', () => {
    for (const table of run('nft', ['list', 'tables'])
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)) {
      if (!state.before.nftTables.includes(table)) run('nft', ['delete', ...table.split(' ')]);
    }
  });
  await step('sysctls', () => {
    for (const [key, value] of Object.entries(state.before.sysctls)) {
      const path = `/proc/sys/${key.replace(/\./g, '/')}`;
      if (existsSync(path) && readFileSync(path, 'utf8').trim() !== value) writeFileSync(path, value);
    }
  });
  await step('cgroups', () => {
    for (const created of [...state.createdCgroups].reverse()) {
      for (const cgroup of directoriesBelow(created)) if (existsSync(cgroup)) rmdirSync(cgroup);
    }
  });
  await step('/var/lib/cni', () => {
    if (!state.varLibCniExisted) rmSync('/var/lib/cni', { recursive: true, force: true });
  });
  // With a step failed, the record stays: the next start (or `down`) tries again.
  if (errors.length === 0) rmSync(join(dir, STATE_FILE), { force: true });
  return { errors, laps };
}
