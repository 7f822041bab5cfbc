// Whether a process is running, read from /proc (Linux): a zombie (exited, not yet reaped) counts as gone.
import { readFileSync } from 'node:fs';

export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}
