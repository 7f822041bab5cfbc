// Labels on APIs over HTTP. gw's design leaves the method and payload of /api/{api-id}/labels open; ours:
//   GET   /api/{api-id}/labels     {api_id, labels: {<label name>: <value>}} (empty labels for an uncatalogued id)
//   PUT   /api/{api-id}/labels     {labels: {<label name or key>: <value>}} replaces the API's labels; admin
//   PATCH /api/{api-id}/labels     same body, merges; a null value removes that label; admin
//   GET   /api/apis?label=<name>:<value>&label=...&search=<text>&page=&per_page=
//                                  {apis: [{api_id, labels}], page, pages, total}; filters AND together
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkApiId } from '../api-id.ts';
import { parseApiQuery } from '../api-query.ts';
import { ApiLabelsBody } from '../bodies.ts';
import type { HubDeps } from '../hub-deps.ts';
import { param, parseBody, query, route, sendJson } from '../http.ts';

export function registerApiLabelRoutes(app: FastifyInstance, deps: HubDeps): void {
  const apiId = (request: FastifyRequest): string => checkApiId(param(request, 'apiId'));
  route(app, '/api/:apiId/labels', {
    GET: async (request, reply) => sendJson(reply, 200, await deps.apiLabels.read(apiId(request))),
    PUT: async (request, reply) => {
      const by = deps.auth.requireAdmin(request, 'apply labels');
      const id = apiId(request);
      const applied = await deps.apiLabels.replace(id, parseBody(request, ApiLabelsBody).labels);
      deps.log.info({ api: id, labels: Object.keys(applied.labels), by: by.name }, 'API labels replaced');
      return sendJson(reply, 200, applied);
    },
    PATCH: async (request, reply) => {
      const by = deps.auth.requireAdmin(request, 'apply labels');
      const id = apiId(request);
      const applied = await deps.apiLabels.merge(id, parseBody(request, ApiLabelsBody).labels);
      deps.log.info({ api: id, labels: Object.keys(applied.labels), by: by.name }, 'API labels merged');
      return sendJson(reply, 200, applied);
    },
  });
  route(app, '/api/apis', {
    GET: async (request, reply) => sendJson(reply, 200, await deps.apiLabels.search(parseApiQuery(query(request)))),
  });
}
