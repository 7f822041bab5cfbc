// <portal>/custom.css: the organisation's custom CSS (page_css of /api/portal/css) as a stylesheet of its own,
// linked by every portal page after the built one when there is any (layout.ts; the link carries the CSS's digest,
// so a change shows on the next page). A separate file, served as text/css with nosniff, so the CSS can never
// break out into a page's markup; validated with an ETag (304 when unchanged), revalidated on every use. 404 when
// the organisation has none.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DashboardDeps } from '../deps.ts';
import { param } from '../../http/routes.ts';
import { getPortalCss } from '../portal/store/site-style.ts';
import { siteOf } from './site.ts';

export function customCssHandler(deps: DashboardDeps): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> {
  return async (request, reply) => {
    const orgInPath = (request.params as Record<string, string | undefined>).org;
    const site = await siteOf(deps.db, request, orgInPath === undefined ? undefined : param(request, 'org'));
    const css = site && (await getPortalCss(deps.db, site.org.id))?.page_css;
    if (!css) return reply.code(404).headers({ 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' }).send('Not found');
    const etag = `"${createHash('sha256').update(css).digest('base64url').slice(0, 27)}"`;
    void reply.headers({ etag, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' });
    if (
      String(request.headers['if-none-match'] ?? '')
        .split(/\s*,\s*/)
        .includes(etag)
    )
      return reply.code(304).send();
    return reply.code(200).type('text/css; charset=utf-8').send(css);
  };
}
