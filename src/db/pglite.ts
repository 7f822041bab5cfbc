// Database embedded in the process: PGlite, PostgreSQL compiled to WebAssembly, persisted in a directory (or in
// memory for throwaway runs). The default of `gw dashboard` and `gw governance` when no PostgreSQL URL is given: the
// same SQL and the same migrations as on a server. One connection: statements are serialised by PGlite itself.
import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable } from './database.ts';

export class PgliteDatabase implements Database {
  readonly kind = 'pglite' as const;
  readonly #db: PGlite;

  private constructor(db: PGlite) {
    this.#db = db;
  }

  /** dataDir undefined: in memory, gone at close. */
  static async open(dataDir?: string): Promise<PgliteDatabase> {
    const db = dataDir ? new PGlite(dataDir) : new PGlite();
    await db.waitReady;
    return new PgliteDatabase(db);
  }

  async query<Row extends object = Record<string, unknown>>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return (await this.#db.query<Row>(sql, params as unknown[])).rows;
  }

  async exec(sql: string): Promise<void> {
    await this.#db.exec(sql);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.#db.transaction(async (tx) => fn({ query: async <Row extends object>(sql: string, params: readonly unknown[] = []) => (await tx.query<Row>(sql, params as unknown[])).rows }));
  }

  async close(): Promise<void> {
    await this.#db.close();
  }
}
