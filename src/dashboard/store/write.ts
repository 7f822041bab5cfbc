// How every dashboard write reaches the database: one transaction that first takes the organisation's advisory
// lock (so two writers of one organisation — also in two dashboard processes on one PostgreSQL — never both pass
// a uniqueness check such as a listen path or a policy slug), runs the checks and statements, and bumps the
// revision counter when gateways must notice. A throw anywhere rolls it all back. The row conversions every store
// file needs (timestamps, JSONB, unique violations) are db/rows.ts, shared with the governance hub.
import type { Database, Queryable } from '../../db/database.ts';

export interface WriteOptions {
  /** The write changes what gateways load (APIs, policies, keys): bump the revision. */
  bumpRevision: boolean;
}

export async function write<T>(db: Database, orgId: string, options: WriteOptions, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`gw-dashboard-org:${orgId}`]);
    const result = await fn(tx);
    if (options.bumpRevision) await tx.query('UPDATE dashboard_revision SET value = value + 1 WHERE id = 1');
    return result;
  });
}

export async function revision(db: Queryable): Promise<string> {
  const rows = await db.query<{ value: string | number }>('SELECT value FROM dashboard_revision WHERE id = 1');
  return String(rows[0]?.value ?? 0);
}
