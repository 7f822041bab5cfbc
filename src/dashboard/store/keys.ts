// Keys (sessions) in the database, within one organisation, under their storage id: the SHA-256 of the key when
// it was created with hash_keys on (the key itself is then nowhere), else the key. A storage id is unique within
// its organisation only, so no answer tells one organisation which keys another holds. `hashed` records which, so a
// later change of hash_keys never makes gateways misread an older key.
import type { Queryable } from '../../db/database.ts';
import { limitClause, type Page } from '../paging.ts';
import { fromJsonb, iso, jsonb } from '../../db/rows.ts';

export interface StoredKey {
  storage_id: string;
  org_id: string;
  hashed: boolean;
  session: Record<string, unknown>;
}

interface KeyRow {
  storage_id: string;
  org_id: string;
  hashed: boolean;
  session: unknown;
}

const COLUMNS = 'storage_id, org_id, hashed, session';

function toKey(row: KeyRow): StoredKey {
  return { storage_id: row.storage_id, org_id: row.org_id, hashed: row.hashed, session: fromJsonb(row.session) };
}

export async function getKey(db: Queryable, orgId: string, storageId: string): Promise<StoredKey | undefined> {
  const rows = await db.query<KeyRow>(`SELECT ${COLUMNS} FROM dashboard_keys WHERE org_id = $1 AND storage_id = $2`, [orgId, storageId]);
  return rows[0] && toKey(rows[0]);
}

/** The organisation's key for a credential: stored under its hash, or under itself when created unhashed. */
export async function getKeyByCredential(db: Queryable, orgId: string, key: string, hash: string): Promise<StoredKey | undefined> {
  const rows = await db.query<KeyRow>(
    `SELECT ${COLUMNS} FROM dashboard_keys WHERE org_id = $1 AND ((hashed AND storage_id = $2) OR (NOT hashed AND storage_id = $3))`,
    [orgId, hash, key],
  );
  return rows[0] && toKey(rows[0]);
}

/** Whether the organisation already holds a key under this storage id (other organisations' keys are never looked at). */
export async function keyTaken(db: Queryable, orgId: string, storageId: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM dashboard_keys WHERE org_id = $1 AND storage_id = $2', [orgId, storageId])).length > 0;
}

export async function listKeyIds(db: Queryable, orgId: string, page: Page): Promise<{ items: string[]; total: number }> {
  const params: unknown[] = [orgId];
  const count = await db.query<{ n: number | string }>('SELECT count(*) AS n FROM dashboard_keys WHERE org_id = $1', params);
  const rows = await db.query<{ storage_id: string }>(
    `SELECT storage_id FROM dashboard_keys WHERE org_id = $1 ORDER BY created_at, storage_id${limitClause(page, params)}`,
    params,
  );
  return { items: rows.map((r) => r.storage_id), total: Number(count[0]?.n ?? 0) };
}

/** Every key (of one organisation, or of all: then a storage id several hold comes oldest first). */
export async function allKeys(db: Queryable, orgId: string | undefined): Promise<StoredKey[]> {
  const rows =
    orgId === undefined
      ? await db.query<KeyRow>(`SELECT ${COLUMNS} FROM dashboard_keys ORDER BY storage_id, created_at, org_id`)
      : await db.query<KeyRow>(`SELECT ${COLUMNS} FROM dashboard_keys WHERE org_id = $1 ORDER BY storage_id`, [orgId]);
  return rows.map(toKey);
}

export async function insertKey(db: Queryable, key: StoredKey): Promise<void> {
  await db.query('INSERT INTO dashboard_keys (storage_id, org_id, hashed, session) VALUES ($1, $2, $3, $4::jsonb)', [
    key.storage_id,
    key.org_id,
    key.hashed,
    jsonb(key.session),
  ]);
}

export async function updateKey(db: Queryable, key: StoredKey): Promise<void> {
  await db.query('UPDATE dashboard_keys SET session = $3::jsonb, updated_at = now() WHERE org_id = $1 AND storage_id = $2', [
    key.org_id,
    key.storage_id,
    jsonb(key.session),
  ]);
}

export async function deleteKey(db: Queryable, orgId: string, storageId: string): Promise<boolean> {
  return (await db.query('DELETE FROM dashboard_keys WHERE org_id = $1 AND storage_id = $2 RETURNING storage_id', [orgId, storageId])).length > 0;
}

/** How many of the organisation's keys apply this policy, and how many apply it alone (refused once it is gone). */
export async function keysApplyingPolicy(db: Queryable, orgId: string, policyId: string): Promise<{ keys: number; only_policy: number }> {
  const rows = await db.query<{ keys: number | string; only_policy: number | string }>(
    `SELECT count(*) AS keys, count(*) FILTER (WHERE jsonb_array_length(session->'apply_policies') = 1) AS only_policy
       FROM dashboard_keys WHERE org_id = $1 AND session->'apply_policies' @> jsonb_build_array($2::text)`,
    [orgId, policyId],
  );
  return { keys: Number(rows[0]?.keys ?? 0), only_policy: Number(rows[0]?.only_policy ?? 0) };
}

/** One row of the key list: what the list shows, never the whole session. */
export interface KeySummary {
  storage_id: string;
  hashed: boolean;
  alias: string;
  apply_policies: string[];
  /** Unix seconds; 0 never. */
  expires: number;
  created_at: string;
}

/** A search of the key list: a key (matched through its hash too), a storage id or its start, or an alias's start. */
export interface KeySearch {
  text: string;
  hash: string;
}

/** A page of the organisation's keys, oldest first, optionally searched; the page's rows only are read. */
export async function listKeySummaries(db: Queryable, orgId: string, page: Page, search?: KeySearch): Promise<{ items: KeySummary[]; total: number }> {
  const params: unknown[] = [orgId];
  let where = 'org_id = $1';
  if (search !== undefined) {
    const prefix = `${search.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    params.push(search.hash, search.text, prefix, prefix.toLowerCase());
    where += ` AND ((hashed AND storage_id = $2) OR storage_id = $3 OR storage_id LIKE $4 OR lower(session->>'alias') LIKE $5)`;
  }
  const count = await db.query<{ n: number | string }>(`SELECT count(*) AS n FROM dashboard_keys WHERE ${where}`, params);
  const rows = await db.query<{ storage_id: string; hashed: boolean; alias: string | null; policies: unknown; expires: unknown; created_at: unknown }>(
    `SELECT storage_id, hashed, session->>'alias' AS alias, session->'apply_policies' AS policies, session->'expires' AS expires, created_at
       FROM dashboard_keys WHERE ${where} ORDER BY created_at, storage_id${limitClause(page, params)}`,
    params,
  );
  return {
    items: rows.map((row) => {
      const policies = fromJsonb<unknown>(row.policies);
      const expires = fromJsonb<unknown>(row.expires);
      return {
        storage_id: row.storage_id,
        hashed: row.hashed,
        alias: row.alias ?? '',
        apply_policies: Array.isArray(policies) ? policies.map(String) : [],
        expires: typeof expires === 'number' ? expires : 0,
        created_at: iso(row.created_at),
      };
    }),
    total: Number(count[0]?.n ?? 0),
  };
}
