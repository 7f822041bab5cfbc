// /api/apis: the organisation's API definitions through the Classic endpoints (permission `apis`; in an
// operator_managed organisation only its system user writes).
//   GET    /api/apis[?p=]        {apis: [{api_definition, user_owners, user_group_owners, created_at, updated_at}], pages}
//                                (OAS APIs appear as a Classic summary with is_oas: true)
//   POST   /api/apis             a Classic definition, or {api_definition, user_owners, user_group_owners} (the operator's
//                                form) -> {Status: "OK", Message: "API created", Meta: <api id>}; a given api_id is kept
//                                (so the operator's follow-up PUT finds the id it chose), else one is generated
//   GET    /api/apis/{id}        {api_definition, ...}: Tyk's wrapper (gw\'s design says "the API definition"; its
//                                operator client reads .api_definition)
//   PUT    /api/apis/{id}        the full definition, bare or wrapped -> {Status: "OK", Message: "Api updated", Meta: null}
//   DELETE /api/apis/{id}        Classic or OAS -> {Status: "OK", Message: "API deleted", Meta: null}
// Another organisation's API is 404 here, exactly like a missing one.
import type { FastifyInstance } from 'fastify';
import { orgRoute } from '../access.ts';
import { createApi, replaceApi, WRONG_FORMAT } from '../api-writes.ts';
import { classicApi, unwrapClassic, wrapped } from '../definitions.ts';
import type { DashboardDeps } from '../deps.ts';
import { HttpError, notFound, objectBody, param, sendJson, sendOk } from '../http.ts';
import { pageOf, pagesOf } from '../paging.ts';
import { deleteApi, getApi, listApis } from '../store/apis.ts';
import { write } from '../store/write.ts';

export const API_DEFINITIONS = 'API definitions';

export function registerApiRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { db } = deps;
  const managed = { operatorManaged: API_DEFINITIONS };

  orgRoute(
    app,
    '/api/apis',
    'apis',
    {
      GET: async (request, reply, { org }) => {
        const page = pageOf(request, deps.config.page_size);
        const { items, total } = await listApis(db, org.id, page);
        return sendJson(reply, 200, { apis: items.map(wrapped), pages: pagesOf(total, page) });
      },
      POST: async (request, reply, { org }) => {
        const input = unwrapClassic(objectBody(request, 'the API definition'));
        const api = classicApi(input, org.id, undefined);
        await createApi(deps, api, input.prefix);
        return sendOk(reply, 'API created', api.id);
      },
    },
    managed,
  );

  orgRoute(
    app,
    '/api/apis/:id',
    'apis',
    {
      GET: async (request, reply, { org }) => {
        const api = await getApi(db, org.id, param(request, 'id'));
        if (!api) throw notFound('API');
        return sendJson(reply, 200, wrapped(api));
      },
      PUT: async (request, reply, { org }) => {
        const id = param(request, 'id');
        const input = unwrapClassic(objectBody(request, 'the API definition'));
        const existing = await getApi(db, org.id, id);
        if (!existing) throw notFound('API');
        if (existing.format !== 'classic') throw new HttpError('invalid', WRONG_FORMAT.oas(id));
        await replaceApi(deps, classicApi(input, org.id, id), input.prefix, input);
        return sendOk(reply, 'Api updated');
      },
      DELETE: async (request, reply, { org }) => {
        const id = param(request, 'id');
        const deleted = await write(db, org.id, { bumpRevision: true }, (tx) => deleteApi(tx, org.id, id));
        if (!deleted) throw notFound('API');
        deps.log.info({ api: id, org: org.id }, 'API deleted');
        return sendOk(reply, 'API deleted');
      },
    },
    managed,
  );
}
