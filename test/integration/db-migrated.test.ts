// db/migrated.ts on embedded PGlite, the engine whose directory it locks: a service's database opened, migrated
// and locked for this process; a failed migration closes it and releases the lock; close() releases it; without
// lock options (the dashboard) no lock is taken.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Migration } from '../../src/db/migrate.ts';
import { openMigratedDatabase } from '../../src/db/migrated.ts';

const MIGRATIONS: Migration[] = [{ version: 1, name: 'notes', sql: 'CREATE TABLE notes (id text PRIMARY KEY);' }];
const BROKEN: Migration[] = [...MIGRATIONS, { version: 2, name: 'broken', sql: 'ALTER TABLE missing ADD COLUMN y text;' }];
const LOCK = { what: 'the PGlite database', hint: 'a test' };

const root = mkdtempSync(join(tmpdir(), 'gw-migrated-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
const freshDirectory = (): string => join(root, `db${++counter}`);

describe('openMigratedDatabase on PGlite', () => {
  it('holds the directory lock while open, applies migrations once, and releases the lock on close', async () => {
    const url = freshDirectory();
    const first = await openMigratedDatabase(url, 'test_migrations', MIGRATIONS, LOCK);
    expect(first.applied).toEqual([1]);
    expect(readFileSync(`${url}.lock`, 'utf8').trim()).toBe(String(process.pid));
    await first.db.query("INSERT INTO notes (id) VALUES ('kept')");
    await first.close();
    expect(existsSync(`${url}.lock`)).toBe(false);

    const again = await openMigratedDatabase(url, 'test_migrations', MIGRATIONS, LOCK);
    expect(again.applied).toEqual([]);
    expect(await again.db.query('SELECT id FROM notes')).toEqual([{ id: 'kept' }]);
    await again.close();
  });

  it('releases the lock when a migration fails, so the next start can open the directory', async () => {
    const url = freshDirectory();
    await expect(openMigratedDatabase(url, 'test_migrations', BROKEN, LOCK)).rejects.toThrow(/missing/);
    expect(existsSync(`${url}.lock`)).toBe(false);
    const fixed = await openMigratedDatabase(url, 'test_migrations', MIGRATIONS, LOCK);
    expect(fixed.applied).toEqual([]); // version 1 committed on its own before version 2 failed
    await fixed.close();
  });

  it('takes no lock without lock options', async () => {
    const url = freshDirectory();
    const opened = await openMigratedDatabase(url, 'test_migrations', MIGRATIONS);
    expect(existsSync(`${url}.lock`)).toBe(false);
    await opened.close();
  });
});
