// The organisation's portal configuration in the database: at most one per organisation (UNIQUE org_id), the
// settings stored as validated (portal/config-schema.ts). portalSettings() is what the portal pages act on: the
// stored settings, or every default when the organisation never wrote a configuration.
import type { Queryable } from '../../../db/database.ts';
import { fromJsonb, jsonb } from '../../../db/rows.ts';
import { defaultPortalConfig, type PortalConfigSettings } from '../config-schema.ts';

export interface StoredPortalConfig {
  id: string;
  org_id: string;
  config: PortalConfigSettings;
}

interface ConfigRow {
  id: string;
  org_id: string;
  config: unknown;
}

export async function getPortalConfig(db: Queryable, orgId: string): Promise<StoredPortalConfig | undefined> {
  const rows = await db.query<ConfigRow>('SELECT id, org_id, config FROM dashboard_portal_configs WHERE org_id = $1', [orgId]);
  const row = rows[0];
  return row && { id: row.id, org_id: row.org_id, config: fromJsonb<PortalConfigSettings>(row.config) };
}

/** The settings in force for the organisation (defaults when none were written). */
export async function portalSettings(db: Queryable, orgId: string): Promise<PortalConfigSettings> {
  return (await getPortalConfig(db, orgId))?.config ?? defaultPortalConfig();
}

export async function insertPortalConfig(db: Queryable, stored: StoredPortalConfig): Promise<void> {
  await db.query('INSERT INTO dashboard_portal_configs (id, org_id, config) VALUES ($1, $2, $3::jsonb)', [stored.id, stored.org_id, jsonb(stored.config)]);
}

export async function updatePortalConfig(db: Queryable, stored: StoredPortalConfig): Promise<void> {
  await db.query('UPDATE dashboard_portal_configs SET config = $2::jsonb, updated_at = now() WHERE org_id = $1', [stored.org_id, jsonb(stored.config)]);
}
