// Label definitions over HTTP (gw's documented POST /api/labels/ and the rest of their life cycle):
//   GET    /api/labels                 every label                                   {labels: [label]}
//   POST   /api/labels                 {name, values?}; admin                        200 label
//   GET    /api/labels/{id}            by id or key                                  label
//   PUT    /api/labels/{id}            {name, values?} replaces both; admin          label (409 if a used value goes)
//   DELETE /api/labels/{id}[?force=true]  admin                                      {status, message} (409 while applied)
//   GET    /api/labels/{id}/apis       APIs carrying it; page, per_page              {label, apis: [{api_id, value}], page, pages, total}
// A label is {id, name, values, key, value_type}; a trailing slash is accepted on every path.
import type { FastifyInstance } from 'fastify';
import { parsePaging } from '../api-query.ts';
import { LabelBody } from '../bodies.ts';
import type { HubDeps } from '../hub-deps.ts';
import { param, parseBody, query, queryFlag, route, sendJson } from '../http.ts';

export function registerLabelRoutes(app: FastifyInstance, deps: HubDeps): void {
  route(app, '/api/labels', {
    GET: async (_request, reply) => sendJson(reply, 200, { labels: await deps.labels.list() }),
    POST: async (request, reply) => {
      const by = deps.auth.requireAdmin(request, 'create labels');
      const label = await deps.labels.create(parseBody(request, LabelBody));
      deps.log.info({ label: label.id, name: label.name, by: by.name }, 'label created');
      return sendJson(reply, 200, label);
    },
  });
  route(app, '/api/labels/:id', {
    GET: async (request, reply) => sendJson(reply, 200, await deps.labels.get(param(request, 'id'))),
    PUT: async (request, reply) => {
      const by = deps.auth.requireAdmin(request, 'change labels');
      const label = await deps.labels.update(param(request, 'id'), parseBody(request, LabelBody));
      deps.log.info({ label: label.id, name: label.name, by: by.name }, 'label changed');
      return sendJson(reply, 200, label);
    },
    DELETE: async (request, reply) => {
      const by = deps.auth.requireAdmin(request, 'delete labels');
      const { label, removedFrom } = await deps.labels.delete(param(request, 'id'), queryFlag(request, 'force'));
      deps.log.info({ label: label.id, name: label.name, removedFrom, by: by.name }, 'label deleted');
      const also = removedFrom > 0 ? ` and removed from ${removedFrom} API${removedFrom === 1 ? '' : 's'}` : '';
      return sendJson(reply, 200, { status: 'ok', message: `label "${label.name}" deleted${also}` });
    },
  });
  route(app, '/api/labels/:id/apis', {
    GET: async (request, reply) => {
      const paging = parsePaging(query(request));
      const label = await deps.labels.get(param(request, 'id'));
      return sendJson(reply, 200, { label, ...(await deps.apiLabels.carrying(label, paging)) });
    },
  });
}
