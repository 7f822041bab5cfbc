// /session/admin: the web UI's administrator sign-in. The admin secret is posted here once and exchanged for an
// administrator session (its own HttpOnly, SameSite=Strict cookie, short-lived: admin_session_ttl_seconds), which
// then opens /admin like the admin-auth header would, with the CSRF token on every write (access.ts). The page
// therefore never keeps the secret: no script-readable storage, no header it adds itself. Outside /admin on purpose
// (it is how a browser obtains the credential /admin then accepts).
//   POST   /session/admin   {admin_secret} -> 200 <view> + Set-Cookie gw_admin_session; 401 Not authorised
//   GET    /session/admin                  -> 200 <view> for a live administrator session; 401 otherwise
//   DELETE /session/admin                  -> 200 {Status: "OK", Message: "Signed out"} + a clearing Set-Cookie
//                                             (needs x-csrf-token like every cookie-authenticated write)
// <view> = {admin: true, csrf_token, expires_at}. Never echoes or logs the secret; a sign-in POST carrying a
// foreign Origin is refused (login CSRF); repeated failures lock the sign-in out (429 with Retry-After, for the
// administrator account and for the client address: sign-in-throttle.ts); the admin-auth header is not throttled.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { hashKey, secretMatcher } from '../../domain/key-hash.ts';
import { adminBySession, NOT_AUTHORISED } from '../access.ts';
import type { DashboardDeps } from '../deps.ts';
import { objectBody, parseWith, route, sendError, sendJson, sendOk } from '../http.ts';
import { closeAdminSession, openAdminSession, type AdminSession } from './admin-store.ts';
import { ADMIN_SESSION_COOKIE, clearedSessionCookie, sessionCookie } from './cookie.ts';
import { CROSS_ORIGIN_REFUSAL, csrfRefusal, sameOrigin } from './csrf.ts';
import { sendLockedOut } from './sign-in-throttle.ts';

const AdminSignIn = z.object({ admin_secret: z.string().min(1, "must be the dashboard's admin secret") });

/** The throttle's account of the administrator (one secret, one account). */
const ADMIN_ACCOUNT = 'administrator';

const view = (session: AdminSession): Record<string, unknown> => ({ admin: true, csrf_token: session.csrf_token, expires_at: session.expires_at });

export function registerAdminSessionRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { db, config } = deps;
  const isAdminSecret = secretMatcher(config.admin_secret);
  const secretDigest = hashKey(config.admin_secret);
  const secure = (request: FastifyRequest): boolean => config.session_cookie_secure || request.protocol === 'https';
  const noStore = (reply: FastifyReply): FastifyReply => reply.header('cache-control', 'no-store');

  route(app, '/session/admin', {
    POST: async (request, reply) => {
      if (!sameOrigin(request, config.session_cookie_secure)) return sendError(reply, 403, CROSS_ORIGIN_REFUSAL);
      const { admin_secret } = parseWith(AdminSignIn, objectBody(request, 'the administrator sign-in'));
      const outcome = await deps.signIn.attempt({ client: request.ip, account: ADMIN_ACCOUNT }, async () => (isAdminSecret(admin_secret) ? true : undefined));
      if (outcome.kind === 'locked-out') {
        deps.log.warn({ event: 'admin sign-in locked out' }, 'web UI administrator sign-in locked out after repeated failures');
        return sendLockedOut(reply, outcome.retryAfterSeconds);
      }
      if (outcome.kind === 'refused') {
        deps.log.warn({ event: 'admin sign-in refused' }, 'web UI administrator sign-in refused');
        return sendError(noStore(reply), 401, NOT_AUTHORISED);
      }
      const { token, session } = await openAdminSession(db, secretDigest, config.admin_session_ttl_seconds);
      deps.log.info({ event: 'admin session opened' }, 'web UI administrator session opened');
      reply.header(
        'set-cookie',
        sessionCookie(token, { secure: secure(request), maxAgeSeconds: config.admin_session_ttl_seconds, name: ADMIN_SESSION_COOKIE }),
      );
      return sendJson(noStore(reply), 200, view(session));
    },
    GET: async (request, reply) => {
      const found = await adminBySession(db, request, secretDigest);
      if (!found) return sendError(noStore(reply), 401, NOT_AUTHORISED);
      return sendJson(noStore(reply), 200, view(found.session));
    },
    DELETE: async (request, reply) => {
      const found = await adminBySession(db, request, secretDigest);
      if (found) {
        const refusal = csrfRefusal(request, found.session.csrf_token, config.session_cookie_secure);
        if (refusal) return sendError(reply, 403, refusal);
        await closeAdminSession(db, found.token);
        deps.log.info({ event: 'admin session closed' }, 'web UI administrator session closed');
      }
      reply.header('set-cookie', clearedSessionCookie(secure(request), { name: ADMIN_SESSION_COOKIE }));
      return sendOk(noStore(reply), 'Signed out');
    },
  });
}
