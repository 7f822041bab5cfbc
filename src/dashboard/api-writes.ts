// Writing an API, whichever endpoint it came through (/api/apis, /api/apis/oas, the imports): in one transaction
// under the organisation's lock, refuse an id the organisation already uses (409; other organisations' ids are
// never looked at, so the answer tells nothing about them) or a route
// (domain + listen path) another API of the organisation already answers on (400 naming the listen path field),
// then store and bump the revision gateways poll. An update keeps the API's format: a Classic PUT cannot replace
// an OAS API or the other way round (each has its endpoint).
import type { Queryable } from '../db/database.ts';
import type { DashboardDeps } from './deps.ts';
import { listenPathField } from './definitions.ts';
import { HttpError, notFound } from './http.ts';
import { apiIdTaken, getApi, insertApi, routeTakenBy, updateApi, type NewApi } from './store/apis.ts';
import { write } from './store/write.ts';

export const WRONG_FORMAT = {
  classic: (id: string) => `API ${id} is a Classic API: use /api/apis/${id}`,
  oas: (id: string) => `API ${id} is an OAS API: use /api/apis/oas/${id}`,
};

async function checkRoute(tx: Queryable, api: NewApi, prefix: string): Promise<void> {
  const other = await routeTakenBy(tx, api.org_id, api.domain, api.listen_path, api.id);
  if (other) {
    const where = api.domain ? `${api.domain}${api.listen_path}` : api.listen_path;
    throw new HttpError('invalid', `${listenPathField(api, prefix)}: ${where} is already used by API ${other} of this organisation`);
  }
}

export async function createApi(deps: DashboardDeps, api: NewApi, prefix = ''): Promise<void> {
  await write(deps.db, api.org_id, { bumpRevision: true }, async (tx) => {
    if (await apiIdTaken(tx, api.org_id, api.id)) throw new HttpError('conflict', `an API with id ${api.id} already exists`);
    await checkRoute(tx, api, prefix);
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
    await checkRoute(tx, api, prefix);
    await updateApi(tx, {
      ...api,
      user_owners: given.user_owners ?? existing.user_owners,
      user_group_owners: given.user_group_owners ?? existing.user_group_owners,
    });
  });
  deps.log.info({ api: api.id, org: api.org_id, format: api.format }, 'API updated');
}
