// Organisations in the database: the tenant every other row belongs to. Deleting one deletes everything it owns
// (users, APIs, policies, keys, certificates) through ON DELETE CASCADE.
import type { Queryable } from '../../db/database.ts';
import { limitClause, type Page } from '../paging.ts';
import { iso } from '../../db/rows.ts';

export interface Org {
  id: string;
  owner_name: string;
  cname: string;
  /** Only system users (the operator's) may write APIs and policies. */
  operator_managed: boolean;
  /** People may write APIs and policies a Kubernetes object owns (k8s-owner.ts); default false. */
  allow_hand_edits: boolean;
  created_at: string;
}

interface OrgRow {
  id: string;
  owner_name: string;
  cname: string;
  operator_managed: boolean;
  allow_hand_edits: boolean;
  created_at: unknown;
}

const COLUMNS = 'id, owner_name, cname, operator_managed, allow_hand_edits, created_at';

function toOrg(row: OrgRow): Org {
  return {
    id: row.id,
    owner_name: row.owner_name,
    cname: row.cname,
    operator_managed: row.operator_managed,
    allow_hand_edits: row.allow_hand_edits,
    created_at: iso(row.created_at),
  };
}

export async function getOrg(db: Queryable, id: string): Promise<Org | undefined> {
  const rows = await db.query<OrgRow>(`SELECT ${COLUMNS} FROM dashboard_orgs WHERE id = $1`, [id]);
  return rows[0] && toOrg(rows[0]);
}

/** The organisation whose domain (cname) this host name is, compared without case; '' is no domain. */
export async function orgByCname(db: Queryable, hostname: string): Promise<Org | undefined> {
  if (hostname === '') return undefined;
  const rows = await db.query<OrgRow>(`SELECT ${COLUMNS} FROM dashboard_orgs WHERE cname <> '' AND lower(cname) = lower($1)`, [hostname]);
  return rows[0] && toOrg(rows[0]);
}

export async function listOrgs(db: Queryable, page: Page): Promise<{ items: Org[]; total: number }> {
  const params: unknown[] = [];
  const rows = await db.query<OrgRow>(`SELECT ${COLUMNS} FROM dashboard_orgs ORDER BY created_at, id${limitClause(page, params)}`, params);
  const count = await db.query<{ n: number | string }>('SELECT count(*) AS n FROM dashboard_orgs');
  return { items: rows.map(toOrg), total: Number(count[0]?.n ?? 0) };
}

export async function cnameTaken(db: Queryable, cname: string, exceptId: string): Promise<boolean> {
  if (cname === '') return false;
  // Without case, as orgByCname finds it (organisations stored before cnames were lowercased may hold capitals).
  const rows = await db.query("SELECT 1 FROM dashboard_orgs WHERE cname <> '' AND lower(cname) = lower($1) AND id <> $2", [cname, exceptId]);
  return rows.length > 0;
}

export async function insertOrg(db: Queryable, org: Omit<Org, 'created_at' | 'allow_hand_edits'> & { allow_hand_edits?: boolean }): Promise<void> {
  await db.query('INSERT INTO dashboard_orgs (id, owner_name, cname, operator_managed, allow_hand_edits) VALUES ($1, $2, $3, $4, $5)', [
    org.id,
    org.owner_name,
    org.cname,
    org.operator_managed,
    org.allow_hand_edits ?? false,
  ]);
}

export async function updateOrg(db: Queryable, org: Omit<Org, 'created_at'>): Promise<void> {
  await db.query('UPDATE dashboard_orgs SET owner_name = $2, cname = $3, operator_managed = $4, allow_hand_edits = $5 WHERE id = $1', [
    org.id,
    org.owner_name,
    org.cname,
    org.operator_managed,
    org.allow_hand_edits,
  ]);
}

export async function deleteOrg(db: Queryable, id: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM dashboard_orgs WHERE id = $1 RETURNING id', [id]);
  return rows.length > 0;
}
