// A process and every process below it, read from /proc (Linux): bin/gw may run the real Node as its child, and a
// gateway may run a template engine process, so a service is its whole tree. The walk the CPU and memory readers
// (process-tree-cpu.ts, process-memory.ts, bench/process-cpu.ts) share.
import { readdirSync, readFileSync } from 'node:fs';

/** `root` and its descendants' pids, root first (a process that exits meanwhile may still be listed). */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name (field 2) is in parentheses and may hold spaces or ')': the fields resume after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree: number[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    tree.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return tree;
}
