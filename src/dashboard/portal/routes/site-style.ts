// /api/portal/menus and /api/portal/css: the organisation's portal menus and custom CSS (permission `portal`),
// one of each per organisation, Tyk's payloads:
//   GET  /api/portal/menus   {id, org_id, menus: {<name>: [{Title, URL}]}, is_active}   (id "" before any write)
//   POST|PUT /api/portal/menus  {menus, is_active?} -> {Status: "OK", Message: <id>, Meta: null}
//   GET  /api/portal/css     {id, org_id, page_css, email_css}                           (id "" before any write)
//   POST|PUT /api/portal/css    {page_css, email_css?} -> {Status: "OK", Message: <id>, Meta: null}
// POST and PUT both write (create or replace): Tyk documents both without telling them apart. The portal's
// navigation shows the menu named "Main"; page_css is served as the portal's stylesheet <portal>/custom.css
// (portal-site/custom-css.ts); email_css is stored for Tyk's clients and not used (the portal's e-mails are text).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { orgRoute } from '../../access.ts';
import type { DashboardDeps } from '../../deps.ts';
import { objectBody, parseWith, sendJson, sendOk } from '../../http.ts';
import { objectId } from '../../ids.ts';
import { write } from '../../store/write.ts';
import { CssInput, MenusInput } from '../content-schemas.ts';
import { getPortalCss, getPortalMenus, putPortalCss, putPortalMenus } from '../store/site-style.ts';

export function registerSiteStyleRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { db } = deps;

  const writeMenus = async (body: Record<string, unknown>, orgId: string, reply: FastifyReply): Promise<FastifyReply> => {
    const { menus, is_active } = parseWith(MenusInput, body);
    const id = await write(db, orgId, { bumpRevision: false }, (tx) => putPortalMenus(tx, { id: objectId(), org_id: orgId, menus, is_active }));
    deps.log.info({ org: orgId, menus: id }, 'portal menus written');
    return sendOk(reply, id);
  };
  orgRoute(app, '/api/portal/menus', 'portal', {
    GET: async (_request, reply, { org }) => sendJson(reply, 200, (await getPortalMenus(db, org.id)) ?? { id: '', org_id: org.id, menus: {}, is_active: true }),
    POST: async (request, reply, { org }) => writeMenus(objectBody(request, 'the menus'), org.id, reply),
    PUT: async (request, reply, { org }) => writeMenus(objectBody(request, 'the menus'), org.id, reply),
  });

  const writeCss = async (body: Record<string, unknown>, orgId: string, reply: FastifyReply): Promise<FastifyReply> => {
    const { page_css, email_css } = parseWith(CssInput, body);
    const id = await write(db, orgId, { bumpRevision: false }, (tx) => putPortalCss(tx, { id: objectId(), org_id: orgId, page_css, email_css }));
    deps.log.info({ org: orgId, css: id }, 'portal CSS written');
    return sendOk(reply, id);
  };
  orgRoute(app, '/api/portal/css', 'portal', {
    GET: async (_request, reply, { org }) => sendJson(reply, 200, (await getPortalCss(db, org.id)) ?? { id: '', org_id: org.id, page_css: '', email_css: '' }),
    POST: async (request, reply, { org }) => writeCss(objectBody(request, 'the CSS'), org.id, reply),
    PUT: async (request, reply, { org }) => writeCss(objectBody(request, 'the CSS'), org.id, reply),
  });
}
