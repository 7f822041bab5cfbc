// A gw process started by `gw up` (`bin/gw gateway`, `bin/gw operator`): its output appended to a log file, ready
// once an HTTP URL answers 200, stopped with SIGTERM and, when it does not exit within the grace period, SIGKILL.
// A child that dies while starting fails the start with the tail of its log.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { REPO_ROOT } from './paths.ts';

export interface GwChild {
  pid: number;
  logFile: string;
  stop(graceMs?: number): Promise<void>;
}

export interface GwChildOptions {
  args: string[];
  env?: NodeJS.ProcessEnv;
  logFile: string;
  /** Ready when GET of this URL answers 200. */
  readyUrl: string;
  timeoutMs?: number;
}

export async function startGwChild(options: GwChildOptions): Promise<GwChild> {
  const fd = openSync(options.logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(join(REPO_ROOT, 'bin', 'gw'), options.args, { env: options.env ?? process.env, stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd);
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (graceMs = 15_000): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`gw ${options.args[0]} exited with ${child.exitCode}:\n${tail(options.logFile)}`);
    try {
      const response = await request(options.readyUrl, { headersTimeout: 2000, bodyTimeout: 2000 });
      await response.body.dump();
      if (response.statusCode === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop(1000);
      throw new Error(`gw ${options.args[0]} did not become ready at ${options.readyUrl}:\n${tail(options.logFile)}`);
    }
    await sleep(100);
  }
  return { pid: child.pid!, logFile: options.logFile, stop };
}

function tail(file: string): string {
  return readFileSync(file, 'utf8').split('\n').slice(-20).join('\n');
}
