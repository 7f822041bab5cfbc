// The organisation's portal catalogue in the database: at most one per organisation (UNIQUE org_id), its entries
// stored as validated (portal/schemas.ts CatalogueEntryInput). Every query carries org_id; there is no way to
// read another organisation's catalogue through these functions.
import type { Queryable } from '../../../db/database.ts';
import { fromJsonb, jsonb } from '../../../db/rows.ts';
import type { CatalogueEntry } from '../schemas.ts';

export interface Catalogue {
  id: string;
  org_id: string;
  email: string;
  apis: CatalogueEntry[];
}

interface CatalogueRow {
  id: string;
  org_id: string;
  email: string;
  apis: unknown;
}

export async function getCatalogue(db: Queryable, orgId: string): Promise<Catalogue | undefined> {
  const rows = await db.query<CatalogueRow>('SELECT id, org_id, email, apis FROM dashboard_portal_catalogues WHERE org_id = $1', [orgId]);
  const row = rows[0];
  return row && { id: row.id, org_id: row.org_id, email: row.email, apis: fromJsonb<CatalogueEntry[]>(row.apis) };
}

export async function insertCatalogue(db: Queryable, catalogue: Catalogue): Promise<void> {
  await db.query('INSERT INTO dashboard_portal_catalogues (id, org_id, email, apis) VALUES ($1, $2, $3, $4::jsonb)', [
    catalogue.id,
    catalogue.org_id,
    catalogue.email,
    jsonb(catalogue.apis),
  ]);
}

export async function updateCatalogue(db: Queryable, catalogue: Catalogue): Promise<void> {
  await db.query('UPDATE dashboard_portal_catalogues SET email = $2, apis = $3::jsonb, updated_at = now() WHERE org_id = $1', [
    catalogue.org_id,
    catalogue.email,
    jsonb(catalogue.apis),
  ]);
}

/** The catalogue's entry for a policy (the first when several name it). */
export function entryForPolicy(catalogue: Catalogue | undefined, policyId: string): CatalogueEntry | undefined {
  return catalogue?.apis.find((entry) => entry.policy_id === policyId);
}
