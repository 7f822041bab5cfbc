// A `bin/gw <command>` child process (`gw up` starts the gateway and the operator this way; the test harness starts
// every gw process through it): its output appended to a log file or handed to a callback, ready once an HTTP URL
// answers 200 — a child that exits first, or is not ready in time, fails the start with the end of its output —
// and stopped with a signal (SIGTERM by default), escalating to SIGKILL when it does not exit within the grace
// period. It runs under this process's own Node (new enough: it runs our TypeScript), never through the bootstrap
// of an older `node` on PATH, so the pid reported is the gw process itself and a signal to it reaches it directly.
// It runs in its own process group and stops by itself when this process is gone (config/stop-request.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { PARENT_PID_ENV } from '../config/stop-request.ts';
import { REPO_ROOT } from './paths.ts';

export interface GwChild {
  pid: number;
  /** Signals it and resolves with its exit code (null: killed by a signal, or no longer running). */
  stop(options?: { signal?: NodeJS.Signals; graceMs?: number }): Promise<number | null>;
}

export interface GwChildOptions {
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Where its output goes: appended to this file, or handed to this callback. */
  output: { logFile: string } | { onOutput: (text: string) => void };
  /** Ready when GET of this URL answers 200. */
  readyUrl: string;
  /** Named in errors. Default `gw <first argument>`. */
  name?: string;
  timeoutMs?: number;
}

const TAIL_BYTES = 8192;

export async function startGwChild(options: GwChildOptions): Promise<GwChild> {
  const name = options.name ?? `gw ${options.args[0]}`;
  let tail = '';
  const remember = (text: string): void => {
    tail = (tail + text).slice(-TAIL_BYTES);
  };
  const gwArgv = [join(REPO_ROOT, 'bin', 'gw'), ...options.args];
  // Its own process group (a Ctrl-C at the terminal reaches only us, and we stop it once, in order), and our pid so
  // that it stops by itself when we are gone (config/stop-request.ts).
  const spawnOptions = { env: { ...(options.env ?? process.env), [PARENT_PID_ENV]: String(process.pid) }, detached: true };
  let child: ChildProcess;
  /** The end of its output so far: what it wrote to its log file (from where it started appending), or was handed. */
  let output = (): string => tail;
  if ('logFile' in options.output) {
    const logFile = options.output.logFile;
    const fd = openSync(logFile, 'a');
    const startedAt = fstatSync(fd).size;
    try {
      child = spawn(process.execPath, gwArgv, { ...spawnOptions, stdio: ['ignore', fd, fd] });
    } finally {
      closeSync(fd);
    }
    output = () => logTail(logFile, startedAt);
  } else {
    const onOutput = options.output.onOutput;
    child = spawn(process.execPath, gwArgv, { ...spawnOptions, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.on('data', (chunk: Buffer) => {
        const text = chunk.toString();
        remember(text);
        onOutput(text);
      });
    }
  }
  const logHint = 'logFile' in options.output ? ` (log: ${options.output.logFile})` : '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop: GwChild['stop'] = async ({ signal = 'SIGTERM', graceMs = 15_000 } = {}) => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}${logHint}:\n${lastLines(output())}`);
    try {
      const response = await request(options.readyUrl, { headersTimeout: 2000, bodyTimeout: 2000 });
      await response.body.dump();
      if (response.statusCode === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop({ graceMs: 1000 });
      throw new Error(`${name} did not become ready at ${options.readyUrl}${logHint}:\n${lastLines(output())}`);
    }
    await sleep(50);
  }
  return { pid: child.pid!, stop };
}

const TAIL_LINES = 20;

/** The last TAIL_BYTES of what file holds past offset (a log this process appended to from there). */
function logTail(file: string, offset: number): string {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return '';
  }
  try {
    const from = Math.max(offset, fstatSync(fd).size - TAIL_BYTES);
    const buffer = Buffer.alloc(TAIL_BYTES);
    const length = readSync(fd, buffer, 0, TAIL_BYTES, from);
    return buffer.subarray(0, length).toString();
  } finally {
    closeSync(fd);
  }
}

/** Its last TAIL_LINES lines, or a note that there were none (never an empty line in an error). */
function lastLines(text: string): string {
  const lines = text.trimEnd().split('\n').slice(-TAIL_LINES);
  return lines.join('\n') || '(it wrote nothing)';
}
