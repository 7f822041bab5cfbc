// One `bin/gw <command>` child process for tests, started exactly as a user starts it: its stdout and stderr
// gathered, ready once a URL answers 200 (a process that exits first fails the start with its output), stopped with
// a signal (SIGKILL for a crash) and started again on the same arguments. Every process still running when the
// test file ends is killed. The per-service starters (gateway, operator, dashboard, governance hub) build on it.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { afterAll } from 'vitest';
import { REPO_ROOT } from '../../src/up/paths.ts';

export interface GwProcess {
  /** Everything it wrote, across restarts. */
  output: () => string;
  /** Launches it and resolves once readyUrl answers 200. */
  start: () => Promise<void>;
  /** Signals it (SIGTERM by default) and resolves with its exit code; null when it was not running. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

export interface GwProcessOptions {
  /** The arguments after bin/gw, e.g. ['gateway', '--config', file]. */
  args: string[];
  env?: NodeJS.ProcessEnv;
  readyUrl: string;
  /** Named in errors: "gateway", "dashboard". */
  name: string;
  timeoutMs?: number;
}

const running = new Set<GwProcess>();
afterAll(async () => {
  await Promise.all([...running].map((launched) => launched.stop('SIGKILL')));
  running.clear();
});

export function gwProcess(options: GwProcessOptions): GwProcess {
  let child: ChildProcess | undefined;
  let exited: Promise<number | null> = Promise.resolve(null);
  let output = '';
  const launched: GwProcess = {
    output: () => output,
    start: async () => {
      child = spawn(join(REPO_ROOT, 'bin', 'gw'), options.args, { ...(options.env ? { env: options.env } : {}), stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const current = child;
      exited = new Promise((resolveExit) => current.once('exit', (code) => resolveExit(code)));
      running.add(launched);
      const deadline = Date.now() + (options.timeoutMs ?? 60_000);
      for (;;) {
        if (current.exitCode !== null) throw new Error(`${options.name} exited with ${current.exitCode}:\n${output}`);
        try {
          const response = await request(options.readyUrl);
          await response.body.dump();
          if (response.statusCode === 200) return;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline) throw new Error(`${options.name} did not become ready at ${options.readyUrl}:\n${output}`);
        await sleep(50);
      }
    },
    stop: async (signal = 'SIGTERM') => {
      running.delete(launched);
      if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
      child.kill(signal);
      return exited;
    },
  };
  return launched;
}
