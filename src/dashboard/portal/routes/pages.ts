// /api/portal/pages: the organisation's portal pages (permission `portal`), Tyk's payloads:
//   GET    /api/portal/pages[?p=]        {Data: [page], Pages}
//   POST   /api/portal/pages             page -> {Status: "OK", Message: <page id>, Meta: null}
//   GET    /api/portal/pages/{id}        page
//   PUT    /api/portal/pages/{id}        page -> Message "Data updated"
//   DELETE /api/portal/pages/{id}        Message "Data deleted"
// page = {id, org_id, title, slug, template_name, fields, is_homepage, is_live, page_settings, date_created}.
// A slug taken by another page of the organisation (any case) is 409 naming slug; making a page the homepage
// makes the previous homepage an ordinary page, in the same transaction. A live page is served by the portal at
// <portal>/<slug>/ and the live homepage at the portal's root (portal-site/pages/content-page.ts).
import type { FastifyInstance } from 'fastify';
import { orgRoute } from '../../access.ts';
import type { DashboardDeps } from '../../deps.ts';
import { HttpError, notFound, objectBody, param, parseWith, sendJson, sendOk } from '../../http.ts';
import { objectId } from '../../ids.ts';
import { pageOf, pagesOf } from '../../paging.ts';
import { write } from '../../store/write.ts';
import { PageInput } from '../content-schemas.ts';
import {
  clearPortalHomepage,
  deletePortalPage,
  getPortalPage,
  insertPortalPage,
  listPortalPages,
  portalPageSlugTaken,
  updatePortalPage,
  type PortalPageContent,
} from '../store/pages.ts';

function contentOf(body: Record<string, unknown>): PortalPageContent {
  const { id: _id, org_id: _org, ...content } = parseWith(PageInput, body);
  return content;
}

const slugTaken = (slug: string): HttpError => new HttpError('conflict', `slug: another page of this portal already has the slug "${slug}"`);

export function registerPageRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { db, config } = deps;

  orgRoute(app, '/api/portal/pages', 'portal', {
    GET: async (request, reply, { org }) => {
      const page = pageOf(request, config.page_size);
      const { items, total } = await listPortalPages(db, org.id, page);
      return sendJson(reply, 200, { Data: items, Pages: pagesOf(total, page) });
    },
    POST: async (request, reply, { org }) => {
      const content = contentOf(objectBody(request, 'the page'));
      const id = objectId();
      await write(db, org.id, { bumpRevision: false }, async (tx) => {
        if (await portalPageSlugTaken(tx, org.id, content.slug, id)) throw slugTaken(content.slug);
        if (content.is_homepage) await clearPortalHomepage(tx, org.id, id);
        await insertPortalPage(tx, org.id, id, content);
      });
      deps.log.info({ org: org.id, page: id }, 'portal page created');
      return sendOk(reply, id);
    },
  });

  orgRoute(app, '/api/portal/pages/:id', 'portal', {
    GET: async (request, reply, { org }) => {
      const found = await getPortalPage(db, org.id, param(request, 'id'));
      if (!found) throw notFound('Page');
      return sendJson(reply, 200, found);
    },
    PUT: async (request, reply, { org }) => {
      const id = param(request, 'id');
      const content = contentOf(objectBody(request, 'the page'));
      await write(db, org.id, { bumpRevision: false }, async (tx) => {
        if (!(await getPortalPage(tx, org.id, id))) throw notFound('Page');
        if (await portalPageSlugTaken(tx, org.id, content.slug, id)) throw slugTaken(content.slug);
        if (content.is_homepage) await clearPortalHomepage(tx, org.id, id);
        await updatePortalPage(tx, org.id, id, content);
      });
      deps.log.info({ org: org.id, page: id }, 'portal page updated');
      return sendOk(reply, 'Data updated');
    },
    DELETE: async (request, reply, { org }) => {
      if (!(await deletePortalPage(db, org.id, param(request, 'id')))) throw notFound('Page');
      deps.log.info({ org: org.id, page: param(request, 'id') }, 'portal page deleted');
      return sendOk(reply, 'Data deleted');
    },
  });
}
