// The dashboard API as a Fastify app: the admin API (/admin), the org API (/api), the node API (/system) and a
// health check (/hello, no credential). Bodies are read as text and parsed by each route (http.ts), so JSON errors
// are ours to word; a body over max_body_bytes gets 413; an unknown path 404 {"Status":"Error","Message":"Not found"}.
// Errors are logged without headers or bodies: credentials never reach the log.
import Fastify, { type FastifyInstance } from 'fastify';
import { registerAuthentication } from './access.ts';
import { registerOrganisationRoutes } from './admin/organisations.ts';
import { registerUserRoutes } from './admin/users.ts';
import type { DashboardDeps } from './deps.ts';
import { DashboardError, route, sendError, sendJson } from './http.ts';
import { registerApiRoutes } from './routes/apis.ts';
import { registerCertRoutes } from './routes/certs.ts';
import { registerChangeRoutes } from './routes/changes.ts';
import { registerImportRoutes } from './routes/imports.ts';
import { registerKeyRoutes } from './routes/keys.ts';
import { registerNodeRoutes } from './routes/node.ts';
import { registerOasRoutes } from './routes/oas.ts';
import { registerPolicyRoutes } from './routes/policies.ts';

export function createDashboardApp(deps: DashboardDeps): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: deps.config.max_body_bytes, routerOptions: { ignoreTrailingSlash: true } });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  registerAuthentication(app, deps.db, deps.config);

  app.setErrorHandler((error: Error & { code?: string; statusCode?: number }, request, reply) => {
    if (error instanceof DashboardError) return sendError(reply, error.status, error.message);
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(reply, 413, `Request body too large: at most ${deps.config.max_body_bytes} bytes (max_body_bytes)`);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return sendError(reply, error.statusCode, error.message);
    deps.log.error({ err: error.stack, method: request.method, path: request.url.split('?')[0] }, 'dashboard API failed');
    return sendError(reply, 500, 'Internal error');
  });
  app.setNotFoundHandler((_request, reply) => sendError(reply, 404, 'Not found'));

  route(app, '/hello', {
    GET: async (_request, reply) => {
      const up = await deps.db.query('SELECT 1').then(
        () => true,
        () => false,
      );
      return sendJson(reply, up ? 200 : 503, { status: up ? 'pass' : 'fail', description: 'gw dashboard', details: { database: { status: up ? 'pass' : 'fail', type: deps.db.kind } } });
    },
  });
  registerOrganisationRoutes(app, deps);
  registerUserRoutes(app, deps);
  registerApiRoutes(app, deps);
  registerOasRoutes(app, deps);
  registerPolicyRoutes(app, deps);
  registerKeyRoutes(app, deps);
  registerCertRoutes(app, deps);
  registerImportRoutes(app, deps);
  registerNodeRoutes(app, deps);
  registerChangeRoutes(app, deps);
  return app;
}
