// CPU time a process and its descendants have used, in nanoseconds, summed over every thread's
// /proc/<pid>/task/<tid>/schedstat (Linux): a gateway's work per request, measured without the clock on the wall,
// which on a shared machine says as much about the neighbours as about the gateway. Ticks (/proc/<pid>/stat) count
// in 10 ms steps, too coarse for a few requests; schedstat counts nanoseconds.
import { readdirSync, readFileSync } from 'node:fs';

function childrenOf(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // exited meanwhile
    }
  }
  return children;
}

function threadNanos(pid: number): number {
  let total = 0;
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0; // exited meanwhile
  }
  for (const tid of tasks) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // a thread that ended meanwhile
    }
  }
  return total;
}

/** CPU nanoseconds used so far by `root` and every process below it (threads that already ended are not counted). */
export function processTreeCpuNanos(root: number): number {
  const children = childrenOf();
  let total = 0;
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    total += threadNanos(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return total;
}
