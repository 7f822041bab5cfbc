// What every portal page handler is given, and how a page is answered. portalHandler() resolves the site (which
// organisation, site.ts), its configuration in force, its menus and custom CSS version (one query), and the signed-in developer (a live session of THIS
// organisation whose developer still exists and is active; otherwise anonymous); it answers a refusal (HttpError)
// as an HTML page with the error's status, and every page with the portal's security headers: a
// Content-Security-Policy allowing only this origin's scripts and styles (no inline script; inline styles on the API
// page only, for its renderer), no framing, no caching of pages
// (they may show a developer's keys). Must never resolve a developer or a document across organisations.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DashboardDeps } from '../deps.ts';
import { HttpError } from '../../http/errors.ts';
import { param } from '../../http/routes.ts';
import type { PortalConfigSettings } from '../portal/config-schema.ts';
import { portalSettings } from '../portal/store/configuration.ts';
import { getDeveloper, type Developer } from '../portal/store/developers.ts';
import { siteLook, type SiteLook } from '../portal/store/site-style.ts';
import type { PortalAssets } from './assets.ts';
import { developerSessionOf, type DeveloperSession } from './developer-session.ts';
import { html, type Html } from './html.ts';
import { page, type NavItem } from './layout.ts';
import { siteOf, type PortalSite } from './site.ts';

export interface PortalContext {
  deps: DashboardDeps;
  assets: PortalAssets;
  request: FastifyRequest;
  reply: FastifyReply;
  site: PortalSite;
  settings: PortalConfigSettings;
  /** The portal's active menus and its custom CSS's version ('' when none). */
  look: SiteLook;
  /** The signed-in developer and their session; undefined when anonymous. */
  signedIn: { developer: Developer; session: DeveloperSession } | undefined;
}

export interface PageOptions {
  title: string;
  current?: NavItem;
  /** The portal path of a content page (its menu item is then aria-current). */
  currentPath?: string;
  status?: number;
  styles?: string[];
  scripts?: string[];
  /** Extra origins the page may fetch from (the API page's document at a custom URL). */
  connect?: string[];
  /** The page runs the renderer, which sets style attributes: allow inline styles (never inline scripts). */
  inlineStyles?: boolean;
}

const NOT_FOUND = 'This page does not exist.';

function securityHeaders(connect: readonly string[], inlineStyles = false): Record<string, string> {
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    inlineStyles ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    "img-src 'self' data:",
    `connect-src ${["'self'", ...connect].join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
  return { 'content-security-policy': csp, 'x-content-type-options': 'nosniff', 'referrer-policy': 'same-origin', 'cache-control': 'no-store' };
}

/** Answers a full page. */
export function sendPage(ctx: PortalContext, options: PageOptions, body: Html): FastifyReply {
  const developer = ctx.signedIn && { email: ctx.signedIn.developer.email, csrfToken: ctx.signedIn.session.csrf_token };
  const text = page(
    {
      site: ctx.site,
      title: options.title,
      ...(options.current ? { current: options.current } : {}),
      ...(options.currentPath !== undefined ? { currentPath: options.currentPath } : {}),
      name: ctx.settings.portal_name || `${ctx.site.org.owner_name} developer portal`,
      menu: ctx.look.menus.Main ?? [],
      customCssVersion: ctx.look.cssVersion,
      developer,
      signupOpen: !ctx.settings.disable_signup,
      loginOpen: !ctx.settings.disable_login,
      siteStyle: ctx.assets.manifest?.site ?? 'missing.css',
      styles: options.styles ?? [],
      scripts: options.scripts ?? [],
    },
    body,
  );
  return ctx.reply
    .code(options.status ?? 200)
    .headers({ ...securityHeaders(options.connect ?? [], options.inlineStyles), 'content-type': 'text/html; charset=utf-8' })
    .send(text);
}

/** A 303 to a path of the portal (after a form post: the browser then GETs it). */
export function redirectTo(ctx: PortalContext, path: string): FastifyReply {
  return ctx.reply
    .code(303)
    .headers({ location: `${ctx.site.base}${path}`, 'cache-control': 'no-store' })
    .send();
}

/** An answer for a request that resolved to no portal: plain, naming nothing. */
function notFoundPlain(reply: FastifyReply): FastifyReply {
  return reply
    .code(404)
    .headers({ ...securityHeaders([]), 'content-type': 'text/html; charset=utf-8' })
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><main><h1>Not found</h1><p>${NOT_FOUND}</p></main></body></html>`,
    );
}

export type PortalHandler = (ctx: PortalContext) => Promise<unknown>;

/** A Fastify handler running `handler` in the portal of the request's organisation (path parameter `org`, or the domain). */
export function portalHandler(
  deps: DashboardDeps,
  assets: PortalAssets,
  handler: PortalHandler,
): (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> {
  return async (request, reply) => {
    const orgInPath = (request.params as Record<string, string | undefined>).org;
    const site = await siteOf(deps.db, request, orgInPath === undefined ? undefined : param(request, 'org'));
    if (!site) return notFoundPlain(reply);
    const settings = await portalSettings(deps.db, site.org.id);
    const look = await siteLook(deps.db, site.org.id);
    const session = await developerSessionOf(deps.db, site, request);
    const developer = session && (await getDeveloper(deps.db, site.org.id, session.developer_id));
    const ctx: PortalContext = {
      deps,
      assets,
      request,
      reply,
      site,
      settings,
      look,
      signedIn: session && developer && !developer.inactive ? { developer, session } : undefined,
    };
    try {
      return await handler(ctx);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      const title = error.status === 404 ? 'Not found' : error.status === 403 ? 'Not allowed' : 'Something is wrong with the request';
      return sendPage(
        ctx,
        { title, status: error.status },
        html`<h1>${title}</h1><p role="alert" class="alert">${error.status === 404 ? NOT_FOUND : error.message}</p><p><a href="${site.base}apis/">Back to the API catalogue</a></p>`,
      );
    }
  };
}

/** The signed-in developer, or a redirect to sign in (answered) when anonymous. */
export function requireDeveloper(ctx: PortalContext): NonNullable<PortalContext['signedIn']> | undefined {
  if (ctx.signedIn) return ctx.signedIn;
  void redirectTo(ctx, `login/?next=${encodeURIComponent(ctx.request.url.split('?')[0]!.slice(ctx.site.base.length))}`);
  return undefined;
}
