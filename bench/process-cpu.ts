// CPU time a process and its descendants have used (Linux /proc), for per-request CPU costs in bench/proxy: on a
// machine shared with other work, throughput measures the scheduler as much as the code, while the CPU a gateway
// (and its template engine process or worker thread) spends per request does not depend on who else runs.
import { readdirSync, readFileSync } from 'node:fs';

const TICK_US = 1e6 / 100; // USER_HZ is 100 on Linux

/** utime + stime of `pid` and everything under it, in µs (threads are counted in their process). */
export function treeCpuUs(pid: number): number {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Fields after "pid (comm) ": state ppid ... utime(14) stime(15), counted from 1 over the whole line.
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8')
        .replace(/^.*\) /s, '')
        .split(' ');
      stats.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // gone meanwhile
    }
  }
  let ticks = 0;
  const stack = [pid];
  while (stack.length > 0) {
    const current = stack.pop()!;
    ticks += stats.get(current)?.ticks ?? 0;
    for (const [child, stat] of stats) if (stat.ppid === current) stack.push(child);
  }
  return ticks * TICK_US;
}
