// How every dashboard write reaches the database: one transaction that first takes the organisation's advisory
// lock (so two writers of one organisation — also in two dashboard processes on one PostgreSQL — never both pass
// a uniqueness check such as a listen path or a policy slug), runs the checks and statements, and bumps the
// revision counter when gateways must notice. A throw anywhere rolls it all back. Also the few row conversions
// every store file needs (timestamps, JSONB parameters, unique-violation detection).
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

/** A timestamptz column as ISO 8601 (pg and PGlite both hand Dates back; a string is accepted too). */
export function iso(value: unknown): string {
  return (value instanceof Date ? value : new Date(String(value))).toISOString();
}

/** A value for a `$n::jsonb` parameter. */
export function jsonb(value: unknown): string {
  return JSON.stringify(value);
}

/** A JSONB column: already parsed by both drivers; a string (some pg setups) is parsed here. */
export function fromJsonb<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/** PostgreSQL's unique_violation (23505), as raised by pg and by PGlite. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
