// readCpuTime: the CPU fields of /proc/self/stat in milliseconds, a command name holding spaces and parentheses,
// and no answer where the file cannot be read or is not in the expected shape.
import { describe, expect, it } from 'vitest';
import { readCpuTime } from './cpu-time.ts';

// pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime ...
const stat = (comm: string): string => `4242 (${comm}) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 1200 300 20 0 1 0 5 0 0\n`;

describe('readCpuTime', () => {
  it("reads utime + stime as its own time and cutime + cstime as its children's, from ticks of 10 ms", () => {
    expect(readCpuTime(() => stat('node'))).toEqual({ selfMs: 3000, childrenMs: 15_000 });
  });

  it('finds the fields after a command name holding spaces and a closing parenthesis', () => {
    expect(readCpuTime(() => stat('vitest (fork) 1'))).toEqual({ selfMs: 3000, childrenMs: 15_000 });
  });

  it('answers undefined where /proc cannot be read or the line is cut short', () => {
    expect(
      readCpuTime(() => {
        throw Object.assign(new Error('no /proc here'), { code: 'ENOENT' });
      }),
    ).toBeUndefined();
    expect(readCpuTime(() => '4242 (node) S 1 4242')).toBeUndefined();
  });

  it('reads this process on Linux', () => {
    const own = readCpuTime();
    if (process.platform !== 'linux') return expect(own).toBeUndefined();
    expect(own?.selfMs).toBeGreaterThan(0);
  });
});
