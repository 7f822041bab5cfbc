// Writing an API, whichever endpoint it came through (/api/apis, /api/apis/oas, the imports): in one transaction
// under the organisation's lock, refuse an id the organisation already uses (409; other organisations' ids are
// never looked at, so the answer tells nothing about them) or a route (domain + listen path) another API of the
// organisation already answers on (400 naming the listen path field), then store and bump the revision gateways
// poll. An update keeps the API's format: a Classic PUT cannot replace an OAS API or the other way round (each has
// its endpoint).
//
// Across organisations (a gateway without org_id serves them all, longest listen path first, domain-bound APIs
// before domain-less ones): a route is refused (409) when an API of another organisation answers on an overlapping
// domain (the same host, a wildcard covering it, or no domain on either side: a domain-less API answers on every
// host) and a listen path equal to it, above it or under it on segment boundaries (route-overlap.ts). Without
// this, an organisation could nest `/orga/users` under another's `/orga` and receive its clients' requests,
// credentials included. The answer names the field and the other route (never its organisation or API id). Within
// one organisation nested listen paths stay allowed. An update that keeps its route is not checked again (an
// overlap from before the rule is left as it was, not made permanent by a refusal). Checked under one global lock
// taken after the organisation's, so two organisations can never both claim overlapping routes.
import type { Queryable } from '../db/database.ts';
import type { DashboardDeps } from './deps.ts';
import { listenPathField } from './definitions.ts';
import { HttpError, notFound } from './http.ts';
import { descendantPrefix, listenPathAncestors, routesOverlap } from './route-overlap.ts';
import { apiIdTaken, getApi, insertApi, nestedRoutesOfOtherOrgs, routeTakenBy, updateApi, type NewApi } from './store/apis.ts';
import { write } from './store/write.ts';

export const WRONG_FORMAT = {
  classic: (id: string) => `API ${id} is a Classic API: use /api/apis/${id}`,
  oas: (id: string) => `API ${id} is an OAS API: use /api/apis/oas/${id}`,
};

const routeText = (route: { domain: string; listen_path: string }): string => (route.domain ? `${route.domain}${route.listen_path}` : route.listen_path);

async function checkRoute(tx: Queryable, api: NewApi, prefix: string, acrossOrganisations: boolean): Promise<void> {
  const other = await routeTakenBy(tx, api.org_id, api.domain, api.listen_path, api.id);
  if (other) throw new HttpError('invalid', `${listenPathField(api, prefix)}: ${routeText(api)} is already used by API ${other} of this organisation`);
  if (!acrossOrganisations) return;
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['gw-dashboard-routes']);
  const nearby = await nestedRoutesOfOtherOrgs(tx, api.org_id, listenPathAncestors(api.listen_path), descendantPrefix(api.listen_path));
  const clash = nearby.find((route) => routesOverlap(api, route));
  if (clash) {
    throw new HttpError(
      'conflict',
      `${listenPathField(api, prefix)}: ${routeText(api)} overlaps ${routeText(clash)}, served by another organisation on gateways shared by several organisations: choose a listen path (or domain) outside it`,
    );
  }
}

export async function createApi(deps: DashboardDeps, api: NewApi, prefix = ''): Promise<void> {
  await write(deps.db, api.org_id, { bumpRevision: true }, async (tx) => {
    if (await apiIdTaken(tx, api.org_id, api.id)) throw new HttpError('conflict', `an API with id ${api.id} already exists`);
    await checkRoute(tx, api, prefix, true);
    await insertApi(tx, api);
  });
  deps.log.info({ api: api.id, org: api.org_id, format: api.format }, 'API created');
}

export interface GivenOwners {
  user_owners?: string[] | undefined;
  user_group_owners?: string[] | undefined;
}

/** Replaces an API of the organisation; owners not given (an OAS or a bare Classic body, or null) are kept. */
export async function replaceApi(deps: DashboardDeps, api: NewApi, prefix = '', given: GivenOwners = {}): Promise<void> {
  await write(deps.db, api.org_id, { bumpRevision: true }, async (tx) => {
    const existing = await getApi(tx, api.org_id, api.id);
    if (!existing) throw notFound('API');
    if (existing.format !== api.format) throw new HttpError('invalid', WRONG_FORMAT[existing.format](api.id));
    await checkRoute(tx, api, prefix, existing.domain !== api.domain || existing.listen_path !== api.listen_path);
    await updateApi(tx, {
      ...api,
      user_owners: given.user_owners ?? existing.user_owners,
      user_group_owners: given.user_group_owners ?? existing.user_group_owners,
    });
  });
  deps.log.info({ api: api.id, org: api.org_id, format: api.format }, 'API updated');
}
