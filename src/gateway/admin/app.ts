// The management API as a Fastify app: /gw/* behind the shared secret (header x-gw-authorization, compared in
// constant time over SHA-256 digests so neither the value nor its length leaks), plus health, readiness and
// metrics without it. Bodies are read as text and parsed by each route (http.ts), so JSON errors are ours to word;
// a body over control_api_max_body_bytes gets 413; an unknown path the anchor's plain `404 page not found`.
import { secretMatcher } from '../../api/key-hash.ts';
import Fastify, { type FastifyInstance, type FastifyServerFactory } from 'fastify';
import { registerApiRoutes } from './apis.ts';
import { registerCertRoutes } from './certs.ts';
import { registerChangeRoutes } from './changes.ts';
import type { AdminDeps } from './deps.ts';
import { registerHealthRoutes } from './health.ts';
import { AdminError, sendError } from './http.ts';
import { registerKeyRoutes } from './keys.ts';
import { registerOrgKeyRoutes } from './org-keys.ts';
import { registerPolicyRoutes } from './policies.ts';
import { registerReloadRoutes } from './reload.ts';

const UNAUTHORISED = 'Attempted administrative access with invalid or missing key!';

export function createAdminApp(deps: AdminDeps, serverFactory?: FastifyServerFactory): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: deps.config.control_api_max_body_bytes,
    routerOptions: { ignoreTrailingSlash: true },
    ...(serverFactory ? { serverFactory } : {}),
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  const isSecret = secretMatcher(deps.config.secret);
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0]!;
    if (path !== '/gw' && !path.startsWith('/gw/')) return;
    if (!isSecret(request.headers['x-gw-authorization'])) {
      deps.log.warn({ path, from: request.ip }, 'management API: invalid or missing x-gw-authorization');
      return sendError(reply, 403, UNAUTHORISED);
    }
  });

  app.setErrorHandler((error: Error & { code?: string; statusCode?: number }, request, reply) => {
    if (error instanceof AdminError) return sendError(reply, error.status, error.message);
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendError(reply, 413, `Request body too large: at most ${deps.config.control_api_max_body_bytes} bytes (control_api_max_body_bytes)`);
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return sendError(reply, error.statusCode, error.message);
    deps.log.error({ err: error.stack, path: request.url }, 'management API failed');
    return sendError(reply, 500, 'Internal error');
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).type('text/plain; charset=utf-8').send('404 page not found\n'));

  registerHealthRoutes(app, deps);
  registerApiRoutes(app, deps);
  registerPolicyRoutes(app, deps);
  registerKeyRoutes(app, deps);
  registerOrgKeyRoutes(app, deps);
  registerReloadRoutes(app, deps);
  registerCertRoutes(app, deps);
  registerChangeRoutes(app, deps);
  return app;
}

