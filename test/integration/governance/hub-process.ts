// Real governance hub processes for tests: `bin/gw governance --config <file>` exactly as a user starts it, on a
// free port, in its own temporary directory (config file, and the default PGlite database data/governance beside
// it), against a real PostgreSQL (test/support/postgres.ts) or embedded PGlite. Also one-shot runs of the command
// (`gw governance token create`, a start that must fail). Every hub a test file starts is killed after it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import { afterAll } from 'vitest';
import { gwProcess } from '../../support/gw-process.ts';
import { freePort } from '../../../src/up/ports.ts';
import { REPO_ROOT } from '../../../src/up/paths.ts';
import { http, type HttpResult } from '../../support/gateway.ts';

export const ADMIN_TOKEN = 'governance-test-admin-token';

export interface RunningHub {
  url: string;
  dir: string;
  configFile: string;
  /** Everything the process wrote (JSON log lines). */
  output(): string;
  /** The pid bin/gw runs as (with its children, the whole service). */
  pid(): number;
  /** Calls the API with this key (none: no X-API-Key header); a non-string body is sent as JSON. */
  call(method: Dispatcher.HttpMethod, path: string, options?: { key?: string; body?: unknown }): Promise<HttpResult>;
  /** Calls the API as the bootstrap admin. */
  admin(method: Dispatcher.HttpMethod, path: string, body?: unknown): Promise<HttpResult>;
  /** Runs `gw governance <args> --config <this hub's config>` to its end. */
  command(args: string[]): Promise<CommandResult>;
  /** Stops it (SIGTERM unless told) and waits for the exit; the directory and database stay for a restart. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Starts it again on the same port, configuration and database. */
  restart(): Promise<void>;
}

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const started = new Set<RunningHub>();
const dirs = new Set<string>();

afterAll(async () => {
  await Promise.all([...started].map((hub) => hub.stop('SIGKILL')));
  started.clear();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs.clear();
});

/**
 * Databases of one engine for a describe block. fresh(): config keys naming a new empty database (PGlite: none, so
 * the hub uses its default data/governance beside its config file); freshUrl(): the URL of a new empty database
 * (PGlite: a new directory), for hubs and commands that must share it.
 */

/** Writes a config in a new directory: `config` over the test defaults, a null value removing the key. */
export async function hubConfig(config: Record<string, unknown> = {}): Promise<{ dir: string; configFile: string; port: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-governance-test-'));
  dirs.add(dir);
  const port = await freePort();
  const configFile = join(dir, 'governance.json');
  const full = { listen_address: '127.0.0.1', listen_port: port, admin_token: ADMIN_TOKEN, log_level: 'info', ...config };
  writeFileSync(configFile, JSON.stringify(Object.fromEntries(Object.entries(full).filter(([, value]) => value !== null)), null, 2));
  return { dir, configFile, port };
}

/** Runs `bin/gw governance <args>` to its end (a start expected to fail, the token command). */
export function runGovernance(args: string[], timeoutMs = 60_000): Promise<CommandResult> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(join(REPO_ROOT, 'bin', 'gw'), ['governance', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gw governance ${args.join(' ')} did not finish:\n${stdout}${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr });
    });
  });
}

/** Starts `gw governance` with this configuration (over the test defaults; null removes a key) and waits until it answers. */
export async function startHub(config: Record<string, unknown> = {}): Promise<RunningHub> {
  const { dir, configFile, port } = await hubConfig(config);
  const url = `http://127.0.0.1:${port}`;
  const launched = gwProcess({ args: ['governance', '--config', configFile], readyUrl: `${url}/health`, name: 'governance hub' });
  await launched.start();
  const hub: RunningHub = {
    url,
    dir,
    configFile,
    output: launched.output,
    pid: () => launched.pid()!,
    call: (method, path, options = {}) =>
      http(`${url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(options.key !== undefined ? { 'x-api-key': options.key } : {}) },
        ...(options.body !== undefined ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) } : {}),
      }),
    admin: (method, path, body) => hub.call(method, path, { key: ADMIN_TOKEN, body }),
    command: (args) => runGovernance([...args, '--config', configFile]),
    stop: (signal) => launched.stop(signal),
    restart: async () => {
      await hub.stop();
      await launched.start();
    },
  };
  started.add(hub);
  return hub;
}

/** Fails the test unless the call answered this status; hands back the JSON body. */
export function expectStatus<T = Record<string, unknown>>(result: HttpResult, status: number): T {
  if (result.status !== status) throw new Error(`expected ${status}, got ${result.status}: ${result.text}`);
  return result.json<T>();
}
