// Portal key requests in the database, within one organisation: a developer (by_user) asks for a key applying
// policies; approval records the issued key's storage id (never the key). A request goes with its developer.
import type { Queryable } from '../../../db/database.ts';
import { limitClause, type Page } from '../../paging.ts';
import { fromJsonb, iso, jsonb } from '../../../db/rows.ts';

export interface KeyRequest {
  id: string;
  org_id: string;
  /** The developer's id. */
  by_user: string;
  apply_policies: string[];
  fields: Record<string, string>;
  version: 'v2';
  approved: boolean;
  /** Storage id of the key issued on approval ('' before). */
  key_id: string;
  date_created: string;
}

export interface KeyRequestFilter {
  /** Only approved (true) or pending (false) requests; unset: all. */
  approved?: boolean | undefined;
  /** Only this developer's requests. */
  developerId?: string | undefined;
}

interface RequestRow {
  id: string;
  org_id: string;
  by_user: string;
  apply_policies: unknown;
  fields: unknown;
  version: string;
  approved: boolean;
  key_id: string;
  created_at: unknown;
}

const COLUMNS = 'id, org_id, by_user, apply_policies, fields, version, approved, key_id, created_at';

function toRequest(row: RequestRow): KeyRequest {
  return {
    id: row.id,
    org_id: row.org_id,
    by_user: row.by_user,
    apply_policies: fromJsonb(row.apply_policies),
    fields: fromJsonb(row.fields),
    version: 'v2',
    approved: row.approved,
    key_id: row.key_id,
    date_created: iso(row.created_at),
  };
}

export async function getKeyRequest(db: Queryable, orgId: string, id: string): Promise<KeyRequest | undefined> {
  const rows = await db.query<RequestRow>(`SELECT ${COLUMNS} FROM dashboard_portal_key_requests WHERE org_id = $1 AND id = $2`, [orgId, id]);
  return rows[0] && toRequest(rows[0]);
}

export async function listKeyRequests(db: Queryable, orgId: string, filter: KeyRequestFilter, page: Page): Promise<{ items: KeyRequest[]; total: number }> {
  const params: unknown[] = [orgId];
  let where = 'org_id = $1';
  if (filter.approved !== undefined) {
    params.push(filter.approved);
    where += ` AND approved = $${params.length}`;
  }
  if (filter.developerId !== undefined) {
    params.push(filter.developerId);
    where += ` AND by_user = $${params.length}`;
  }
  const count = await db.query<{ n: number | string }>(`SELECT count(*) AS n FROM dashboard_portal_key_requests WHERE ${where}`, params);
  const rows = await db.query<RequestRow>(
    `SELECT ${COLUMNS} FROM dashboard_portal_key_requests WHERE ${where} ORDER BY created_at, id${limitClause(page, params)}`,
    params,
  );
  return { items: rows.map(toRequest), total: Number(count[0]?.n ?? 0) };
}

export async function insertKeyRequest(db: Queryable, request: Omit<KeyRequest, 'date_created' | 'approved' | 'key_id'>): Promise<void> {
  await db.query(
    'INSERT INTO dashboard_portal_key_requests (id, org_id, by_user, apply_policies, fields, version) VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6)',
    [request.id, request.org_id, request.by_user, jsonb(request.apply_policies), jsonb(request.fields), request.version],
  );
}

export async function markKeyRequestApproved(db: Queryable, orgId: string, id: string, keyStorageId: string): Promise<void> {
  await db.query('UPDATE dashboard_portal_key_requests SET approved = true, key_id = $3 WHERE org_id = $1 AND id = $2', [orgId, id, keyStorageId]);
}

export async function deleteKeyRequest(db: Queryable, orgId: string, id: string): Promise<boolean> {
  return (await db.query('DELETE FROM dashboard_portal_key_requests WHERE org_id = $1 AND id = $2 RETURNING id', [orgId, id])).length > 0;
}
