// The portal's content pages (Tyk's classic portal pages, stored through /api/portal/pages): a live page at
// <portal>/<slug>/ and the live homepage at the portal's root (without one, the root sends visitors to the
// catalogue, as before pages existed). A page that is not live, or another organisation's, is not found.
import { HttpError } from '../../../http/errors.ts';
import { param } from '../../../http/routes.ts';
import { livePortalPage, type PortalPage } from '../../portal/store/pages.ts';
import { redirectTo, sendPage, type PortalContext } from '../context.ts';
import { pageBody } from '../page-content.ts';

function sendContentPage(ctx: PortalContext, page: PortalPage, path: string): unknown {
  return sendPage(ctx, { title: page.title, currentPath: path }, pageBody(ctx.site.base, page));
}

export async function homePage(ctx: PortalContext): Promise<unknown> {
  const home = await livePortalPage(ctx.deps.db, ctx.site.org.id, '');
  return home ? sendContentPage(ctx, home, '') : redirectTo(ctx, 'apis/');
}

export async function contentPage(ctx: PortalContext): Promise<unknown> {
  const slug = param(ctx.request, 'slug');
  const page = await livePortalPage(ctx.deps.db, ctx.site.org.id, slug);
  if (!page) throw new HttpError('not_found', 'page not found');
  return sendContentPage(ctx, page, `${slug}/`);
}
