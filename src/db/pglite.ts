// Database embedded in the process: PGlite, PostgreSQL compiled to WebAssembly, persisted in a directory (or in
// memory for throwaway runs). The default of `gw dashboard` and `gw governance` when no PostgreSQL URL is given: the
// same SQL and the same migrations as on a server. One connection: statements are serialised by PGlite itself.
// Memory: PostgreSQL's buffer pool lives inside the WebAssembly memory, so shared_buffers is lowered from its
// default of 128 MB to SHARED_BUFFERS (the embedded database of one dashboard or hub is small, and the OS page cache
// still holds the files); the V8 flags that keep PGlite's compiled code small are set by bin/gw (V8_FLAGS). A new
// data directory is made by initdb in a second, throwaway WebAssembly instance whose memory (~300 MB) stays
// resident until V8's next full collection, which an idle service may not run for hours: open() asks for that
// collection once, right after the database is ready.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable } from './database.ts';

/** PostgreSQL shared_buffers inside PGlite (default 128 MB). */
const SHARED_BUFFERS = '16MB';

export class PgliteDatabase implements Database {
  readonly kind = 'pglite' as const;
  readonly #db: PGlite;

  private constructor(db: PGlite) {
    this.#db = db;
  }

  /** dataDir undefined: in memory, gone at close. */
  static async open(dataDir?: string): Promise<PgliteDatabase> {
    const options = { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`] };
    const db = dataDir ? new PGlite(dataDir, options) : new PGlite(options);
    await db.waitReady;
    collectGarbageOnce();
    return new PgliteDatabase(db);
  }

  async query<Row extends object = Record<string, unknown>>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return (await this.#db.query<Row>(sql, params as unknown[])).rows;
  }

  async exec(sql: string): Promise<void> {
    await this.#db.exec(sql);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.#db.transaction(async (tx) =>
      fn({ query: async <Row extends object>(sql: string, params: readonly unknown[] = []) => (await tx.query<Row>(sql, params as unknown[])).rows }),
    );
  }

  async close(): Promise<void> {
    await this.#db.close();
  }
}

/** One full garbage collection (Node's documented way without --expose-gc for the whole process). */
function collectGarbageOnce(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
