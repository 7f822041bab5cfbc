// The resident memory of a process and all its descendants, from /proc (Linux): bin/gw may run the real Node as a
// child (on a machine whose node is older than 24), so a service is its whole process tree. For bench/memory and
// the memory regression tests.
import { readdirSync, readFileSync } from 'node:fs';

/** VmRSS (now) or VmHWM (peak) summed over the process and its descendants, in MB. */
export function treeMemoryMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const ppid = statusField(Number(entry), 'PPid');
    if (ppid !== undefined) children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  let kb = 0;
  const stack = [pid];
  while (stack.length > 0) {
    const current = stack.pop()!;
    kb += statusField(current, field) ?? 0;
    stack.push(...(children.get(current) ?? []));
  }
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
