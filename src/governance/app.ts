// The governance API as a Fastify app: every path under /api/ behind X-API-Key (auth.ts), /health without it.
// Bodies are read as text whatever their content type and parsed by each route (http.ts), so JSON errors are ours
// to word; a body over max_body_bytes gets 413; an unknown path gets a JSON 404; errors other than the typed ones
// are logged and answered 500 without detail.
import Fastify, { type FastifyInstance } from 'fastify';
import { GovernanceError } from './errors.ts';
import type { HubDeps } from './hub-deps.ts';
import { sendError } from './http.ts';
import { registerApiLabelRoutes } from './routes/api-labels.ts';
import { registerHealthRoutes } from './routes/health.ts';
import { registerLabelRoutes } from './routes/labels.ts';
import { registerTokenRoutes } from './routes/tokens.ts';

export function createGovernanceApp(deps: HubDeps): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: deps.config.max_body_bytes, routerOptions: { ignoreTrailingSlash: true } });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.addHook('onRequest', async (request) => {
    const path = pathOf(request.url);
    if (path !== '/api' && !path.startsWith('/api/')) return;
    try {
      await deps.auth.authenticate(request);
    } catch (error) {
      if (error instanceof GovernanceError) deps.log.warn({ path, from: request.ip, reason: error.message }, 'governance API: request refused');
      throw error;
    }
  });

  app.setErrorHandler((error: Error & { code?: string; statusCode?: number }, request, reply) => {
    if (error instanceof GovernanceError) return sendError(reply, error.status, error.message);
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(reply, 413, `request body too large: at most ${deps.config.max_body_bytes} bytes (max_body_bytes)`);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return sendError(reply, error.statusCode, error.message);
    deps.log.error({ err: error.stack, method: request.method, path: pathOf(request.url) }, 'governance API failed');
    return sendError(reply, 500, 'internal error');
  });
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
