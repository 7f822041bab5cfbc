// What the governance hub reads from its database's refusals. Its own refusals are HttpErrors (src/http/errors.ts:
// code -> status in one table), answered by http.ts as {"status":"error","message":...}.

/** A unique index refused a row (PostgreSQL SQLSTATE 23505; pg and PGlite both expose it as `code`). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
