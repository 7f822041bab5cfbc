// The governance hub's failures as typed values: every refusal the hub answers with is a GovernanceError carrying
// its HTTP status, a stable code and a message that names the offending field, label or API. Stores and routes throw
// them; http.ts is the one place that turns them into `{"status":"error","message":...}` responses.
export type GovernanceErrorCode =
  | 'malformed' // the body is not JSON, or not the expected shape
  | 'invalid' // a field breaks a rule (names the field)
  | 'unauthenticated' // X-API-Key missing or unknown
  | 'forbidden' // a member attempting what only admins may do
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict' // uniqueness, or a label still in use
  | 'too_large';

const STATUS: Record<GovernanceErrorCode, number> = {
  malformed: 400,
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  too_large: 413,
};

export class GovernanceError extends Error {
  readonly code: GovernanceErrorCode;
  readonly status: number;

  constructor(code: GovernanceErrorCode, message: string) {
    super(message);
    this.name = 'GovernanceError';
    this.code = code;
    this.status = STATUS[code];
  }
}

/** A unique index refused a row (PostgreSQL SQLSTATE 23505; pg and PGlite both expose it as `code`). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
