// What a machine needs before the test node can start, checked without changing anything: root, the cgroup v1
// hierarchies, overlayfs, the bridge and netfilter facilities, and the Debian tools (containerd, runc, ctr,
// the CNI plugins, iptables, nft, socat, mmdebstrap, umoci). Returns every missing feature by name, so a suite can
// skip saying exactly why and `cluster:up --with-node` can refuse with the same words.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

export const CNI_BIN_DIR = '/usr/lib/cni';
export const RUNC = '/usr/sbin/runc';
export const CGROUP_V1_CONTROLLERS = ['cpu', 'cpuacct', 'cpuset', 'memory', 'devices', 'freezer', 'pids'];

const TOOLS: [string, string][] = [
  ['containerd', 'Debian package containerd'],
  ['ctr', 'Debian package containerd'],
  [RUNC, 'Debian package runc'],
  ['iptables', 'Debian package iptables'],
  ['iptables-save', 'Debian package iptables'],
  ['ip6tables-save', 'Debian package iptables'],
  ['nft', 'Debian package nftables'],
  ['ip', 'Debian package iproute2'],
  ['socat', 'Debian package socat'],
  ['mmdebstrap', 'Debian package mmdebstrap'],
  ['umoci', 'Debian package umoci'],
];

function onPath(tool: string): boolean {
  if (tool.startsWith('/')) return existsSync(tool);
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function works(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/** Every missing feature, in words; empty when the node can start here. */
export function missingNodeFeatures(): string[] {
  const missing: string[] = [];
  if (process.platform !== 'linux') return [`Linux (this is ${process.platform})`];
  if (process.getuid?.() !== 0) missing.push('root (the kubelet, containerd and the bridge need it)');
  for (const [tool, from] of TOOLS) if (!onPath(tool)) missing.push(`${tool} (${from})`);
  for (const plugin of ['bridge', 'host-local', 'loopback']) {
    if (!existsSync(`${CNI_BIN_DIR}/${plugin}`)) missing.push(`CNI plugin ${CNI_BIN_DIR}/${plugin} (Debian package containernetworking-plugins)`);
  }
  const filesystems = readFileSync('/proc/filesystems', 'utf8');
  if (!/\toverlay$/m.test(filesystems)) missing.push("overlay filesystem (kernel module overlay; containerd's snapshotter)");
  // The kubelet's cgroups are nested below this process's own (v1) cgroup; a cgroup v2-only host is not handled yet.
  const absent = CGROUP_V1_CONTROLLERS.filter((controller) => !existsSync(`/sys/fs/cgroup/${controller}/cgroup.procs`));
  if (absent.length > 0) missing.push(`cgroup v1 hierarchies ${absent.join(', ')} under /sys/fs/cgroup (a cgroup v2-only host is not supported yet)`);
  if (!existsSync('/proc/sys/net/bridge/bridge-nf-call-iptables')) missing.push('br_netfilter (kernel module: Service traffic between pods on one bridge)');
  if (!existsSync('/proc/sys/net/ipv4/ip_forward')) missing.push('IPv4 forwarding sysctl');
  if (onPath('iptables') && process.getuid?.() === 0 && !works('iptables', ['-t', 'nat', '-L', '-n']))
    missing.push('iptables nat table (kernel nf_tables/iptable_nat)');
  if (!existsSync('/dev/kmsg')) missing.push("/dev/kmsg (the kubelet's OOM watcher)");
  return missing;
}
