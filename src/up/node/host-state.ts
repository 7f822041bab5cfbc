// The host state a test node may change, read without changing anything: network links and addresses, the
// iptables/ip6tables rules and chains of every table, nftables tables, mount points, sysctls (net., vm., kernel.),
// the cgroups below a directory, and processes running a given binary. The node harness snapshots it before it
// starts and undoes the difference when it stops (src/up/node/teardown.ts); the teardown test compares a snapshot
// before `up` with one after `down` (they must be equal).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface HostState {
  links: string[];
  addresses: string[];
  /** `iptables-save` / `ip6tables-save` lines per family, counters stripped, sorted. */
  iptables: Record<'ipv4' | 'ipv6', string[]>;
  nftTables: string[];
  mounts: string[];
  sysctls: Record<string, string>;
}

const SYSCTL_PREFIXES = [
  'net/ipv4/ip_forward',
  'net/ipv4/conf/all/',
  'net/ipv4/conf/default/',
  'net/ipv6/conf/all/forwarding',
  'net/bridge/',
  'vm/overcommit_memory',
  'vm/panic_on_oom',
  'kernel/panic',
  'kernel/panic_on_oops',
  'kernel/keys/root_maxkeys',
  'kernel/keys/root_maxbytes',
  'net/netfilter/nf_conntrack_max',
  'net/netfilter/nf_conntrack_tcp_timeout_established',
  'net/netfilter/nf_conntrack_tcp_timeout_close_wait',
];

function output(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return '';
  }
}

/** `iptables-save` without comments and packet counters: what the rules are, not how often they matched. */
export function iptablesRules(family: 'ipv4' | 'ipv6'): string[] {
  const text = output(family === 'ipv4' ? 'iptables-save' : 'ip6tables-save', []);
  let table = '';
  const lines: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line === 'COMMIT') continue;
    if (line.startsWith('*')) {
      table = line.slice(1);
      continue;
    }
    lines.push(`${table} ${line.replace(/ \[\d+:\d+\]$/, '')}`);
  }
  return lines.sort();
}

function readSysctls(): Record<string, string> {
  const values: Record<string, string> = {};
  const visit = (relative: string): void => {
    const path = join('/proc/sys', relative);
    let stats;
    try {
      stats = statSync(path);
    } catch {
      return;
    }
    if (stats.isDirectory()) {
      for (const entry of readdirSync(path)) visit(`${relative}/${entry}`);
      return;
    }
    if ((stats.mode & 0o200) === 0) return; // read-only: nothing can have been changed
    try {
      values[relative.replace(/\//g, '.')] = readFileSync(path, 'utf8').trim();
    } catch {
      // some entries refuse reads (e.g. write-only flush knobs)
    }
  };
  for (const prefix of SYSCTL_PREFIXES) {
    const trimmed = prefix.replace(/\/$/, '');
    if (existsSync(join('/proc/sys', trimmed))) visit(trimmed);
  }
  return values;
}

export function hostState(): HostState {
  return {
    links: output('ip', ['-o', 'link', 'show'])
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(':')[1]!.trim().split('@')[0]!)
      .sort(),
    addresses: output('ip', ['-o', 'addr', 'show'])
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(/\s+/).slice(1, 4).join(' '))
      .sort(),
    iptables: { ipv4: iptablesRules('ipv4'), ipv6: iptablesRules('ipv6') },
    nftTables: output('nft', ['list', 'tables'])
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .sort(),
    mounts: readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' ')[4]!)
      .sort(),
    sysctls: readSysctls(),
  };
}

/** Directories below `root` (deepest first), e.g. the cgroups a node created in one hierarchy. */
export function directoriesBelow(root: string): string[] {
  const found: string[] = [];
  const visit = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) if (entry.isDirectory()) visit(join(dir, entry.name));
    found.push(dir);
  };
  visit(root);
  return found.filter((dir) => dir !== root).concat(existsSync(root) ? [root] : []);
}

/** Pids of live processes whose executable path (argv[0]) is one of `binaries` or whose command line names `marker`. */
export function processesOf(binaries: string[], marker?: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      const argv0 = cmdline.split('\0')[0]!;
      if (binaries.includes(argv0) || (marker !== undefined && cmdline.includes(marker))) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}
