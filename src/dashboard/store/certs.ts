// Certificates in the database, within one organisation. The id is the organisation id followed by the SHA-256
// fingerprint of the certificate, so one certificate uploaded by two organisations is two rows. The PEM may hold
// a private key: it is stored, never returned (routes/certs.ts answers metadata only).
import type { Queryable } from '../../db/database.ts';
import { limitClause, type Page } from '../paging.ts';
import { iso } from '../../db/rows.ts';

export interface StoredCert {
  id: string;
  org_id: string;
  pem: string;
  created_at: string;
}

interface CertRow {
  id: string;
  org_id: string;
  pem: string;
  created_at: unknown;
}

function toCert(row: CertRow): StoredCert {
  return { id: row.id, org_id: row.org_id, pem: row.pem, created_at: iso(row.created_at) };
}

export async function getCert(db: Queryable, orgId: string, id: string): Promise<StoredCert | undefined> {
  const rows = await db.query<CertRow>('SELECT id, org_id, pem, created_at FROM dashboard_certs WHERE org_id = $1 AND id = $2', [orgId, id]);
  return rows[0] && toCert(rows[0]);
}

export async function listCerts(db: Queryable, orgId: string, page: Page): Promise<{ items: StoredCert[]; total: number }> {
  const params: unknown[] = [orgId];
  const count = await db.query<{ n: number | string }>('SELECT count(*) AS n FROM dashboard_certs WHERE org_id = $1', params);
  const rows = await db.query<CertRow>(
    `SELECT id, org_id, pem, created_at FROM dashboard_certs WHERE org_id = $1 ORDER BY created_at, id${limitClause(page, params)}`,
    params,
  );
  return { items: rows.map(toCert), total: Number(count[0]?.n ?? 0) };
}

/** Every certificate (of one organisation, or of all): what gateways in licensed mode load (routes/node.ts). */
export async function allCerts(db: Queryable, orgId: string | undefined): Promise<StoredCert[]> {
  const rows =
    orgId === undefined
      ? await db.query<CertRow>('SELECT id, org_id, pem, created_at FROM dashboard_certs ORDER BY id')
      : await db.query<CertRow>('SELECT id, org_id, pem, created_at FROM dashboard_certs WHERE org_id = $1 ORDER BY id', [orgId]);
  return rows.map(toCert);
}

/** Inserts, or replaces the PEM of the same certificate (an upload with its private key after one without). */
export async function putCert(db: Queryable, cert: Omit<StoredCert, 'created_at'>): Promise<void> {
  await db.query(
    'INSERT INTO dashboard_certs (id, org_id, pem) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET pem = EXCLUDED.pem WHERE dashboard_certs.org_id = EXCLUDED.org_id',
    [cert.id, cert.org_id, cert.pem],
  );
}

export async function deleteCert(db: Queryable, orgId: string, id: string): Promise<boolean> {
  return (await db.query('DELETE FROM dashboard_certs WHERE org_id = $1 AND id = $2 RETURNING id', [orgId, id])).length > 0;
}
