// Portal key requests in the database, within one organisation: a developer (by_user) asks for a key applying
// policies; approval records the issued key's storage id (never the key); a decline keeps the request, marked, with
// the admin's reason. A request goes with its developer.
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
  /** Declined by an admin (then never approved). */
  declined: boolean;
  /** The admin's reason for declining, shown to the developer ('' when none was given). */
  decline_reason: string;
  date_created: string;
}

/** Where a request stands: waiting for an admin, approved (a key was issued) or declined. */
export type KeyRequestStatus = 'pending' | 'approved' | 'declined';

export function statusOf(request: Pick<KeyRequest, 'approved' | 'declined'>): KeyRequestStatus {
  return request.approved ? 'approved' : request.declined ? 'declined' : 'pending';
}

export interface KeyRequestFilter {
  /** Only approved (true) or pending (false: neither approved nor declined) requests; unset: all. */
  approved?: boolean | undefined;
  /** Only requests in this state (with `approved`, both must hold). */
  status?: KeyRequestStatus | undefined;
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
  declined: boolean;
  decline_reason: string;
  created_at: unknown;
}

const COLUMNS = 'id, org_id, by_user, apply_policies, fields, version, approved, key_id, declined, decline_reason, created_at';

const STATUS_CONDITIONS: Record<KeyRequestStatus, string> = {
  pending: 'approved = false AND declined = false',
  approved: 'approved = true',
  declined: 'declined = true',
};

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
    declined: row.declined,
    decline_reason: row.decline_reason,
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
  if (filter.approved !== undefined) where += ` AND ${STATUS_CONDITIONS[filter.approved ? 'approved' : 'pending']}`;
  if (filter.status !== undefined) where += ` AND ${STATUS_CONDITIONS[filter.status]}`;
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

export async function insertKeyRequest(
  db: Queryable,
  request: Omit<KeyRequest, 'date_created' | 'approved' | 'key_id' | 'declined' | 'decline_reason'>,
): Promise<void> {
  await db.query(
    'INSERT INTO dashboard_portal_key_requests (id, org_id, by_user, apply_policies, fields, version) VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6)',
    [request.id, request.org_id, request.by_user, jsonb(request.apply_policies), jsonb(request.fields), request.version],
  );
}

export async function markKeyRequestApproved(db: Queryable, orgId: string, id: string, keyStorageId: string): Promise<void> {
  await db.query('UPDATE dashboard_portal_key_requests SET approved = true, key_id = $3 WHERE org_id = $1 AND id = $2', [orgId, id, keyStorageId]);
}

/** Marks a request declined with the admin's reason (the caller checked it is pending). */
export async function markKeyRequestDeclined(db: Queryable, orgId: string, id: string, reason: string): Promise<void> {
  await db.query('UPDATE dashboard_portal_key_requests SET declined = true, decline_reason = $3 WHERE org_id = $1 AND id = $2', [orgId, id, reason]);
}

export async function deleteKeyRequest(db: Queryable, orgId: string, id: string): Promise<boolean> {
  return (await db.query('DELETE FROM dashboard_portal_key_requests WHERE org_id = $1 AND id = $2 RETURNING id', [orgId, id])).length > 0;
}
