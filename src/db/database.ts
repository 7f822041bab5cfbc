// The SQL database of the licensed services (dashboard, governance hub): one small interface over PostgreSQL (pg,
// for production) and PGlite (PostgreSQL compiled to WebAssembly, the embedded default), so both run the same SQL.
// Parameters are always bound ($1, $2, ...): no value is ever spliced into SQL text.
export interface Queryable {
  /** Runs one statement; rows as objects keyed by column name. */
  query<Row extends object = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

export interface Database extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Runs fn inside BEGIN ... COMMIT; a throw rolls everything back and is rethrown. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}
