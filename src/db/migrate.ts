// Versioned schema migrations: each service ships an ordered list of {version, name, sql}; migrate() applies the
// ones the database lacks, each in its own transaction together with its row in <table> (so a failed migration
// leaves nothing half-applied), under an advisory lock so two processes starting at once apply each migration
// once. A database holding a version this build does not know (a newer build ran) is refused: a downgrade would
// run code against a schema it does not understand.
import type { Database } from './database.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export class MigrationError extends Error {}

/** Applies what is missing; returns the versions applied now. */
export async function migrate(db: Database, table: string, migrations: readonly Migration[]): Promise<number[]> {
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new MigrationError(`invalid migrations table name ${table}`);
  const versions = migrations.map((m) => m.version);
  if (versions.some((v, i) => i > 0 && v <= versions[i - 1]!)) throw new MigrationError(`migrations of ${table} must have increasing versions`);
  // CREATE TABLE IF NOT EXISTS is not safe against a concurrent twin in PostgreSQL: take the lock first.
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [table]);
    await tx.query(`CREATE TABLE IF NOT EXISTS ${table} (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  });
  const newest = await db.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${table}`);
  const known = versions.at(-1) ?? 0;
  if ((newest[0]?.version ?? 0) > known)
    throw new MigrationError(`the database's ${table} is at version ${newest[0]!.version}, newer than this build knows (${known}): run a newer gw`);
  const applied: number[] = [];
  for (const migration of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [table]);
      const rows = await tx.query<{ version: number }>(`SELECT version FROM ${table} WHERE version = $1`, [migration.version]);
      if (rows.length > 0) return false;
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query(`INSERT INTO ${table} (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
      return true;
    });
    if (done) applied.push(migration.version);
  }
  return applied;
}

/** Statements of a migration script, split on semicolons at line ends (migrations hold no functions or strings with ";\n"). */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*\n/)
    .map((s) => s.trim().replace(/;$/, ''))
    .filter((s) => s.length > 0 && !/^(--[^\n]*\n?)+$/.test(s));
}
