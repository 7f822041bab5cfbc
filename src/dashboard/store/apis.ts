// API definitions in the database, Classic or OAS, always read and written within one organisation (a row of
// another organisation is invisible here: every query carries org_id). Ids are unique within an organisation
// (key (org_id, id)): two organisations may use one id without learning of each other; the node API keeps a
// gateway that serves several organisations collision-free (routes/node-ids.ts). domain and listen_path are
// derived from the definition at write time so a route clash within the organisation is one indexed query, and so
// is the search for other organisations' nested routes (the one query here that looks beyond the organisation: it
// answers routes only, never ids or owners).
import type { Queryable } from '../../db/database.ts';
import { limitClause, type Page } from '../paging.ts';
import { fromJsonb, iso, jsonb } from '../../db/rows.ts';

export type ApiFormat = 'classic' | 'oas';

export interface StoredApi {
  id: string;
  org_id: string;
  format: ApiFormat;
  definition: Record<string, unknown>;
  domain: string;
  listen_path: string;
  user_owners: string[];
  user_group_owners: string[];
  created_at: string;
  updated_at: string;
}

export type NewApi = Omit<StoredApi, 'created_at' | 'updated_at'>;

interface ApiRow {
  id: string;
  org_id: string;
  format: ApiFormat;
  definition: unknown;
  domain: string;
  listen_path: string;
  user_owners: unknown;
  user_group_owners: unknown;
  created_at: unknown;
  updated_at: unknown;
}

const COLUMNS = 'id, org_id, format, definition, domain, listen_path, user_owners, user_group_owners, created_at, updated_at';

function toApi(row: ApiRow): StoredApi {
  return {
    id: row.id,
    org_id: row.org_id,
    format: row.format,
    definition: fromJsonb(row.definition),
    domain: row.domain,
    listen_path: row.listen_path,
    user_owners: fromJsonb(row.user_owners),
    user_group_owners: fromJsonb(row.user_group_owners),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export async function getApi(db: Queryable, orgId: string, id: string): Promise<StoredApi | undefined> {
  const rows = await db.query<ApiRow>(`SELECT ${COLUMNS} FROM dashboard_apis WHERE org_id = $1 AND id = $2`, [orgId, id]);
  return rows[0] && toApi(rows[0]);
}

/** Whether the organisation already has an API with this id (other organisations' ids are not looked at). */
export async function apiIdTaken(db: Queryable, orgId: string, id: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM dashboard_apis WHERE org_id = $1 AND id = $2', [orgId, id])).length > 0;
}

export async function listApis(db: Queryable, orgId: string, page: Page, format?: ApiFormat): Promise<{ items: StoredApi[]; total: number }> {
  const params: unknown[] = format ? [orgId, format] : [orgId];
  const where = format ? 'org_id = $1 AND format = $2' : 'org_id = $1';
  const count = await db.query<{ n: number | string }>(`SELECT count(*) AS n FROM dashboard_apis WHERE ${where}`, params);
  const rows = await db.query<ApiRow>(`SELECT ${COLUMNS} FROM dashboard_apis WHERE ${where} ORDER BY created_at, id${limitClause(page, params)}`, params);
  return { items: rows.map(toApi), total: Number(count[0]?.n ?? 0) };
}

/** Every API (of one organisation, or of all), by id (then creation): what gateways load. */
export async function allApis(db: Queryable, orgId: string | undefined): Promise<StoredApi[]> {
  const rows =
    orgId === undefined
      ? await db.query<ApiRow>(`SELECT ${COLUMNS} FROM dashboard_apis ORDER BY id, created_at, org_id`)
      : await db.query<ApiRow>(`SELECT ${COLUMNS} FROM dashboard_apis WHERE org_id = $1 ORDER BY id`, [orgId]);
  return rows.map(toApi);
}

/** The id of another API of the organisation answering on the same domain and listen path. */
export async function routeTakenBy(db: Queryable, orgId: string, domain: string, listenPath: string, exceptId: string): Promise<string | undefined> {
  const rows = await db.query<{ id: string }>('SELECT id FROM dashboard_apis WHERE org_id = $1 AND domain = $2 AND listen_path = $3 AND id <> $4 LIMIT 1', [
    orgId,
    domain,
    listenPath,
    exceptId,
  ]);
  return rows[0]?.id;
}

/** Other organisations' routes on this listen path, above it or under it (segment boundaries; any domain). */
export async function nestedRoutesOfOtherOrgs(
  db: Queryable,
  orgId: string,
  ancestors: readonly string[],
  descendantPrefix: string,
): Promise<{ domain: string; listen_path: string }[]> {
  const like = `${descendantPrefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return db.query<{ domain: string; listen_path: string }>(
    'SELECT DISTINCT domain, listen_path FROM dashboard_apis WHERE org_id <> $1 AND (listen_path = ANY($2::text[]) OR listen_path LIKE $3) ORDER BY listen_path, domain',
    [orgId, ancestors, like],
  );
}

/** Which of these ids are APIs of the organisation. */
export async function existingApiIds(db: Queryable, orgId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.query<{ id: string }>('SELECT id FROM dashboard_apis WHERE org_id = $1 AND id = ANY($2::text[])', [orgId, ids]);
  return new Set(rows.map((r) => r.id));
}

export async function insertApi(db: Queryable, api: NewApi): Promise<void> {
  await db.query(
    `INSERT INTO dashboard_apis (id, org_id, format, definition, domain, listen_path, user_owners, user_group_owners)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7::jsonb, $8::jsonb)`,
    [api.id, api.org_id, api.format, jsonb(api.definition), api.domain, api.listen_path, jsonb(api.user_owners), jsonb(api.user_group_owners)],
  );
}

export async function updateApi(db: Queryable, api: NewApi): Promise<void> {
  await db.query(
    `UPDATE dashboard_apis SET definition = $3::jsonb, domain = $4, listen_path = $5, user_owners = $6::jsonb, user_group_owners = $7::jsonb, updated_at = now()
     WHERE org_id = $1 AND id = $2`,
    [api.org_id, api.id, jsonb(api.definition), api.domain, api.listen_path, jsonb(api.user_owners), jsonb(api.user_group_owners)],
  );
}

export async function deleteApi(db: Queryable, orgId: string, id: string): Promise<boolean> {
  return (await db.query('DELETE FROM dashboard_apis WHERE org_id = $1 AND id = $2 RETURNING id', [orgId, id])).length > 0;
}

/** The organisation's APIs whose definition contains this text: a certificate id (organisation id + SHA-256) is
 * named only where an API uses it (certificates, client_certificates, upstream_certificates, pinned_public_keys,
 * and the OAS places), so this finds the APIs using a certificate. */
export async function apisNaming(db: Queryable, orgId: string, text: string): Promise<StoredApi[]> {
  const rows = await db.query<ApiRow>(`SELECT ${COLUMNS} FROM dashboard_apis WHERE org_id = $1 AND strpos(definition::text, $2) > 0 ORDER BY created_at, id`, [
    orgId,
    text,
  ]);
  return rows.map(toApi);
}
