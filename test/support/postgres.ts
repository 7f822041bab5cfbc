// Real PostgreSQL servers for tests (postgres-server.ts), stopped and removed after the test file, and the
// per-engine fresh-database helper the db, dashboard and governance suites share.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startPostgresServer, type RunningPostgres } from './postgres-server.ts';

export type { RunningPostgres } from './postgres-server.ts';

const running = new Set<RunningPostgres>();
afterAll(async () => {
  await Promise.all([...running].map((p) => p.stop()));
});

/** A PostgreSQL server for this test file, stopped after it. */
export async function startPostgres(): Promise<RunningPostgres> {
  const server = await startPostgresServer();
  const tracked: RunningPostgres = {
    ...server,
    stop: async () => {
      running.delete(tracked);
      await server.stop();
    },
  };
  running.add(tracked);
  return tracked;
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
