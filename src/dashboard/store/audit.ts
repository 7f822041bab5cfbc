// The audit log's rows (audit.ts writes them): who (user id and e-mail at the time), what (action, object type and
// id), when, and from where (client address, and whether through an access key or a web UI session). Organisation
// scoped; listed newest first, filtered by user, object type and object id. Never holds a body or a secret. Entries
// older than audit_retention_days are deleted (retention.ts).
import type { Queryable } from '../../db/database.ts';
import { iso } from '../../db/rows.ts';
import { limitClause, type Page } from '../paging.ts';

export interface AuditEntry {
  id: string;
  org_id: string;
  at: string;
  user_id: string;
  user_email: string;
  action: string;
  object_type: string;
  object_id: string;
  client_ip: string;
  via: 'access key' | 'web session';
}

export interface AuditFilter {
  user_id?: string | undefined;
  object_type?: string | undefined;
  object_id?: string | undefined;
}

type AuditRow = Omit<AuditEntry, 'at'> & { at: unknown };

export async function insertAuditEntry(db: Queryable, entry: Omit<AuditEntry, 'at'>): Promise<void> {
  await db.query(
    `INSERT INTO dashboard_audit (id, org_id, user_id, user_email, action, object_type, object_id, client_ip, via)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [entry.id, entry.org_id, entry.user_id, entry.user_email, entry.action, entry.object_type, entry.object_id, entry.client_ip, entry.via],
  );
}

export async function listAuditEntries(db: Queryable, orgId: string, filter: AuditFilter, page: Page): Promise<{ items: AuditEntry[]; total: number }> {
  const params: unknown[] = [orgId];
  let where = 'org_id = $1';
  for (const column of ['user_id', 'object_type', 'object_id'] as const) {
    const value = filter[column];
    if (value === undefined || value === '') continue;
    params.push(value);
    where += ` AND ${column} = $${params.length}`;
  }
  const count = await db.query<{ n: number | string }>(`SELECT count(*) AS n FROM dashboard_audit WHERE ${where}`, [...params]);
  const rows = await db.query<AuditRow>(
    `SELECT id, org_id, at, user_id, user_email, action, object_type, object_id, client_ip, via FROM dashboard_audit
     WHERE ${where} ORDER BY at DESC, id DESC${limitClause(page, params)}`,
    params,
  );
  return { items: rows.map((row) => ({ ...row, at: iso(row.at) })), total: Number(count[0]?.n ?? 0) };
}

/** Deletes every organisation's entries recorded before `before` (epoch milliseconds); answers how many went. */
export async function pruneAudit(db: Queryable, before: number): Promise<number> {
  const gone = await db.query<{ n: string | number }>(
    'WITH gone AS (DELETE FROM dashboard_audit WHERE at < $1::timestamptz RETURNING 1) SELECT count(*) AS n FROM gone',
    [new Date(before).toISOString()],
  );
  return Number(gone[0]?.n ?? 0);
}
