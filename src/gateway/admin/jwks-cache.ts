// Tyk's JWKS cache flush (docs/compatibility.md): the keys fetched from JWKS URLs are forgotten, so the next
// request refetches at once instead of waiting for the cache timeout or an unknown kid (a key rotated or revoked at
// the identity provider). Both answer 200 {"status":"ok","message":"cache invalidated"}, as Tyk does, also
// for an API that is unknown or has no JWKS (its cache is empty either way). This gateway only: others of a group
// keep their keys until their own flush or timeout.
//   DELETE /gw/cache/jwks           every JWKS URL's keys
//   DELETE /gw/cache/jwks/{apiId}   the keys of the URL that API names
import type { FastifyInstance } from 'fastify';
import type { AdminDeps } from './deps.ts';
import { ok, param, route } from './http.ts';

const INVALIDATED = 'cache invalidated';

export function registerJwksCacheRoutes(app: FastifyInstance, deps: AdminDeps): void {
  route(app, '/gw/cache/jwks', {
    DELETE: async (_request, reply) => {
      await deps.flushJwks(undefined);
      return ok(reply, INVALIDATED);
    },
  });
  route(app, '/gw/cache/jwks/:apiId', {
    DELETE: async (request, reply) => {
      await deps.flushJwks(param(request, 'apiId'));
      return ok(reply, INVALIDATED);
    },
  });
}
