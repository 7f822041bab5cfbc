// A real PostgreSQL server (Debian's postgresql package) for tests: a fresh cluster (initdb) in a temporary
// directory on a free loopback port, trust authentication on loopback only, stopped and removed after the test
// file. PostgreSQL refuses to run as root, so under root it runs as the `postgres` user the package creates.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll } from 'vitest';
import { freePort } from '../../src/up/ports.ts';

export interface RunningPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** A new empty database on this server; its URL. */
  createDatabase(name: string): string;
  stop(): Promise<void>;
}

const running = new Set<RunningPostgres>();
afterAll(async () => {
  await Promise.all([...running].map((p) => p.stop()));
});

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a)) : [];
  if (!versions[0]) throw new Error("PostgreSQL is not installed (Debian package postgresql, listed in .ci/apt-packages.txt)");
  return join(root, versions[0], 'bin');
}

export async function startPostgres(): Promise<RunningPostgres> {
  const bin = binDir();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'gw-postgres-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const uid = asRoot ? Number(execFileSync('id', ['-u', 'postgres']).toString().trim()) : undefined;
  const gid = asRoot ? Number(execFileSync('id', ['-g', 'postgres']).toString().trim()) : undefined;
  if (uid !== undefined && gid !== undefined) chownSync(dir, uid, gid);
  const user = uid !== undefined && gid !== undefined ? { uid, gid } : {};
  execFileSync(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8'], { stdio: 'ignore', ...user });
  const child: ChildProcess = spawn(join(bin, 'postgres'), ['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-k', dir, '-c', 'fsync=off'], { stdio: 'ignore', ...user });
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const deadline = Date.now() + 20_000;
  while (!(await answers(port))) {
    if (child.exitCode !== null) throw new Error('postgres exited at start');
    if (Date.now() > deadline) throw new Error('postgres did not start');
    await sleep(100);
  }
  await sleep(300); // accepting TCP precedes accepting logins by a moment
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const psql = join(bin, 'psql');
  const postgres: RunningPostgres = {
    url,
    port,
    createDatabase: (name) => {
      execFileSync(psql, [url, '-v', 'ON_ERROR_STOP=1', '-c', `CREATE DATABASE "${name}"`], { stdio: 'ignore' });
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    stop: async () => {
      running.delete(postgres);
      if (child.exitCode === null) {
        child.kill('SIGINT'); // fast shutdown
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  running.add(postgres);
  return postgres;
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolveAnswer) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolveAnswer(true);
    });
    socket.once('error', () => resolveAnswer(false));
  });
}

export type Engine = 'postgres' | 'pglite';
/** The two database engines every licensed service runs on: for describe.each. */
export const ENGINES: Engine[] = ['postgres', 'pglite'];

export interface EngineDatabases {
  /** A service configuration on a fresh database: a new database on the file's PostgreSQL server, or (pglite) the
   * service's own default, an embedded directory beside its config file. `extra` is merged in. */
  config: (extra?: Record<string, unknown>) => Record<string, unknown>;
  /** An explicit URL of a fresh database: on the PostgreSQL server, or a new PGlite directory. */
  url: () => string;
}

/** Fresh databases on one engine for the calling describe block (a PostgreSQL server is started before its tests). */
export function useDatabases(engine: Engine): EngineDatabases {
  let server: RunningPostgres | undefined;
  let counter = 0;
  const root = mkdtempSync(join(tmpdir(), 'gw-databases-'));
  beforeAll(async () => {
    if (engine === 'postgres') server = await startPostgres();
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const url = (): string => (server ? server.createDatabase(`db${++counter}`) : join(root, `db${++counter}`));
  return { config: (extra = {}) => (server ? { ...extra, database_url: url() } : extra), url };
}
