// Row mapping shared by every store over db/database.ts (the dashboard's and the governance hub's): what pg and
// PGlite hand back for timestamptz and JSONB columns, the JSONB parameter form, and the one driver error the stores
// read (a unique index's refusal). One place, so both services read a row the same way on both engines.

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

/** A unique index refused a row: PostgreSQL's unique_violation (SQLSTATE 23505), raised as `code` by pg and by PGlite. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
