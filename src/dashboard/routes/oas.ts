// /api/apis/oas: the organisation's OAS APIs (OpenAPI 3.0 + x-gw-api-gateway), kept as posted apart from
// info.id and info.orgId, which the dashboard sets (permission `apis`; operator_managed as for Classic APIs).
//   GET    /api/apis/oas[?p=]     {apis: [<OAS document>], pages}
//   POST   /api/apis/oas          an OAS document -> {Status: "OK", Message: "API created", Meta: <api id>}
//   GET    /api/apis/oas/{id}     the OAS document
//   PUT    /api/apis/oas/{id}     the full document -> {Status: "OK", Message: "Api updated", Meta: null}
//   DELETE /api/apis/oas/{id}     {Status: "OK", Message: "API deleted", Meta: null}
// A Classic API's id answers 400 here (use /api/apis); another organisation's API is 404.
import type { FastifyInstance } from 'fastify';
import { orgRoute } from '../access.ts';
import { createApi, replaceApi, WRONG_FORMAT } from '../api-writes.ts';
import { oasApi } from '../definitions.ts';
import type { DashboardDeps } from '../deps.ts';
import { HttpError, jsonBody, notFound, param, sendJson, sendOk } from '../http.ts';
import { pageOf, pagesOf } from '../paging.ts';
import { deleteApi, getApi, listApis, type StoredApi } from '../store/apis.ts';
import { write } from '../store/write.ts';
import { API_DEFINITIONS } from './apis.ts';

export function registerOasRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { db } = deps;
  const managed = { operatorManaged: API_DEFINITIONS };
  const findOas = async (orgId: string, id: string): Promise<StoredApi> => {
    const api = await getApi(db, orgId, id);
    if (!api) throw notFound('API');
    if (api.format !== 'oas') throw new HttpError('invalid', WRONG_FORMAT.classic(id));
    return api;
  };

  orgRoute(
    app,
    '/api/apis/oas',
    'apis',
    {
      GET: async (request, reply, { org }) => {
        const page = pageOf(request, deps.config.page_size);
        const { items, total } = await listApis(db, org.id, page, 'oas');
        return sendJson(reply, 200, { apis: items.map((api) => api.definition), pages: pagesOf(total, page) });
      },
      POST: async (request, reply, { org }) => {
        const api = oasApi(jsonBody(request), org.id, undefined);
        await createApi(deps, api);
        return sendOk(reply, 'API created', api.id);
      },
    },
    managed,
  );

  orgRoute(
    app,
    '/api/apis/oas/:id',
    'apis',
    {
      GET: async (request, reply, { org }) => sendJson(reply, 200, (await findOas(org.id, param(request, 'id'))).definition),
      PUT: async (request, reply, { org }) => {
        const id = param(request, 'id');
        const body = jsonBody(request);
        await findOas(org.id, id);
        await replaceApi(deps, oasApi(body, org.id, id));
        return sendOk(reply, 'Api updated');
      },
      DELETE: async (request, reply, { org }) => {
        const id = param(request, 'id');
        await findOas(org.id, id);
        const deleted = await write(db, org.id, { bumpRevision: true }, (tx) => deleteApi(tx, org.id, id));
        if (!deleted) throw notFound('API');
        deps.log.info({ api: id, org: org.id }, 'API deleted');
        return sendOk(reply, 'API deleted');
      },
    },
    managed,
  );
}
