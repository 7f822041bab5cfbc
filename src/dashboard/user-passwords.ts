// Users' own passwords, for the web UI's e-mail sign-in (session/routes.ts); access keys stay the credential of API
// clients. Stored only as a bcrypt hash (Tyk Dashboard stores its users' passwords with bcrypt), hashed and checked
// in the dashboard's bcrypt worker pool. Rules: 8 to 72 bytes (bcrypt reads no further than 72, so a longer one
// would be cut silently: refused instead). Setting one's own password needs the current one when one is set.
//   POST /api/users/{id}/actions/reset  {new_password, current_password?}  (Tyk Dashboard's path)
//        -> {Status: "OK", Message: "Password set", Meta: null}
// Any signed-in user may set their own; a user with `users` write may set another's (not the operator's system
// user's, nor one holding a permission above their own: grants.ts); another organisation's user is 404, as an
// unknown id. A password set by someone else ends every web UI session of that user (opened with the access key or
// the old password); one's own ends one's other sessions, keeping the one it was set from. Recorded in the audit
// log as "password set" (audit.ts: never a body). Neither password is ever logged, stored or answered.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { callerOf, NOT_AUTHORISED, passwordSessionDigest } from './access.ts';
import type { DashboardDeps } from './deps.ts';
import { checkNotAbove } from './grants.ts';
import { HttpError, notFound, objectBody, param, parseWith, route, sendError, sendOk } from './http.ts';
import { withGroupPermissions } from './store/user-groups.ts';
import { getUser, passwordOf, setPassword } from './store/users.ts';
import { sessionTokenOf } from './session/cookie.ts';
import { closeUserSessions, moveSessionCredential } from './session/store.ts';

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_BYTES = 72;

const Password = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .refine((value) => Buffer.byteLength(value) <= MAX_PASSWORD_BYTES, `must be at most ${MAX_PASSWORD_BYTES} bytes (bcrypt reads no further)`);

const PasswordReset = z.object({ new_password: Password, current_password: z.string().max(1024).optional() });

/** A bcrypt hash of a random password, checked against when no user matches (the same work as a real check). */
let decoy: Promise<string> | undefined;
export function decoyHash(deps: DashboardDeps): Promise<string> {
  return (decoy ??= deps.hashPassword(randomBytes(16).toString('hex')));
}

/** The session token the request was authenticated with: its cookie's, used only when no Authorization is sent. */
function requestSessionToken(request: FastifyRequest): string | undefined {
  const key = request.headers.authorization;
  return typeof key === 'string' && key !== '' ? undefined : sessionTokenOf(request.headers.cookie);
}

export function registerUserPasswordRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  route(app, '/api/users/:id/actions/reset', {
    POST: async (request, reply) => {
      const caller = callerOf(request);
      if (!caller) return sendError(reply, 401, NOT_AUTHORISED);
      const body = parseWith(PasswordReset, objectBody(request, 'the password'));
      const user = await getUser(deps.db, param(request, 'id'));
      if (!user || user.org_id !== caller.org.id) throw notFound('User');
      const self = user.id === caller.user.id;
      const current = await passwordOf(deps.db, user.id);
      if (self) {
        if (current !== undefined && !(await deps.checkPassword(body.current_password ?? '', current))) {
          throw new HttpError('forbidden', 'current_password: does not match your current password');
        }
      } else {
        if (caller.user.user_permissions.users !== 'write') throw new HttpError('forbidden', 'access denied: requires users write');
        if (user.system) throw new HttpError('forbidden', "the operator's system user is managed through the admin API");
        checkNotAbove(caller, (await withGroupPermissions(deps.db, user)).user_permissions, 'user');
      }
      const hash = await deps.hashPassword(body.new_password);
      const keep = self ? requestSessionToken(request) : undefined;
      await deps.db.transaction(async (tx) => {
        await setPassword(tx, user.id, hash);
        await closeUserSessions(tx, user.id, keep);
        if (keep !== undefined && current !== undefined) await moveSessionCredential(tx, keep, passwordSessionDigest(current), passwordSessionDigest(hash));
      });
      deps.log.info({ user: user.id, org: user.org_id }, 'user password set');
      return sendOk(reply, 'Password set');
    },
  });
}
