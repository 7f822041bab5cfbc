// Portal developers in the database, within one organisation (every query carries org_id). A developer is not a
// dashboard user: they sign in to the organisation's portal, never to the dashboard. Only the scrypt hash of the
// password is stored (portal/passwords.ts) and it never leaves this file except to passwordHashByEmail, which the
// credential check uses. `keys` maps each of the developer's keys (by storage id: the key's hash when keys are
// hashed) to the policies it was issued for; `subscriptions` maps a policy to the latest key issued for it.
// `awaiting_approval`: signed up under require_developer_approval and not approved yet (always inactive then).
import type { Queryable } from '../../../db/database.ts';
import { limitClause, type Page } from '../../paging.ts';
import { fromJsonb, iso, jsonb } from '../../../db/rows.ts';

export interface Developer {
  id: string;
  org_id: string;
  email: string;
  inactive: boolean;
  awaiting_approval: boolean;
  fields: Record<string, string>;
  keys: Record<string, string[]>;
  subscriptions: Record<string, string>;
  date_created: string;
}

interface DeveloperRow {
  id: string;
  org_id: string;
  email: string;
  inactive: boolean;
  awaiting_approval: boolean;
  fields: unknown;
  keys: unknown;
  subscriptions: unknown;
  created_at: unknown;
}

const COLUMNS = 'id, org_id, email, inactive, awaiting_approval, fields, keys, subscriptions, created_at';

function toDeveloper(row: DeveloperRow): Developer {
  return {
    id: row.id,
    org_id: row.org_id,
    email: row.email,
    inactive: row.inactive,
    awaiting_approval: row.awaiting_approval,
    fields: fromJsonb(row.fields),
    keys: fromJsonb(row.keys),
    subscriptions: fromJsonb(row.subscriptions),
    date_created: iso(row.created_at),
  };
}

export async function getDeveloper(db: Queryable, orgId: string, id: string): Promise<Developer | undefined> {
  const rows = await db.query<DeveloperRow>(`SELECT ${COLUMNS} FROM dashboard_portal_developers WHERE org_id = $1 AND id = $2`, [orgId, id]);
  return rows[0] && toDeveloper(rows[0]);
}

/** The organisation's developers among these ids, by id. */
export async function developersByIds(db: Queryable, orgId: string, ids: readonly string[]): Promise<Map<string, Developer>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<DeveloperRow>(`SELECT ${COLUMNS} FROM dashboard_portal_developers WHERE org_id = $1 AND id = ANY($2::text[])`, [
    orgId,
    [...new Set(ids)],
  ]);
  return new Map(rows.map((row) => [row.id, toDeveloper(row)]));
}

/** The organisation's developer with this e-mail (compared case-insensitively). */
export async function developerByEmail(db: Queryable, orgId: string, email: string): Promise<Developer | undefined> {
  const rows = await db.query<DeveloperRow>(`SELECT ${COLUMNS} FROM dashboard_portal_developers WHERE org_id = $1 AND lower(email) = lower($2)`, [
    orgId,
    email,
  ]);
  return rows[0] && toDeveloper(rows[0]);
}

/** The developer and their password hash, for the credential check only. */
export async function developerWithHashByEmail(
  db: Queryable,
  orgId: string,
  email: string,
): Promise<{ developer: Developer; passwordHash: string } | undefined> {
  const rows = await db.query<DeveloperRow & { password_hash: string }>(
    `SELECT ${COLUMNS}, password_hash FROM dashboard_portal_developers WHERE org_id = $1 AND lower(email) = lower($2)`,
    [orgId, email],
  );
  return rows[0] && { developer: toDeveloper(rows[0]), passwordHash: rows[0].password_hash };
}

/** A page of the organisation's developers, oldest first; `emailContains`: only e-mails containing it (any case). */
export async function listDevelopers(db: Queryable, orgId: string, page: Page, emailContains = ''): Promise<{ items: Developer[]; total: number }> {
  const params: unknown[] = [orgId];
  let where = 'org_id = $1';
  if (emailContains !== '') {
    params.push(emailContains);
    // strpos, not LIKE: the text is matched literally (no wildcard of the caller's), in linear time.
    where += ` AND strpos(lower(email), lower($${params.length})) > 0`;
  }
  const count = await db.query<{ n: number | string }>(`SELECT count(*) AS n FROM dashboard_portal_developers WHERE ${where}`, params);
  const rows = await db.query<DeveloperRow>(
    `SELECT ${COLUMNS} FROM dashboard_portal_developers WHERE ${where} ORDER BY created_at, id${limitClause(page, params)}`,
    params,
  );
  return { items: rows.map(toDeveloper), total: Number(count[0]?.n ?? 0) };
}

/** Whether another developer of the organisation has this e-mail. */
export async function developerEmailTaken(db: Queryable, orgId: string, email: string, exceptId: string): Promise<boolean> {
  return (
    (await db.query('SELECT 1 FROM dashboard_portal_developers WHERE org_id = $1 AND lower(email) = lower($2) AND id <> $3', [orgId, email, exceptId])).length >
    0
  );
}

export async function insertDeveloper(db: Queryable, developer: Omit<Developer, 'date_created'>, passwordHash: string): Promise<void> {
  await db.query(
    `INSERT INTO dashboard_portal_developers (id, org_id, email, password_hash, inactive, fields, keys, subscriptions, awaiting_approval)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8::jsonb, $9)`,
    [
      developer.id,
      developer.org_id,
      developer.email,
      passwordHash,
      developer.inactive,
      jsonb(developer.fields),
      jsonb(developer.keys),
      jsonb(developer.subscriptions),
      developer.awaiting_approval,
    ],
  );
}

/** Writes email, inactive, awaiting_approval, fields, keys and subscriptions (not the password). */
export async function updateDeveloper(db: Queryable, developer: Omit<Developer, 'date_created'>): Promise<boolean> {
  const rows = await db.query(
    `UPDATE dashboard_portal_developers SET email = $3, inactive = $4, fields = $5::jsonb, keys = $6::jsonb, subscriptions = $7::jsonb,
       awaiting_approval = $8 WHERE org_id = $1 AND id = $2 RETURNING id`,
    [
      developer.org_id,
      developer.id,
      developer.email,
      developer.inactive,
      jsonb(developer.fields),
      jsonb(developer.keys),
      jsonb(developer.subscriptions),
      developer.awaiting_approval,
    ],
  );
  return rows.length > 0;
}

export async function setDeveloperPasswordHash(db: Queryable, orgId: string, id: string, passwordHash: string): Promise<boolean> {
  return (
    (await db.query('UPDATE dashboard_portal_developers SET password_hash = $3 WHERE org_id = $1 AND id = $2 RETURNING id', [orgId, id, passwordHash])).length >
    0
  );
}

export async function deleteDeveloper(db: Queryable, orgId: string, id: string): Promise<boolean> {
  return (await db.query('DELETE FROM dashboard_portal_developers WHERE org_id = $1 AND id = $2 RETURNING id', [orgId, id])).length > 0;
}
