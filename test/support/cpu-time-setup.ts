// Setup file of every test project: records the CPU time a test file cost its worker and the processes the worker
// reaped while the file was imported and ran, on the file's task meta, for test/support/durations-reporter.ts. Its
// afterAll is registered before the file's own hooks, so it runs after them (hooks run in stack order): processes
// the file stops in its afterAll are counted.
import { afterAll } from 'vitest';
import { readCpuTime } from './cpu-time.ts';

declare module 'vitest' {
  interface TaskMeta {
    /** CPU milliseconds of the file: its worker plus the children the worker reaped meanwhile. */
    cpuMs?: number;
  }
}

// Read when the setup file is evaluated, before the test file is imported: importing it (and what it imports)
// is part of its cost.
const before = readCpuTime();
// vitest reads a hook's first parameter as its fixtures and requires a destructuring pattern; none are used.
// eslint-disable-next-line no-empty-pattern
afterAll(({}, suite) => {
  const after = readCpuTime();
  if (!before || !after) return;
  suite.meta.cpuMs = after.selfMs + after.childrenMs - (before.selfMs + before.childrenMs);
});
