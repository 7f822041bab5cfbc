// The resident memory of a process and all its descendants, from /proc (Linux): bin/gw may run the real Node as a
// child (on a machine whose node is older than 24), so a service is its whole process tree. For bench/memory and
// the memory regression tests.
import { readFileSync } from 'node:fs';
import { processTree } from './process-tree.ts';

/** VmRSS (now) or VmHWM (peak) summed over the process and its descendants, in MB. */
export function treeMemoryMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  let kb = 0;
  for (const member of processTree(pid)) kb += statusField(member, field) ?? 0;
  return Math.round(kb / 1024);
}

/** A numeric field of /proc/<pid>/status; undefined when the process is gone. */
function statusField(pid: number, field: string): number | undefined {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}
