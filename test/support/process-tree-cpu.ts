// CPU time a process and its descendants have used, in nanoseconds, summed over every thread's
// /proc/<pid>/task/<tid>/schedstat (Linux): a gateway's work per request, measured without the clock on the wall,
// which on a shared machine says as much about the neighbours as about the gateway. Ticks (/proc/<pid>/stat,
// bench/process-cpu.ts) count in 10 ms steps, too coarse for a few requests; schedstat counts nanoseconds.
import { readdirSync, readFileSync } from 'node:fs';
import { processTree } from './process-tree.ts';

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
  return processTree(root).reduce((total, pid) => total + threadNanos(pid), 0);
}
