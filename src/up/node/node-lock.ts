// One test node per machine: the kubelet's and kube-proxy's ports, the bridges and the KUBE-* iptables chains are
// host-wide. The lock file (<cache>/node.lock) names the node's directory and its owner: the process that started
// it and must stop it (a test worker), or none for a node meant to outlive its starter (`cluster:up --with-node`).
// A node whose processes are gone, or whose owner died (a killed test run), is stale: the next start undoes it.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot } from '../paths.ts';
import { readNodeState } from './teardown.ts';

interface Lock {
  dir: string;
  /** Pid of the process that must stop the node; null: it outlives its starter. */
  owner: number | null;
}

const lockFile = (): string => join(cacheRoot(), 'node.lock');

function readLock(): Lock | null {
  try {
    return JSON.parse(readFileSync(lockFile(), 'utf8')) as Lock;
  } catch {
    return null;
  }
}

function running(pid: number, binary?: string): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return false;
    return binary === undefined || readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] === binary;
  } catch {
    return false;
  }
}

function nodeProcessesRun(dir: string): boolean {
  const state = readNodeState(dir);
  return state !== null && Object.values(state.processes).some(([binary, pid]) => running(pid, binary));
}

/** The directory of a live node on this machine (its processes run and its owner, if any, lives), or null. */
export function liveNode(): string | null {
  const lock = readLock();
  if (!lock) return null;
  const ownerAlive = lock.owner === null || running(lock.owner);
  return ownerAlive && nodeProcessesRun(lock.dir) ? lock.dir : null;
}

/** The node directory the lock names when that node is stale (to be undone before a new start), else null. */
export function staleNode(): string | null {
  const lock = readLock();
  return lock && liveNode() === null ? lock.dir : null;
}

export function writeLock(dir: string, owner: number | null): void {
  mkdirSync(cacheRoot(), { recursive: true });
  writeFileSync(lockFile(), JSON.stringify({ dir, owner } satisfies Lock));
}

export function releaseLock(dir: string): void {
  if (readLock()?.dir === dir && existsSync(lockFile())) rmSync(lockFile());
}
