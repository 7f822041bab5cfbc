// CPU time of this process and of the children it has reaped (gateway, dashboard, Redis, PostgreSQL processes a
// test file started and stopped), read from /proc/self/stat: the measure the slowest-files table prints beside wall
// time, because on a shared machine wall time says as much about the neighbours as about the file.
import { readFileSync } from 'node:fs';

/** Linux reports these fields in USER_HZ ticks, which is 100 on every architecture it supports. */
const TICKS_PER_SECOND = 100;

export interface CpuTime {
  /** User + system time of this process, in milliseconds. */
  selfMs: number;
  /** User + system time of its reaped children (and theirs), in milliseconds. */
  childrenMs: number;
}

/** Undefined where /proc is absent (not Linux): the table then shows no CPU column values. */
export function readCpuTime(stat = (): string => readFileSync('/proc/self/stat', 'utf8')): CpuTime | undefined {
  let text: string;
  try {
    text = stat();
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces or ')': the fields resume after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state); utime, stime, cutime, cstime are fields 14 to 17.
  const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
  if ([utime, stime, cutime, cstime].some((value) => value === undefined || !Number.isFinite(value))) return undefined;
  const ms = (ticks: number): number => (ticks * 1000) / TICKS_PER_SECOND;
  return { selfMs: ms(utime! + stime!), childrenMs: ms(cutime! + cstime!) };
}
