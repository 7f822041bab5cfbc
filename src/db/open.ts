// Which database a URL names:
//   postgres://user:pass@host:5432/db (or postgresql://)   a PostgreSQL server (pg)
//   memory:                                                 PGlite in memory (tests, throwaway runs)
//   anything else                                           a directory for PGlite (created when missing)
import { mkdirSync } from 'node:fs';
import type { Database } from './database.ts';
import { PgliteDatabase } from './pglite.ts';
import { PostgresDatabase } from './postgres.ts';

export async function openDatabase(url: string): Promise<Database> {
  if (/^postgres(ql)?:\/\//.test(url)) return new PostgresDatabase(url);
  if (url === 'memory:') return PgliteDatabase.open();
  mkdirSync(url, { recursive: true, mode: 0o700 });
  return PgliteDatabase.open(url);
}

/** The URL with its password hidden, for logs. */
export function redactDatabaseUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:/@]+:)[^@]*@/, '$1***@');
}
