// Single-use, expiring tokens of a developer's account links: e-mail verification at sign-up and password reset.
// A token is `<id>.<secret>`: 16 random bytes naming the row and 32 random bytes of secret, both base64url. Only the
// SHA-256 of the secret is stored; a presented secret's hash is compared with it in constant time. Using a token
// deletes it in the same statement that checks it (a conditional DELETE ... RETURNING), so it is used at most once
// even when two requests race. Issuing a token voids the developer's earlier ones of the same purpose; expired
// rows are deleted as new ones are issued. Bound to their organisation and developer (rows go with either).
// Must never log or store a token.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../../db/database.ts';

export type AccountTokenPurpose = 'verify-email' | 'reset-password';

/** The table the tokens live in (migration in portal-site/migration.ts). */
export const ACCOUNT_TOKENS_SQL = `
CREATE TABLE portal_developer_tokens (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES dashboard_orgs (id) ON DELETE CASCADE,
  developer_id text NOT NULL REFERENCES dashboard_portal_developers (id) ON DELETE CASCADE,
  purpose text NOT NULL,
  secret_sha256 text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX portal_developer_tokens_expiry ON portal_developer_tokens (expires_at);
CREATE INDEX portal_developer_tokens_developer ON portal_developer_tokens (org_id, developer_id, purpose);
`;

const TOKEN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

const digest = (secret: string): string => createHash('sha256').update(secret).digest('base64url');

export interface TokenOwner {
  orgId: string;
  developerId: string;
}

/** A new token for this developer and purpose, valid for ttlSeconds; the developer's earlier ones of the purpose end. */
export async function issueAccountToken(db: Queryable, owner: TokenOwner, purpose: AccountTokenPurpose, ttlSeconds: number): Promise<string> {
  const id = randomBytes(16).toString('base64url');
  const secret = randomBytes(32).toString('base64url');
  await db.query('DELETE FROM portal_developer_tokens WHERE expires_at <= now() OR (org_id = $1 AND developer_id = $2 AND purpose = $3)', [
    owner.orgId,
    owner.developerId,
    purpose,
  ]);
  await db.query(
    `INSERT INTO portal_developer_tokens (id, org_id, developer_id, purpose, secret_sha256, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
    [id, owner.orgId, owner.developerId, purpose, digest(secret), ttlSeconds],
  );
  return `${id}.${secret}`;
}

/** The live row this token names in this organisation, when its secret matches (constant-time comparison). */
async function matchingRow(
  db: Queryable,
  orgId: string,
  purpose: AccountTokenPurpose,
  token: string,
): Promise<{ id: string; developer_id: string; hash: string } | undefined> {
  const parts = TOKEN.exec(token);
  if (!parts) return undefined;
  const [, id, secret] = parts;
  const rows = await db.query<{ developer_id: string; secret_sha256: string }>(
    'SELECT developer_id, secret_sha256 FROM portal_developer_tokens WHERE id = $1 AND org_id = $2 AND purpose = $3 AND expires_at > now()',
    [id, orgId, purpose],
  );
  const row = rows[0];
  const presented = Buffer.from(digest(secret!));
  const stored = Buffer.from(row?.secret_sha256 ?? '');
  if (!row || stored.length !== presented.length || !timingSafeEqual(stored, presented)) return undefined;
  return { id: id!, developer_id: row.developer_id, hash: row.secret_sha256 };
}

/** The developer a live token would act for, without using it (to show the form it opens). */
export async function peekAccountToken(db: Queryable, orgId: string, purpose: AccountTokenPurpose, token: string): Promise<string | undefined> {
  return (await matchingRow(db, orgId, purpose, token))?.developer_id;
}

/** Uses the token: the developer it was issued to, once; undefined for an unknown, expired, used or forged one. */
export async function useAccountToken(db: Queryable, orgId: string, purpose: AccountTokenPurpose, token: string): Promise<string | undefined> {
  const row = await matchingRow(db, orgId, purpose, token);
  if (!row) return undefined;
  const deleted = await db.query<{ developer_id: string }>(
    'DELETE FROM portal_developer_tokens WHERE id = $1 AND org_id = $2 AND secret_sha256 = $3 AND expires_at > now() RETURNING developer_id',
    [row.id, orgId, row.hash],
  );
  return deleted[0]?.developer_id;
}
