// The management API as a Fastify app: /gw/* behind the shared secret (header x-gw-authorization or Tyk's
// x-tyk-authorization, compared in constant time: management-secret.ts), plus health, readiness and
// metrics without it. The shared HTTP conventions (src/http/conventions.ts) apply: bodies read as text and parsed
// by each route with the bounded parser, the edge check on every request, a body over control_api_max_body_bytes
// 413; an unknown path Tyk's plain `404 page not found`.
import Fastify, { type FastifyInstance, type FastifyServerFactory } from 'fastify';
import { frameworkErrorsAs, installConventions } from '../../http/conventions.ts';
import { logWrites } from '../../http/write-log.ts';
import { registerApiRoutes } from './apis.ts';
import { managementSecretCheck } from './management-secret.ts';
import { registerCacheRoutes } from './cache.ts';
import { registerCertRoutes } from './certs.ts';
import { registerChangeRoutes } from './changes.ts';
import type { AdminDeps } from './deps.ts';
import { registerHealthRoutes } from './health.ts';
import { registerJwksCacheRoutes } from './jwks-cache.ts';
import { sendError } from './http.ts';
import { registerKeyRoutes } from './keys.ts';
import { registerOAuthClientRoutes } from './oauth-clients.ts';
import { registerOrgKeyRoutes } from './org-keys.ts';
import { registerPolicyRoutes } from './policies.ts';
import { registerReloadRoutes } from './reload.ts';
import { traceManagementWrites } from '../../tracing/http-writes.ts';

const UNAUTHORISED = 'Attempted administrative access with invalid or missing key!';

export function createAdminApp(deps: AdminDeps, serverFactory?: FastifyServerFactory): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: deps.config.control_api_max_body_bytes,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: frameworkErrorsAs(sendError),
    ...(serverFactory ? { serverFactory } : {}),
  });

  if (deps.tracer) traceManagementWrites(app, deps.tracer); // first: a refused write is traced too
  const presentsSecret = managementSecretCheck(deps.config.secret);
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0]!;
    if (path !== '/gw' && !path.startsWith('/gw/')) return;
    if (!presentsSecret(request.headers)) {
      deps.log.warn({ path, from: request.ip }, 'management API: invalid or missing x-gw-authorization (or x-tyk-authorization)');
      return sendError(reply, 403, UNAUTHORISED);
    }
  });

  installConventions(app, {
    sendError,
    bodyLimit: { bytes: deps.config.control_api_max_body_bytes, setting: 'control_api_max_body_bytes' },
    log: deps.log,
    service: 'management API',
  });
  logWrites(app, deps.log, 'management API');
  app.setNotFoundHandler((_request, reply) => reply.code(404).type('text/plain; charset=utf-8').send('404 page not found\n'));

  registerHealthRoutes(app, deps);
  registerApiRoutes(app, deps);
  registerPolicyRoutes(app, deps);
  registerKeyRoutes(app, deps);
  registerOrgKeyRoutes(app, deps);
  registerOAuthClientRoutes(app, deps);
  registerReloadRoutes(app, deps);
  registerCertRoutes(app, deps);
  registerCacheRoutes(app, deps);
  registerChangeRoutes(app, deps);
  registerJwksCacheRoutes(app, deps);
  return app;
}
