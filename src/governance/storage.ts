// The governance hub's database, ready to use (db/migrated.ts): the PGlite directory locked for this process, the
// database opened and migrated to the hub's schema (migrations.ts). Shared by the server and the token command, so
// both see the same schema and the same lock.
import type { Database } from '../db/database.ts';
import { openMigratedDatabase } from '../db/migrated.ts';
import { MIGRATIONS, MIGRATIONS_TABLE } from './migrations.ts';

export interface GovernanceStorage {
  db: Database;
  /** Closes the database, then releases the directory lock. */
  close(): Promise<void>;
}

export async function openGovernanceStorage(databaseUrl: string): Promise<GovernanceStorage> {
  return openMigratedDatabase(databaseUrl, MIGRATIONS_TABLE, MIGRATIONS, { what: 'the PGlite database', hint: 'a running gw governance?' });
}
