// Who is calling and what they may do. Three credentials, one per interface:
//   /admin/*   header admin-auth: <admin_secret>            organisations and users
//              or the web UI's administrator session cookie opened with that secret (session/admin-routes.ts)
//   /system/*  header x-gw-node-secret: <node_secret>       gateways loading their configuration
//   /api/*     header Authorization: <user access key>      a user of one organisation (raw value, gw's documented rule)
//              or the web UI's session cookie               the same user, signed in with that key (session/)
// Secrets are compared in constant time over SHA-256 digests (neither value nor length leaks); an access key is
// looked up by its SHA-256. A failed check answers 401 {"Status":"Error","Message":"Not authorised"} before any
// route runs, so an unauthenticated caller learns nothing about which paths or ids exist. The session cookie is a
// second way to the SAME caller, never a bypass: it is used only when no Authorization header is sent, it resolves
// to a user only while that user is active and still holds the access key the session was opened with, and its
// writes must pass the CSRF check (session/csrf.ts: token header and Origin) before any route runs. Everything
// after (orgRoute's permissions, the operator_managed rule) is identical for both. The administrator's session
// works the same way for /admin (its own cookie, used only without an admin-auth header, live only while the admin
// secret is the one it was opened with, writes behind the CSRF check); a user's session never opens /admin.
//
// A user in a user group holds the group's permissions instead of their own (Tyk's user_group_id), resolved here
// at each request, so a group's change applies at once. A session opened with the user's e-mail and password
// (session/routes.ts) lives while the user keeps that password.
//
// orgRoute() then applies the user's permission for the route's resource (GET needs read, other methods write;
// deny refuses both: 403 naming what is missing) and the operator_managed rule: in such an organisation only
// system users (the operator's) may write APIs and policies, whatever a human's permissions say.
import { hashKey, secretMatcher } from '../domain/key-hash.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/database.ts';
import type { DashboardConfig } from './config.ts';
import { HttpError, sendError, type Method } from './http.ts';
import { getOrg, type Org } from './store/orgs.ts';
import { withGroupPermissions } from './store/user-groups.ts';
import { credentialDigestsOf, getUser, userByAccessKeyDigest, type Resource, type User } from './store/users.ts';
import { adminSessionByToken, type AdminSession } from './session/admin-store.ts';
import { ADMIN_SESSION_COOKIE, sessionTokenOf } from './session/cookie.ts';
import { csrfRefusal } from './session/csrf.ts';
import { sessionByToken, type Session } from './session/store.ts';

export interface Caller {
  user: User;
  org: Org;
}

export const NOT_AUTHORISED = 'Not authorised';

const callers = new WeakMap<FastifyRequest, Caller>();

/** The caller this user is while active, with the permissions they hold (their group's when in one). */
export async function callerOfUser(db: Database, user: User | undefined): Promise<Caller | undefined> {
  const org = user?.active ? await getOrg(db, user.org_id) : undefined;
  return user && org ? { user: await withGroupPermissions(db, user), org } : undefined;
}

/** The active user holding the access key with this digest, and their organisation. */
export async function callerByAccessKeyDigest(db: Database, digest: string): Promise<Caller | undefined> {
  return callerOfUser(db, await userByAccessKeyDigest(db, digest));
}

/** What a session opened with a password records of it: a digest of the bcrypt hash (a new password ends it). */
export function passwordSessionDigest(bcryptHash: string): string {
  return `password:${hashKey(bcryptHash)}`;
}

/** The caller behind the request's session cookie (and the session), while both are valid: the user still holds
 * the credential the session was opened with (the same access key, or the same password). */
export async function callerBySession(db: Database, request: FastifyRequest): Promise<{ caller: Caller; session: Session; token: string } | undefined> {
  const token = sessionTokenOf(request.headers.cookie);
  const session = token === undefined ? undefined : await sessionByToken(db, token);
  if (!token || !session) return undefined;
  const held = await credentialDigestsOf(db, session.user_id);
  const same =
    held !== undefined &&
    (held.access_key_sha256 === session.access_key_sha256 ||
      (held.password_bcrypt !== null && passwordSessionDigest(held.password_bcrypt) === session.access_key_sha256));
  const caller = same ? await callerOfUser(db, await getUser(db, session.user_id)) : undefined;
  return caller ? { caller, session, token } : undefined;
}

