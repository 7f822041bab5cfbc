// CPU time a process and its descendants have used (Linux /proc), for per-request CPU costs in bench/proxy: on a
// machine shared with other work, throughput measures the scheduler as much as the code, while the CPU a gateway
// (and its template engine process or worker thread) spends per request does not depend on who else runs.
import { readFileSync } from 'node:fs';
import { processTree } from '../test/support/process-tree.ts';

const TICK_US = 1e6 / 100; // USER_HZ is 100 on Linux

/** utime + stime of `pid` and everything under it, in µs (threads are counted in their process). */
export function treeCpuUs(pid: number): number {
  let ticks = 0;
  for (const member of processTree(pid)) {
    try {
      // Fields after "pid (comm) ": state ppid ... utime(14) stime(15), counted from 1 over the whole line.
      const stat = readFileSync(`/proc/${member}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks * TICK_US;
}
