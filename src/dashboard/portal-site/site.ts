// Which organisation's portal a request is for, and where that portal lives. An organisation with a domain
// (its cname) has its portal at https://<cname>/portal/ — a request whose Host is that domain is for that
// organisation and no other (a /portal/<org>/ path naming any organisation is not found there). Every other
// organisation's portal is at /portal/<org id>/ on the dashboard's own address; an organisation that has a domain
// is not served there (one address per portal, so its session cookie and links are never split). Must never
// answer a portal of an organisation the request did not resolve to: every page and store call takes site.org.id.
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import type { DashboardConfig } from '../config.ts';
import { getOrg, orgByCname, type Org } from '../store/orgs.ts';

export interface PortalSite {
  org: Org;
  /** The portal's root path, ending in '/': `/portal/` on the organisation's domain, else `/portal/<org id>/`. */
  base: string;
}

/** The portal's root path on its address: `/portal/` on the organisation's domain, else `/portal/<org id>/`. */
export const portalBase = (org: Pick<Org, 'id' | 'cname'>): string => (org.cname !== '' ? '/portal/' : `/portal/${encodeURIComponent(org.id)}/`);

/** The origin people reach the organisation's portal at, for links outside a request (e-mails, the web UI's "Open
 * the developer portal"): for an organisation with a domain, portal_public_url when it names that domain, else
 * https://<cname> (only that host serves its portal); otherwise portal_public_url, undefined when unset. */
export function portalOrigin(config: Pick<DashboardConfig, 'portal_public_url'>, org: Pick<Org, 'cname'>): string | undefined {
  const configured = config.portal_public_url?.replace(/\/+$/, '');
  if (org.cname === '') return configured;
  return configured !== undefined && new URL(configured).hostname.toLowerCase() === org.cname.toLowerCase() ? configured : `https://${org.cname}`;
}

/** The organisation's portal (its address as siteOf resolves it), for work outside a portal request. */
export function portalSiteOf(org: Org): PortalSite {
  return { org, base: portalBase(org) };
}

/** The portal this request is for; undefined when none (an unknown organisation, or the wrong address for it). */
export async function siteOf(db: Queryable, request: FastifyRequest, orgInPath: string | undefined): Promise<PortalSite | undefined> {
  const byDomain = await orgByCname(db, request.hostname);
  if (byDomain) return orgInPath === undefined ? { org: byDomain, base: portalBase(byDomain) } : undefined;
  if (orgInPath === undefined || !/^[A-Za-z0-9._~-]{1,128}$/.test(orgInPath)) return undefined;
  const org = await getOrg(db, orgInPath);
  if (!org || org.cname !== '') return undefined;
  return { org, base: portalBase(org) };
}
