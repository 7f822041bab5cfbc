// A service's database ready to use, for the dashboard and the governance hub alike: the PGlite directory locked
// for this process when the service asks (directory-lock.ts), the database opened (open.ts: PostgreSQL, PGlite
// directory or memory) and migrated to this build's schema (migrate.ts). A failure on the way closes what was
// opened and releases the lock, then is rethrown; so a service only lists its migrations.
import type { Database } from './database.ts';
import { lockDirectory, type DirectoryLockOptions } from './directory-lock.ts';
import { migrate, type Migration } from './migrate.ts';
import { openDatabase, pgliteDirectory } from './open.ts';

export interface MigratedDatabase {
  db: Database;
  /** The migration versions applied by this start (none when the database was current). */
  applied: number[];
  /** Closes the database, then releases the directory lock (if one was taken). */
  close(): Promise<void>;
}

/** Opens the database at url and applies migrations (recorded in table); lock: take the PGlite directory's lock first. */
export async function openMigratedDatabase(
  url: string,
  table: string,
  migrations: readonly Migration[],
  lock?: DirectoryLockOptions,
): Promise<MigratedDatabase> {
  const directory = pgliteDirectory(url);
  const held = lock === undefined || directory === undefined ? undefined : lockDirectory(directory, lock);
  let db: Database | undefined;
  let applied: number[];
  try {
    db = await openDatabase(url);
    applied = await migrate(db, table, migrations);
  } catch (error) {
    await db?.close().catch(() => undefined);
    held?.release();
    throw error;
  }
  const opened = db;
  return {
    db: opened,
    applied,
    close: async () => {
      try {
        await opened.close();
      } finally {
        held?.release();
      }
    },
  };
}
