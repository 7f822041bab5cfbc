// A real PostgreSQL server (Debian's postgresql package) on a free loopback port: a fresh cluster (initdb) in a
// temporary directory, trust authentication on loopback only; stop() shuts it down and removes the directory.
// PostgreSQL refuses to run as root, so under root it runs as the `postgres` user the package creates. Free of
// vitest so benchmarks use it too (test/support/postgres.ts adds the per-test-file cleanup).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../src/up/ports.ts';

export interface RunningPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** A new empty database on this server; its URL. */
  createDatabase(name: string): string;
  stop(): Promise<void>;
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0]) throw new Error('PostgreSQL is not installed (Debian package postgresql, listed in .ci/apt-packages.txt)');
  return join(root, versions[0], 'bin');
}

export async function startPostgresServer(): Promise<RunningPostgres> {
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
  const child: ChildProcess = spawn(join(bin, 'postgres'), ['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-k', dir, '-c', 'fsync=off'], {
    stdio: 'ignore',
    ...user,
  });
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  // Until it accepts logins (pg_isready exit 0): it accepts TCP connections first, refusing logins while it starts up.
  const deadline = Date.now() + 60_000;
  while (!acceptsLogins(join(bin, 'pg_isready'), port)) {
    if (child.exitCode !== null) throw new Error('postgres exited at start');
    if (Date.now() > deadline) throw new Error('postgres did not start accepting logins within 60 s');
    await sleep(100);
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const psql = join(bin, 'psql');
  const postgres: RunningPostgres = {
    url,
    port,
    createDatabase: (name) => {
      // psql's own message, should it fail, goes into the error (execFileSync's message carries stderr).
      execFileSync(psql, [url, '-v', 'ON_ERROR_STOP=1', '-q', '-c', `CREATE DATABASE "${name}"`], { stdio: ['ignore', 'ignore', 'pipe'] });
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGINT'); // fast shutdown
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return postgres;
}

function acceptsLogins(pgIsready: string, port: number): boolean {
  try {
    execFileSync(pgIsready, ['-q', '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-t', '5'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
