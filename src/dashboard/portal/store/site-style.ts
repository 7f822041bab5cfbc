// The portal's menus and custom CSS in the database: at most one of each per organisation (UNIQUE org_id,
// migration 13), stored as validated (portal/content-schemas.ts). siteLook() is what every portal page needs in
// one query: the menus, when active, and a short digest of the page CSS (empty: none) for the stylesheet's link.
import type { Queryable } from '../../../db/database.ts';
import { fromJsonb, jsonb } from '../../../db/rows.ts';
import type { MenuItem } from '../content-schemas.ts';

export type Menus = Record<string, MenuItem[]>;

export interface StoredMenus {
  id: string;
  org_id: string;
  menus: Menus;
  is_active: boolean;
}

export interface StoredCss {
  id: string;
  org_id: string;
  page_css: string;
  email_css: string;
}

export async function getPortalMenus(db: Queryable, orgId: string): Promise<StoredMenus | undefined> {
  const rows = await db.query<{ id: string; org_id: string; menus: unknown; is_active: boolean }>(
    'SELECT id, org_id, menus, is_active FROM dashboard_portal_menus WHERE org_id = $1',
    [orgId],
  );
  const row = rows[0];
  return row && { id: row.id, org_id: row.org_id, menus: fromJsonb<Menus>(row.menus), is_active: row.is_active };
}

/** Writes the organisation's menus (created with `id` when it has none); answers the stored id. */
export async function putPortalMenus(db: Queryable, stored: StoredMenus): Promise<string> {
  const rows = await db.query<{ id: string }>(
    `INSERT INTO dashboard_portal_menus (id, org_id, menus, is_active) VALUES ($1, $2, $3::jsonb, $4)
     ON CONFLICT (org_id) DO UPDATE SET menus = EXCLUDED.menus, is_active = EXCLUDED.is_active RETURNING id`,
    [stored.id, stored.org_id, jsonb(stored.menus), stored.is_active],
  );
  return rows[0]!.id;
}

export async function getPortalCss(db: Queryable, orgId: string): Promise<StoredCss | undefined> {
  const rows = await db.query<StoredCss>('SELECT id, org_id, page_css, email_css FROM dashboard_portal_css WHERE org_id = $1', [orgId]);
  return rows[0];
}

/** Writes the organisation's CSS (created with `id` when it has none); answers the stored id. */
export async function putPortalCss(db: Queryable, stored: StoredCss): Promise<string> {
  const rows = await db.query<{ id: string }>(
    `INSERT INTO dashboard_portal_css (id, org_id, page_css, email_css) VALUES ($1, $2, $3, $4)
     ON CONFLICT (org_id) DO UPDATE SET page_css = EXCLUDED.page_css, email_css = EXCLUDED.email_css, updated_at = now() RETURNING id`,
    [stored.id, stored.org_id, stored.page_css, stored.email_css],
  );
  return rows[0]!.id;
}

export interface SiteLook {
  /** The active menus (none when the organisation has none or they are inactive). */
  menus: Menus;
  /** md5 of the page CSS, '' when there is none: the stylesheet link's version. */
  cssVersion: string;
}

export async function siteLook(db: Queryable, orgId: string): Promise<SiteLook> {
  const rows = await db.query<{ menus: unknown; css_version: string | null }>(
    `SELECT (SELECT menus FROM dashboard_portal_menus WHERE org_id = $1 AND is_active) AS menus,
            (SELECT md5(page_css) FROM dashboard_portal_css WHERE org_id = $1 AND page_css <> '') AS css_version`,
    [orgId],
  );
  const row = rows[0];
  return { menus: row?.menus ? fromJsonb<Menus>(row.menus) : {}, cssVersion: row?.css_version ?? '' };
}
