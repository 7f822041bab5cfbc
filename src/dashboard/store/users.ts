// Dashboard users in the database: each belongs to one organisation, holds per-resource permissions and an access
// key of which only the SHA-256 is stored (the key is shown once, at creation or reset). Looking a caller up is an
// index lookup by that digest: the comparison happens on a hash of the presented key, so its timing reveals
// nothing about stored keys.
import type { Queryable } from '../../db/database.ts';
import { limitClause, type Page } from '../paging.ts';
import { fromJsonb, iso, jsonb } from '../../db/rows.ts';

export const RESOURCES = ['apis', 'policies', 'keys', 'certificates', 'portal', 'analytics', 'users', 'user_groups', 'audit_logs'] as const;
export type Resource = (typeof RESOURCES)[number];
export type Access = 'read' | 'write' | 'deny';
export type Permissions = Record<Resource, Access>;

export interface User {
  id: string;
  org_id: string;
  email_address: string;
  first_name: string;
  last_name: string;
  active: boolean;
  /** A system user (the operator's) may write an operator-managed organisation's APIs and policies. */
  system: boolean;
  user_permissions: Permissions;
  /** The user group whose permissions the user holds instead of their own (Tyk's user_group_id); '' for none. */
  user_group_id: string;
  created_at: string;
}

interface UserRow {
  id: string;
  org_id: string;
  email_address: string;
  first_name: string;
  last_name: string;
  active: boolean;
  system: boolean;
  permissions: unknown;
  user_group_id: string | null;
  created_at: unknown;
}

const COLUMNS = 'id, org_id, email_address, first_name, last_name, active, system, permissions, user_group_id, created_at';

function toUser(row: UserRow): User {
  return {
    id: row.id,
    org_id: row.org_id,
    email_address: row.email_address,
    first_name: row.first_name,
    last_name: row.last_name,
    active: row.active,
    system: row.system,
    user_permissions: fromJsonb<Permissions>(row.permissions),
    user_group_id: row.user_group_id ?? '',
    created_at: iso(row.created_at),
  };
}

export async function getUser(db: Queryable, id: string): Promise<User | undefined> {
  const rows = await db.query<UserRow>(`SELECT ${COLUMNS} FROM dashboard_users WHERE id = $1`, [id]);
  return rows[0] && toUser(rows[0]);
}

export async function userByAccessKeyDigest(db: Queryable, digest: string): Promise<User | undefined> {
  const rows = await db.query<UserRow>(`SELECT ${COLUMNS} FROM dashboard_users WHERE access_key_sha256 = $1`, [digest]);
  return rows[0] && toUser(rows[0]);
}

export async function listUsers(db: Queryable, orgId: string | undefined, page: Page): Promise<{ items: User[]; total: number }> {
  const where = orgId === undefined ? '' : ' WHERE org_id = $1';
  const params: unknown[] = orgId === undefined ? [] : [orgId];
  const count = await db.query<{ n: number | string }>(`SELECT count(*) AS n FROM dashboard_users${where}`, params);
  const rows = await db.query<UserRow>(`SELECT ${COLUMNS} FROM dashboard_users${where} ORDER BY created_at, id${limitClause(page, params)}`, params);
  return { items: rows.map(toUser), total: Number(count[0]?.n ?? 0) };
}

/** Whether another user of the organisation has this e-mail address (other organisations' users are never looked at). */
export async function emailTaken(db: Queryable, orgId: string, email: string, exceptId: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM dashboard_users WHERE org_id = $1 AND email_address = $2 AND id <> $3', [orgId, email, exceptId])).length > 0;
}

export async function insertUser(db: Queryable, user: Omit<User, 'created_at'>, accessKeyDigest: string): Promise<void> {
  await db.query(
    `INSERT INTO dashboard_users (id, org_id, email_address, first_name, last_name, active, system, permissions, access_key_sha256, user_group_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10)`,
    [
      user.id,
      user.org_id,
      user.email_address,
      user.first_name,
      user.last_name,
      user.active,
      user.system,
      jsonb(user.user_permissions),
      accessKeyDigest,
      user.user_group_id || null,
    ],
  );
}

export async function updateUser(db: Queryable, user: Omit<User, 'created_at'>): Promise<void> {
  await db.query(
    `UPDATE dashboard_users SET email_address = $2, first_name = $3, last_name = $4, active = $5, system = $6, permissions = $7::jsonb, user_group_id = $8
     WHERE id = $1`,
    [user.id, user.email_address, user.first_name, user.last_name, user.active, user.system, jsonb(user.user_permissions), user.user_group_id || null],
  );
}

export async function setAccessKey(db: Queryable, id: string, accessKeyDigest: string): Promise<boolean> {
  return (await db.query('UPDATE dashboard_users SET access_key_sha256 = $2 WHERE id = $1 RETURNING id', [id, accessKeyDigest])).length > 0;
}

export async function deleteUser(db: Queryable, id: string): Promise<boolean> {
  return (await db.query('DELETE FROM dashboard_users WHERE id = $1 RETURNING id', [id])).length > 0;
}

/** The users with this e-mail and a password (of one organisation when orgId is given), oldest first: one is
 * checked per sign-in (session/password-sign-in.ts). */
export async function passwordUsersByEmail(db: Queryable, email: string, orgId?: string): Promise<{ id: string; password_bcrypt: string }[]> {
  return db.query<{ id: string; password_bcrypt: string }>(
    'SELECT id, password_bcrypt FROM dashboard_users WHERE email_address = $1 AND ($2::text IS NULL OR org_id = $2) AND active AND password_bcrypt IS NOT NULL ORDER BY created_at, id LIMIT 1',
    [email, orgId ?? null],
  );
}

/** The user's bcrypt password hash, undefined when none is set. */
export async function passwordOf(db: Queryable, id: string): Promise<string | undefined> {
  const rows = await db.query<{ password_bcrypt: string | null }>('SELECT password_bcrypt FROM dashboard_users WHERE id = $1', [id]);
  return rows[0]?.password_bcrypt ?? undefined;
}

export async function setPassword(db: Queryable, id: string, bcryptHash: string): Promise<void> {
  await db.query('UPDATE dashboard_users SET password_bcrypt = $2 WHERE id = $1', [id, bcryptHash]);
}

/** The user with this id and the digest their credential had: their access key's, or their password hash's. */
export async function credentialDigestsOf(db: Queryable, id: string): Promise<{ access_key_sha256: string; password_bcrypt: string | null } | undefined> {
  const rows = await db.query<{ access_key_sha256: string; password_bcrypt: string | null }>(
    'SELECT access_key_sha256, password_bcrypt FROM dashboard_users WHERE id = $1',
    [id],
  );
  return rows[0];
}
