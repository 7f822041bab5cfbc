// Database on a PostgreSQL server through pg's connection pool. A transaction holds one pooled connection from BEGIN
// to COMMIT/ROLLBACK; a connection that failed mid-transaction is discarded rather than returned to the pool.
import pg from 'pg';
import type { Database, Queryable } from './database.ts';

export class PostgresDatabase implements Database {
  readonly kind = 'postgres' as const;
  readonly #pool: pg.Pool;

  constructor(connectionString: string, options: { maxConnections?: number } = {}) {
    this.#pool = new pg.Pool({ connectionString, max: options.maxConnections ?? 10 });
    // An idle connection dropped by the server must not crash the process; the pool replaces it.
    this.#pool.on('error', () => undefined);
  }

  async query<Row extends object = Record<string, unknown>>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return (await this.#pool.query(sql, params as unknown[])).rows as Row[];
  }

  async exec(sql: string): Promise<void> {
    await this.#pool.query(sql);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await fn({
        query: async <Row extends object>(sql: string, params: readonly unknown[] = []) => (await client.query(sql, params as unknown[])).rows as Row[],
      });
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => (broken = true));
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}
