// The portal's pages in the database, within one organisation (every query carries org_id). A slug is unique
// within the organisation (any case) and at most one page is the homepage (both unique indexes, migration 13).
// Field values are Markdown, rendered by the portal site (portal-site/pages/content-page.ts), never stored as HTML.
import type { Queryable } from '../../../db/database.ts';
import { fromJsonb, iso, jsonb } from '../../../db/rows.ts';
import { limitClause, type Page } from '../../paging.ts';
import type { PageInput } from '../content-schemas.ts';

export type PortalPageContent = Omit<PageInput, 'id' | 'org_id'>;

/** Tyk's page object. */
export interface PortalPage extends PortalPageContent {
  id: string;
  org_id: string;
  date_created: string;
}

interface PageRow {
  id: string;
  org_id: string;
  title: string;
  slug: string;
  template_name: string;
  fields: unknown;
  is_homepage: boolean;
  is_live: boolean;
  page_settings: unknown;
  created_at: unknown;
}

const COLUMNS = 'id, org_id, title, slug, template_name, fields, is_homepage, is_live, page_settings, created_at';

function toPage(row: PageRow): PortalPage {
  return {
    id: row.id,
    org_id: row.org_id,
    title: row.title,
    slug: row.slug,
    template_name: row.template_name,
    fields: fromJsonb(row.fields),
    is_homepage: row.is_homepage,
    is_live: row.is_live,
    page_settings: fromJsonb(row.page_settings),
    date_created: iso(row.created_at),
  };
}

export async function getPortalPage(db: Queryable, orgId: string, id: string): Promise<PortalPage | undefined> {
  const rows = await db.query<PageRow>(`SELECT ${COLUMNS} FROM dashboard_portal_pages WHERE org_id = $1 AND id = $2`, [orgId, id]);
  return rows[0] && toPage(rows[0]);
}

/** The organisation's live page with this slug (any case), or its live homepage for ''. */
export async function livePortalPage(db: Queryable, orgId: string, slug: string): Promise<PortalPage | undefined> {
  const rows =
    slug === ''
      ? await db.query<PageRow>(`SELECT ${COLUMNS} FROM dashboard_portal_pages WHERE org_id = $1 AND is_homepage AND is_live`, [orgId])
      : await db.query<PageRow>(`SELECT ${COLUMNS} FROM dashboard_portal_pages WHERE org_id = $1 AND lower(slug) = lower($2) AND is_live`, [orgId, slug]);
  return rows[0] && toPage(rows[0]);
}

/** A page of the organisation's pages, oldest first. */
export async function listPortalPages(db: Queryable, orgId: string, page: Page): Promise<{ items: PortalPage[]; total: number }> {
  const params: unknown[] = [orgId];
  const count = await db.query<{ n: number | string }>('SELECT count(*) AS n FROM dashboard_portal_pages WHERE org_id = $1', params);
  const rows = await db.query<PageRow>(
    `SELECT ${COLUMNS} FROM dashboard_portal_pages WHERE org_id = $1 ORDER BY created_at, id${limitClause(page, params)}`,
    params,
  );
  return { items: rows.map(toPage), total: Number(count[0]?.n ?? 0) };
}

/** Whether another page of the organisation has this slug (any case). */
export async function portalPageSlugTaken(db: Queryable, orgId: string, slug: string, exceptId: string): Promise<boolean> {
  return (
    (await db.query('SELECT 1 FROM dashboard_portal_pages WHERE org_id = $1 AND lower(slug) = lower($2) AND id <> $3', [orgId, slug, exceptId])).length > 0
  );
}

/** Makes no page of the organisation but `exceptId` the homepage. */
export async function clearPortalHomepage(db: Queryable, orgId: string, exceptId: string): Promise<void> {
  await db.query('UPDATE dashboard_portal_pages SET is_homepage = false WHERE org_id = $1 AND is_homepage AND id <> $2', [orgId, exceptId]);
}

export async function insertPortalPage(db: Queryable, orgId: string, id: string, page: PortalPageContent): Promise<void> {
  await db.query(
    `INSERT INTO dashboard_portal_pages (id, org_id, title, slug, template_name, fields, is_homepage, is_live, page_settings)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9::jsonb)`,
    [id, orgId, page.title, page.slug, page.template_name, jsonb(page.fields), page.is_homepage, page.is_live, jsonb(page.page_settings)],
  );
}

export async function updatePortalPage(db: Queryable, orgId: string, id: string, page: PortalPageContent): Promise<boolean> {
  const rows = await db.query(
    `UPDATE dashboard_portal_pages SET title = $3, slug = $4, template_name = $5, fields = $6::jsonb, is_homepage = $7, is_live = $8,
       page_settings = $9::jsonb, updated_at = now() WHERE org_id = $1 AND id = $2 RETURNING id`,
    [orgId, id, page.title, page.slug, page.template_name, jsonb(page.fields), page.is_homepage, page.is_live, jsonb(page.page_settings)],
  );
  return rows.length > 0;
}

export async function deletePortalPage(db: Queryable, orgId: string, id: string): Promise<boolean> {
  return (await db.query('DELETE FROM dashboard_portal_pages WHERE org_id = $1 AND id = $2 RETURNING id', [orgId, id])).length > 0;
}
