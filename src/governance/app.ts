// The governance API as a Fastify app: every path under /api/ behind X-API-Key (auth.ts), /health without it.
// The shared HTTP conventions (src/http/conventions.ts) apply: bodies read as text and parsed by each route with
// the bounded parser, the edge check on every request, a body over max_body_bytes 413, errors other than HttpErrors
// logged and answered 500 without detail. An unknown path gets a JSON 404.
import Fastify, { type FastifyInstance } from 'fastify';
import { frameworkErrorsAs, installConventions } from '../http/conventions.ts';
import { HttpError } from '../http/errors.ts';
import type { HubDeps } from './hub-deps.ts';
import { sendError } from './http.ts';
import { registerApiLabelRoutes } from './routes/api-labels.ts';
import { registerHealthRoutes } from './routes/health.ts';
import { registerLabelRoutes } from './routes/labels.ts';
import { registerTokenRoutes } from './routes/tokens.ts';

export function createGovernanceApp(deps: HubDeps): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: deps.config.max_body_bytes,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: frameworkErrorsAs(sendError),
  });

  app.addHook('onRequest', async (request) => {
    const path = pathOf(request.url);
    if (path !== '/api' && !path.startsWith('/api/')) return;
    try {
      await deps.auth.authenticate(request);
    } catch (error) {
      if (error instanceof HttpError) deps.log.warn({ path, from: request.ip, reason: error.message }, 'governance API: request refused');
      throw error;
    }
  });
  installConventions(app, { sendError, bodyLimit: { bytes: deps.config.max_body_bytes, setting: 'max_body_bytes' }, log: deps.log, service: 'governance API' });
  app.setNotFoundHandler((request, reply) => sendError(reply, 404, `no route ${request.method} ${pathOf(request.url)}`));

  registerHealthRoutes(app, deps);
  registerLabelRoutes(app, deps);
  registerTokenRoutes(app, deps);
  registerApiLabelRoutes(app, deps);
  return app;
}

function pathOf(url: string): string {
  return url.split('?')[0]!;
}
