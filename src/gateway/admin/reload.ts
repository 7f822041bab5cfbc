// /gw/reload[?block=true] reloads this gateway (block: answer once the new routing table serves);
// /gw/reload/group[?block=true] reloads every gateway of the group (one Redis) — this one included (block: answer
// once this gateway's own reload serves; the others reload by themselves). Both answer {"status":"ok","message":""}
// as Tyk Gateway does. A reload that finds problems still serves everything else (see /ready).
// /gw/load-problems answers what the last load could not serve — {loaded_at, apis, policies, problems: [{source,
// id, reason, message, conflicts_with}]} (load-problem.ts) — so that a writer (the operator) learns that an API it
// wrote is not served, and why; 503 before the first load.
import type { FastifyInstance } from 'fastify';
import type { AdminDeps } from './deps.ts';
import { ok, queryFlag, route, sendError, sendJson } from './http.ts';

export function registerReloadRoutes(app: FastifyInstance, deps: AdminDeps): void {
  route(app, '/gw/reload', {
    GET: async (request, reply) => {
      const done = deps.reload();
      if (queryFlag(request, 'block')) await done;
      else done.catch((error: unknown) => deps.log.error({ err: String(error) }, 'reload failed'));
      return ok(reply);
    },
  });
  route(app, '/gw/reload/group', {
    GET: async (request, reply) => {
      if (queryFlag(request, 'block')) await deps.reloadGroupAndWait();
      else await deps.reloadGroup();
      return ok(reply);
    },
  });
  route(app, '/gw/load-problems', {
    GET: async (_request, reply) => {
      const { lastLoad } = deps.status();
      if (!lastLoad) return sendError(reply, 503, 'A successful API reload did not happen');
      return sendJson(reply, 200, { loaded_at: lastLoad.at, apis: lastLoad.apis, policies: lastLoad.policies, problems: lastLoad.problems });
    },
  });
}
