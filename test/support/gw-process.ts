// One `bin/gw <command>` child process for tests (src/up/child.ts, as `gw up` starts them), its output gathered in
// memory, stoppable with any signal (SIGKILL for a crash) and started again on the same arguments. Every process
// still running when the test file ends is killed. The per-service starters (gateway, operator, dashboard,
// governance hub, deployed operator) build on it.
import { afterAll } from 'vitest';
import { startGwChild, type GwChild } from '../../src/up/child.ts';

export interface GwProcess {
  /** Everything it wrote, across restarts. */
  output: () => string;
  /** Launches it and resolves once readyUrl answers 200. */
  start: () => Promise<void>;
  /** Signals it (SIGTERM by default) and resolves with its exit code; null when it was not running. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
  /** The pid bin/gw was started as (undefined before start). */
  pid: () => number | undefined;
}

export interface GwProcessOptions {
  /** The arguments after bin/gw, e.g. ['gateway', '--config', file]. */
  args: string[];
  env?: NodeJS.ProcessEnv;
  readyUrl: string;
  /** Named in errors: "gateway", "dashboard". */
  name: string;
  /** How long it may take to answer readyUrl; default START_TIMEOUT_MS. */
  timeoutMs?: number;
}

/**
 * A test's process may take this long to become ready (gw up's own limit is 60 s). On a CI machine under load
 * (load average 13 on two cores) a gateway of 4 worker threads took over 30 s, and a dashboard opening a fresh
 * PGlite database over 60 s; the test file's hook limit (300 s) stays above it.
 */
const START_TIMEOUT_MS = 180_000;

const running = new Set<GwProcess>();
afterAll(async () => {
  await Promise.all([...running].map((launched) => launched.stop('SIGKILL')));
  running.clear();
});

export function gwProcess(options: GwProcessOptions): GwProcess {
  let child: GwChild | undefined;
  let output = '';
  const launched: GwProcess = {
    output: () => output,
    start: async () => {
      running.add(launched);
      child = await startGwChild({ timeoutMs: START_TIMEOUT_MS, ...options, output: { onOutput: (text) => (output += text) } });
    },
    stop: async (signal = 'SIGTERM') => {
      running.delete(launched);
      return child ? child.stop({ signal }) : null;
    },
    pid: () => child?.pid,
  };
  return launched;
}
