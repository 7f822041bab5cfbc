// /gw/reload[?block=true] reloads this gateway (block: answer once the new routing table serves);
// /gw/reload/group reloads every gateway of the group (one Redis) — this one included. Both answer
// {"status":"ok","message":""}. A reload that finds problems still serves everything else (see /ready).
import type { FastifyInstance } from 'fastify';
import type { AdminDeps } from './deps.ts';
import { ok, queryFlag, route } from './http.ts';

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
    GET: async (_request, reply) => {
      await deps.reloadGroup();
      return ok(reply);
    },
  });
}
