// Session rows: created at sign-in, looked up by the SHA-256 of the cookie's token (an index lookup on a digest,
// so timing tells nothing about stored tokens), deleted at sign-out. Expired rows are never answered and are
// purged at each sign-in. Must never store a token or an access key itself, only digests.
import { randomBytes } from 'node:crypto';
import { hashKey } from '../../domain/key-hash.ts';
import type { Queryable } from '../../db/database.ts';
import { iso } from '../../db/rows.ts';

export interface Session {
  user_id: string;
  org_id: string;
  access_key_sha256: string;
  csrf_token: string;
  expires_at: string;
}

interface SessionRow {
  user_id: string;
  org_id: string;
  access_key_sha256: string;
  csrf_token: string;
  expires_at: unknown;
}

/** A new session for this user; returns the token (for the cookie, never stored) and the row. */
export async function openSession(
  db: Queryable,
  user: { id: string; org_id: string },
  accessKeyDigest: string,
  ttlSeconds: number,
): Promise<{ token: string; session: Session }> {
  await db.query('DELETE FROM dashboard_sessions WHERE expires_at <= now()');
  const token = randomBytes(32).toString('base64url');
  const csrf = randomBytes(24).toString('base64url');
  const rows = await db.query<{ expires_at: unknown }>(
    `INSERT INTO dashboard_sessions (token_sha256, user_id, org_id, access_key_sha256, csrf_token, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6)) RETURNING expires_at`,
    [hashKey(token), user.id, user.org_id, accessKeyDigest, csrf, ttlSeconds],
  );
  return {
    token,
    session: { user_id: user.id, org_id: user.org_id, access_key_sha256: accessKeyDigest, csrf_token: csrf, expires_at: iso(rows[0]!.expires_at) },
  };
}

/** The live (unexpired) session this token opened, if any. */
export async function sessionByToken(db: Queryable, token: string): Promise<Session | undefined> {
  const rows = await db.query<SessionRow>(
    'SELECT user_id, org_id, access_key_sha256, csrf_token, expires_at FROM dashboard_sessions WHERE token_sha256 = $1 AND expires_at > now()',
    [hashKey(token)],
  );
  const row = rows[0];
  return row && { ...row, expires_at: iso(row.expires_at) };
}

export async function closeSession(db: Queryable, token: string): Promise<void> {
  await db.query('DELETE FROM dashboard_sessions WHERE token_sha256 = $1', [hashKey(token)]);
}

/** Ends every session of the user except the one this token opened (when given). */
export async function closeUserSessions(db: Queryable, userId: string, keepToken?: string): Promise<void> {
  if (keepToken === undefined) await db.query('DELETE FROM dashboard_sessions WHERE user_id = $1', [userId]);
  else await db.query('DELETE FROM dashboard_sessions WHERE user_id = $1 AND token_sha256 <> $2', [userId, hashKey(keepToken)]);
}

/** Moves the session this token opened from one credential digest to another (a no-op when it holds another). */
export async function moveSessionCredential(db: Queryable, token: string, fromDigest: string, toDigest: string): Promise<void> {
  await db.query('UPDATE dashboard_sessions SET access_key_sha256 = $3 WHERE token_sha256 = $1 AND access_key_sha256 = $2', [
    hashKey(token),
    fromDigest,
    toDigest,
  ]);
}
