// Which database a URL names:
//   postgres://user:pass@host:5432/db (or postgresql://)   a PostgreSQL server (pg)
//   memory:                                                 PGlite in memory (tests, throwaway runs)
//   anything else                                           a directory for PGlite (created when missing)
// Each engine's module is loaded only when a URL names it: a service on PostgreSQL never loads PGlite (its
// JavaScript alone is tens of MB of resident memory), and one on PGlite never loads pg.
import { mkdirSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Database } from './database.ts';

export async function openDatabase(url: string): Promise<Database> {
  if (isPostgresUrl(url)) return new (await import('./postgres.ts')).PostgresDatabase(url);
  const { PgliteDatabase } = await import('./pglite.ts');
  if (url === 'memory:') return PgliteDatabase.open();
  mkdirSync(url, { recursive: true, mode: 0o700 });
  return PgliteDatabase.open(url);
}

/** The PGlite data directory a database URL names, if it names one. */
export function pgliteDirectory(url: string): string | undefined {
  return isPostgresUrl(url) || url === 'memory:' ? undefined : url;
}

/** PostgreSQL URLs and `memory:` as given; a PGlite directory made absolute against base (a config file's directory). */
export function resolveDatabaseUrl(url: string, base: string): string {
  return pgliteDirectory(url) === undefined || isAbsolute(url) ? url : resolve(base, url);
}

function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/** The URL with its password hidden, for logs. */
export function redactDatabaseUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:/@]+:)[^@]*@/, '$1***@');
}
