// API tokens over HTTP; admins only, reading included (a token list tells who may do what):
//   POST   /api/tokens        {name, role: admin|member}  200 {id, name, role, token}: the token is shown this once
//   GET    /api/tokens        {tokens: [{id, name, role, created_at}]}: never a secret
//   DELETE /api/tokens/{id}   {status, message}; the token stops working at once
// The bootstrap admin (admin_token in the configuration) is not a stored token: it is neither listed nor revocable.
import type { FastifyInstance } from 'fastify';
import { TokenBody } from '../bodies.ts';
import { HttpError } from '../../http/errors.ts';
import type { HubDeps } from '../hub-deps.ts';
import { param, parseBody, route, sendJson } from '../http.ts';

export function registerTokenRoutes(app: FastifyInstance, deps: HubDeps): void {
  route(app, '/api/tokens', {
    GET: async (request, reply) => {
      deps.auth.requireAdmin(request, 'manage tokens');
      return sendJson(reply, 200, { tokens: await deps.tokens.list() });
    },
    POST: async (request, reply) => {
      const by = deps.auth.requireAdmin(request, 'manage tokens');
      const issued = await deps.tokens.issue(parseBody(request, TokenBody));
      deps.log.info({ token: issued.id, name: issued.name, role: issued.role, by: by.name }, 'token issued');
      return sendJson(reply, 200, issued);
    },
  });
  route(app, '/api/tokens/:id', {
    DELETE: async (request, reply) => {
      const by = deps.auth.requireAdmin(request, 'manage tokens');
      const revoked = await deps.tokens.revoke(param(request, 'id'));
      if (!revoked) throw new HttpError('not_found', `token ${param(request, 'id')} not found`);
      deps.log.info({ token: revoked.id, name: revoked.name, by: by.name }, 'token revoked');
      return sendJson(reply, 200, { status: 'ok', message: `token "${revoked.name}" revoked` });
    },
  });
}
