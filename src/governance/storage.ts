// The governance hub's database, ready to use: the PGlite directory locked for this process (db/directory-lock.ts),
// the database opened (db/open.ts: PostgreSQL, PGlite directory or memory) and migrated to this build's schema.
// Shared by the server and the token command, so both see the same schema and the same lock.
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { openDatabase } from '../db/open.ts';
import { pgliteDirectory } from '../db/open.ts';
import { lockDirectory } from '../db/directory-lock.ts';
import { MIGRATIONS, MIGRATIONS_TABLE } from './migrations.ts';

export interface GovernanceStorage {
  db: Database;
  /** Closes the database, then releases the directory lock. */
  close(): Promise<void>;
}

export async function openGovernanceStorage(databaseUrl: string): Promise<GovernanceStorage> {
  const directory = pgliteDirectory(databaseUrl);
  const lock = directory === undefined ? undefined : lockDirectory(directory, { what: 'the PGlite database', hint: 'a running gw governance?' });
  let db: Database | undefined;
  try {
    db = await openDatabase(databaseUrl);
    await migrate(db, MIGRATIONS_TABLE, MIGRATIONS);
  } catch (error) {
    await db?.close().catch(() => undefined);
    lock?.release();
    throw error;
  }
  const opened = db;
  return {
    db: opened,
    close: async () => {
      try {
        await opened.close();
      } finally {
        lock?.release();
      }
    },
  };
}
