// DELETE /gw/cache/{apiId}: forgets every cached answer of the API (Tyk's DELETE /tyk/cache/{apiID}),
// answering {"status":"ok","message":"cache invalidated"} whether or not there were any, as Tyk does. With
// Redis the entries are shared, so every gateway of the group stops serving them; the embedded store's are this
// gateway's alone.
import type { FastifyInstance } from 'fastify';
import type { AdminDeps } from './deps.ts';
import { ok, param, route } from './http.ts';

export function registerCacheRoutes(app: FastifyInstance, deps: AdminDeps): void {
  route(app, '/gw/cache/:apiId', {
    DELETE: async (request, reply) => {
      await deps.store.deleteCachedResponses(param(request, 'apiId'));
      return ok(reply, 'cache invalidated');
    },
  });
}
