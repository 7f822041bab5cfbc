// Security policies in the database, within one organisation (every query carries org_id). Ids are unique within
// an organisation (key (org_id, id)), like API ids (see store/apis.ts). `slug` is the name's slug, kept beside the policy so the
// duplicate-name rule (enable_duplicate_slugs off) is one indexed query.
import type { Queryable } from '../../db/database.ts';
import { limitClause, type Page } from '../paging.ts';
import { fromJsonb, jsonb } from '../../db/rows.ts';

export interface StoredPolicy {
  id: string;
  org_id: string;
  /** The policy as validated, with id and org_id set. */
  policy: Record<string, unknown>;
}

interface PolicyRow {
  id: string;
  org_id: string;
  policy: unknown;
}

function toPolicy(row: PolicyRow): StoredPolicy {
  return { id: row.id, org_id: row.org_id, policy: fromJsonb(row.policy) };
}

export async function getPolicy(db: Queryable, orgId: string, id: string): Promise<StoredPolicy | undefined> {
  const rows = await db.query<PolicyRow>('SELECT id, org_id, policy FROM dashboard_policies WHERE org_id = $1 AND id = $2', [orgId, id]);
  return rows[0] && toPolicy(rows[0]);
}

/** Whether the organisation already has a policy with this id (other organisations' ids are not looked at). */
export async function policyIdTaken(db: Queryable, orgId: string, id: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM dashboard_policies WHERE org_id = $1 AND id = $2', [orgId, id])).length > 0;
}

export async function slugTakenBy(db: Queryable, orgId: string, slug: string, exceptId: string): Promise<string | undefined> {
  const rows = await db.query<{ id: string }>('SELECT id FROM dashboard_policies WHERE org_id = $1 AND slug = $2 AND id <> $3 LIMIT 1', [
    orgId,
    slug,
    exceptId,
  ]);
  return rows[0]?.id;
}

export async function listPolicies(db: Queryable, orgId: string, page: Page): Promise<{ items: StoredPolicy[]; total: number }> {
  const params: unknown[] = [orgId];
  const count = await db.query<{ n: number | string }>('SELECT count(*) AS n FROM dashboard_policies WHERE org_id = $1', params);
  const rows = await db.query<PolicyRow>(
    `SELECT id, org_id, policy FROM dashboard_policies WHERE org_id = $1 ORDER BY created_at, id${limitClause(page, params)}`,
    params,
  );
  return { items: rows.map(toPolicy), total: Number(count[0]?.n ?? 0) };
}

export async function allPolicies(db: Queryable, orgId: string | undefined): Promise<StoredPolicy[]> {
  const rows =
    orgId === undefined
      ? await db.query<PolicyRow>('SELECT id, org_id, policy FROM dashboard_policies ORDER BY id, created_at, org_id')
      : await db.query<PolicyRow>('SELECT id, org_id, policy FROM dashboard_policies WHERE org_id = $1 ORDER BY id', [orgId]);
  return rows.map(toPolicy);
}

/** The organisation's policies among these ids. */
export async function policiesByIds(db: Queryable, orgId: string, ids: readonly string[]): Promise<Map<string, StoredPolicy>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<PolicyRow>('SELECT id, org_id, policy FROM dashboard_policies WHERE org_id = $1 AND id = ANY($2::text[])', [orgId, ids]);
  return new Map(rows.map((row) => [row.id, toPolicy(row)]));
}

export async function insertPolicy(db: Queryable, policy: StoredPolicy, slug: string): Promise<void> {
  await db.query('INSERT INTO dashboard_policies (id, org_id, slug, policy) VALUES ($1, $2, $3, $4::jsonb)', [
    policy.id,
    policy.org_id,
    slug,
    jsonb(policy.policy),
  ]);
}

export async function updatePolicy(db: Queryable, policy: StoredPolicy, slug: string): Promise<void> {
  await db.query('UPDATE dashboard_policies SET slug = $3, policy = $4::jsonb, updated_at = now() WHERE org_id = $1 AND id = $2', [
    policy.org_id,
    policy.id,
    slug,
    jsonb(policy.policy),
  ]);
}

export async function deletePolicy(db: Queryable, orgId: string, id: string): Promise<boolean> {
  return (await db.query('DELETE FROM dashboard_policies WHERE org_id = $1 AND id = $2 RETURNING id', [orgId, id])).length > 0;
}