/** The administrator session behind the request's admin session cookie, while it is valid for this admin secret. */
export async function adminBySession(
  db: Database,
  request: FastifyRequest,
  adminSecretDigest: string,
): Promise<{ session: AdminSession; token: string } | undefined> {
  const token = sessionTokenOf(request.headers.cookie, ADMIN_SESSION_COOKIE);
  const session = token === undefined ? undefined : await adminSessionByToken(db, token, adminSecretDigest);
  return token && session ? { session, token } : undefined;
}

/** The authenticated caller of an org API request (undefined elsewhere or before authentication). */
export function callerOf(request: FastifyRequest): Caller | undefined {
  return callers.get(request);
}

/** Checks the credential of every request under /admin, /system and /api; records the org API's caller. */
export function registerAuthentication(app: FastifyInstance, db: Database, config: DashboardConfig): void {
  const isAdminSecret = secretMatcher(config.admin_secret);
  const isNodeSecret = secretMatcher(config.node_secret);
  const adminSecretDigest = hashKey(config.admin_secret);

  app.addHook('onRequest', async (request, reply) => {
    // The matched route's pattern, not the raw URL: the router decodes percent-escapes (`/%61dmin/...` reaches
    // /admin/...), so only the pattern says which interface a request is for. The raw path serves unmatched URLs.
    const path = request.routeOptions.url ?? request.url.split('?')[0]!;
    const under = (prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`);
    if (under('/admin')) {
      const secret = request.headers['admin-auth'];
      if (secret !== undefined) {
        if (!isAdminSecret(secret)) return sendError(reply, 401, NOT_AUTHORISED);
        return;
      }
      const bySession = await adminBySession(db, request, adminSecretDigest);
      if (!bySession) return sendError(reply, 401, NOT_AUTHORISED);
      const refusal = csrfRefusal(request, bySession.session.csrf_token, config.session_cookie_secure);
      if (refusal) return sendError(reply, 403, refusal);
    } else if (under('/system')) {
      if (!isNodeSecret(request.headers['x-gw-node-secret'])) return sendError(reply, 401, NOT_AUTHORISED);
    } else if (under('/api')) {
      const key = request.headers.authorization;
      if (typeof key === 'string' && key !== '') {
        const caller = await callerByAccessKeyDigest(db, hashKey(key));
        if (!caller) return sendError(reply, 401, NOT_AUTHORISED);
        callers.set(request, caller);
        return;
      }
      const bySession = await callerBySession(db, request);
      if (!bySession) return sendError(reply, 401, NOT_AUTHORISED);
      const refusal = csrfRefusal(request, bySession.session.csrf_token, config.session_cookie_secure);
      if (refusal) return sendError(reply, 403, refusal);
      callers.set(request, bySession.caller);
    }
  });
}

export interface OrgRouteOptions {
  /** What an operator-managed organisation reserves to system users, e.g. `API definitions`; unset: nothing. */
  operatorManaged?: string;
}

export type OrgHandler = (request: FastifyRequest, reply: FastifyReply, caller: Caller) => Promise<unknown>;

/** Registers an org API path: a handler per method (others 405), behind the resource's permission. */
export function orgRoute(
  app: FastifyInstance,
  path: string,
  resource: Resource,
  handlers: Partial<Record<Method, OrgHandler>>,
  options: OrgRouteOptions = {},
): void {
  app.all(path, async (request, reply) => {
    const handler = handlers[request.method as Method];
    if (!handler) return sendError(reply, 405, 'Method not supported');
    const caller = callers.get(request);
    if (!caller) return sendError(reply, 401, NOT_AUTHORISED);
    authorise(caller, resource, request.method === 'GET' ? 'read' : 'write', options);
    return handler(request, reply, caller);
  });
}

function authorise(caller: Caller, resource: Resource, needed: 'read' | 'write', options: OrgRouteOptions): void {
  const granted = caller.user.user_permissions[resource] ?? 'deny';
  if (granted === 'deny' || (needed === 'write' && granted !== 'write')) throw new HttpError('forbidden', `access denied: requires ${resource} ${needed}`);
  if (needed === 'write' && options.operatorManaged && caller.org.operator_managed && !caller.user.system) {
    throw new HttpError(
      'forbidden',
      `${options.operatorManaged} of this organisation are managed by the operator; change them through its custom resources in the cluster (only the operator's system user may write them here)`,
    );
  }
}
