// Administrator session rows: opened with the admin secret (session/admin-routes.ts), looked up by the SHA-256 of
// the cookie's token, deleted at sign-out. A row also holds the digest of the admin secret it was opened with and
// is answered only while that is still the dashboard's secret, so changing admin_secret ends every administrator
// session. Expired rows are never answered and are purged at each sign-in. Must never store a token or the secret
// itself, only digests.
import { randomBytes } from 'node:crypto';
import { hashKey } from '../../domain/key-hash.ts';
import type { Queryable } from '../../db/database.ts';
import { iso } from '../../db/rows.ts';

export interface AdminSession {
  csrf_token: string;
  expires_at: string;
}

/** A new administrator session; returns the token (for the cookie, never stored) and the row. */
export async function openAdminSession(db: Queryable, adminSecretDigest: string, ttlSeconds: number): Promise<{ token: string; session: AdminSession }> {
  await db.query('DELETE FROM dashboard_admin_sessions WHERE expires_at <= now()');
  const token = randomBytes(32).toString('base64url');
  const csrf = randomBytes(24).toString('base64url');
  const rows = await db.query<{ expires_at: unknown }>(
    `INSERT INTO dashboard_admin_sessions (token_sha256, admin_secret_sha256, csrf_token, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING expires_at`,
    [hashKey(token), adminSecretDigest, csrf, ttlSeconds],
  );
  return { token, session: { csrf_token: csrf, expires_at: iso(rows[0]!.expires_at) } };
}

/** The live session this token opened while the admin secret was the one whose digest is given, if any. */
export async function adminSessionByToken(db: Queryable, token: string, adminSecretDigest: string): Promise<AdminSession | undefined> {
  const rows = await db.query<{ csrf_token: string; expires_at: unknown }>(
    'SELECT csrf_token, expires_at FROM dashboard_admin_sessions WHERE token_sha256 = $1 AND admin_secret_sha256 = $2 AND expires_at > now()',
    [hashKey(token), adminSecretDigest],
  );
  const row = rows[0];
  return row && { csrf_token: row.csrf_token, expires_at: iso(row.expires_at) };
}

export async function closeAdminSession(db: Queryable, token: string): Promise<void> {
  await db.query('DELETE FROM dashboard_admin_sessions WHERE token_sha256 = $1', [hashKey(token)]);
}
