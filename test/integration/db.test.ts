// The licensed services' database layer on both engines it supports — a real PostgreSQL server (Debian package)
// and embedded PGlite — with the same SQL: migrations apply once (also when two processes race), a failed
// migration leaves nothing behind, a newer database is refused, transactions roll back, and data survives a
// restart (reopen).
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { MigrationError, migrate, type Migration } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open.ts';
import { ENGINES, startPostgres, useDatabases } from '../support/postgres.ts';

const MIGRATIONS: Migration[] = [
  { version: 1, name: 'notes', sql: 'CREATE TABLE notes (id text PRIMARY KEY, body text NOT NULL);\nCREATE INDEX notes_body ON notes (body);' },
  { version: 2, name: 'notes owner', sql: "ALTER TABLE notes ADD COLUMN owner text NOT NULL DEFAULT 'nobody';" },
];

describe.each(ENGINES)('database on %s', (engine) => {
  const databases = useDatabases(engine);
  const freshUrl = databases.url;

  it('applies migrations once, keeps data across a reopen, and rolls transactions back', async () => {
    const url = freshUrl();
    let db: Database = await openDatabase(url);
    expect(await migrate(db, 'test_migrations', MIGRATIONS)).toEqual([1, 2]);
    expect(await migrate(db, 'test_migrations', MIGRATIONS)).toEqual([]);
    await db.query('INSERT INTO notes (id, body) VALUES ($1, $2)', ['a', "it's; fine"]);
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO notes (id, body) VALUES ($1, $2)', ['b', 'rolled back']);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await db.close();

    db = await openDatabase(url);
    expect(await migrate(db, 'test_migrations', MIGRATIONS)).toEqual([]);
    expect(await db.query('SELECT id, body, owner FROM notes ORDER BY id')).toEqual([{ id: 'a', body: "it's; fine", owner: 'nobody' }]);
    await expect(migrate(db, 'test_migrations', MIGRATIONS.slice(0, 1))).rejects.toBeInstanceOf(MigrationError); // a newer database
    await db.close();
  });

  it('a failing migration leaves nothing half-applied', async () => {
    const db = await openDatabase(freshUrl());
    const broken: Migration[] = [
      MIGRATIONS[0]!,
      { version: 2, name: 'broken', sql: 'ALTER TABLE notes ADD COLUMN x text;\nALTER TABLE missing ADD COLUMN y text;' },
    ];
    await expect(migrate(db, 'test_migrations', broken)).rejects.toThrow(/missing/);
    expect(await db.query('SELECT version FROM test_migrations')).toEqual([{ version: 1 }]);
    const columns = await db.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'notes' ORDER BY column_name",
    );
    expect(columns.map((c) => c.column_name)).toEqual(['body', 'id']);
    await db.close();
  });
});

describe('database on postgres, two processes', () => {
  it('two processes migrating at once apply each migration once', async () => {
    const server = await startPostgres();
    const url = server.createDatabase('race');
    const [a, b] = await Promise.all([openDatabase(url), openDatabase(url)]);
    const results = await Promise.all([migrate(a, 'test_migrations', MIGRATIONS), migrate(b, 'test_migrations', MIGRATIONS)]);
    expect([...results[0], ...results[1]].sort()).toEqual([1, 2]);
    await Promise.all([a.close(), b.close()]);
  });
});
