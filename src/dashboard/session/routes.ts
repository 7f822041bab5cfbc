// /session: the web UI's sign-in. Outside /api on purpose: it is how a browser obtains the credential /api then
// accepts, so the /api authentication hook does not apply and each method checks what it needs itself.
//   POST   /session   {access_key}  -> 200 <session view> + Set-Cookie gw_session (HttpOnly, SameSite=Strict);
//                                      401 Not authorised for an unknown key or an inactive user
//   POST   /session   {email_address, password, org_id?}  the same for a user who set a password (user-passwords.ts);
//                                      401 Not authorised alike for an unknown e-mail and a wrong password. An
//                                      address several organisations hold opens the oldest user's, or org_id's,
//                                      with one bcrypt check whatever their count (password-sign-in.ts)
//   GET    /session                 -> 200 <session view> for a live session cookie; 401 otherwise
//   DELETE /session                 -> 200 {Status: "OK", Message: "Signed out"} + a clearing Set-Cookie (needs the
//                                      x-csrf-token header like every cookie-authenticated write)
// <session view> = {user: {id, email_address, first_name, last_name, system, user_permissions}, org: {id,
// owner_name, operator_managed, allow_hand_edits, portal_url}, csrf_token, expires_at}; portal_url is where people
// reach the organisation's developer portal (https://<cname>/portal/ for one with a domain: portal-site/site.ts). The access key is never echoed; the token only travels
// in the cookie. A sign-in POST carrying a foreign Origin is refused (login CSRF); repeated failures from one client
// address lock its sign-ins out (429 with Retry-After, sign-in-throttle.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { hashKey } from '../../domain/key-hash.ts';
import { callerByAccessKeyDigest, callerBySession, callerOfUser, NOT_AUTHORISED, passwordSessionDigest, type Caller } from '../access.ts';
import { getUser, passwordUsersByEmail } from '../store/users.ts';
import { decoyHash } from '../user-passwords.ts';
import { passwordHolderOf } from './password-sign-in.ts';
import type { DashboardConfig } from '../config.ts';
import type { DashboardDeps } from '../deps.ts';
import { portalBase, portalOrigin } from '../portal-site/site.ts';
import { objectBody, parseWith, route, sendError, sendJson, sendOk } from '../http.ts';
import { clearedSessionCookie, sessionCookie } from './cookie.ts';
import { CROSS_ORIGIN_REFUSAL, csrfRefusal, sameOrigin } from './csrf.ts';
import { sendLockedOut } from './sign-in-throttle.ts';
import { closeSession, openSession, type Session } from './store.ts';

const KeySignIn = z.object({ access_key: z.string().min(1, 'must be your access key').max(1024) });
const PasswordSignIn = z.object({
  email_address: z.string().min(1, 'must be your e-mail address').max(320),
  password: z.string().min(1, 'must be your password').max(1024),
  org_id: z.string().min(1).max(128).optional(),
});

/** An access key sign-in, or (when the body names an e-mail address or a password) an e-mail one. */
function signInOf(body: Record<string, unknown>): z.infer<typeof KeySignIn> | z.infer<typeof PasswordSignIn> {
  return 'email_address' in body || 'password' in body ? parseWith(PasswordSignIn, body) : parseWith(KeySignIn, body);
}

/** The throttle's account for an e-mail sign-in (all organisations' users with that address share it). */
const userAccount = (email: string): string => `user ${email.trim().toLowerCase()}`;

/** The organisation's developer portal as people reach it: absolute when it has an address of its own, else on the
 * dashboard's (the web UI's own origin). */
function portalUrl(config: DashboardConfig, org: Caller['org']): string {
  return `${portalOrigin(config, org) ?? ''}${portalBase(org)}`;
}

function view(config: DashboardConfig, { user, org }: Caller, session: Session): Record<string, unknown> {
  return {
    user: {
      id: user.id,
      email_address: user.email_address,
      first_name: user.first_name,
      last_name: user.last_name,
      system: user.system,
      user_permissions: user.user_permissions,
    },
    org: {
      id: org.id,
      owner_name: org.owner_name,
      operator_managed: org.operator_managed,
      allow_hand_edits: org.allow_hand_edits,
      portal_url: portalUrl(config, org),
    },
    csrf_token: session.csrf_token,
    expires_at: session.expires_at,
  };
}

/** The active user this e-mail and password open, with one bcrypt check however many organisations hold the
 * address (password-sign-in.ts); org_id picks the organisation, else the address's oldest user is tried. */
async function byPassword(deps: DashboardDeps, given: z.infer<typeof PasswordSignIn>): Promise<{ caller: Caller; digest: string } | undefined> {
  const holder = await passwordHolderOf(
    { holders: (email, orgId) => passwordUsersByEmail(deps.db, email, orgId), checkPassword: deps.checkPassword, decoyHash: () => decoyHash(deps) },
    given.email_address.trim(),
    given.password,
    given.org_id,
  );
  const caller = holder && (await callerOfUser(deps.db, await getUser(deps.db, holder.id)));
  return caller && holder && { caller, digest: passwordSessionDigest(holder.password_bcrypt) };
}

export function registerSessionRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { db, config } = deps;
  const secure = (request: FastifyRequest): boolean => config.session_cookie_secure || request.protocol === 'https';
  const noStore = (reply: FastifyReply): FastifyReply => reply.header('cache-control', 'no-store');

  route(app, '/session', {
    POST: async (request, reply) => {
      if (!sameOrigin(request, config.session_cookie_secure)) return sendError(reply, 403, CROSS_ORIGIN_REFUSAL);
      const given = signInOf(objectBody(request, 'the sign-in'));
      // An access key names no account before it is checked: only the client's failures count. An e-mail counts
      // for its account too; unknown e-mail and wrong password get the same answer after the same bcrypt work.
      const outcome =
        'access_key' in given
          ? await deps.signIn.attempt({ client: request.ip }, async () => {
              const digest = hashKey(given.access_key);
              const caller = await callerByAccessKeyDigest(db, digest);
              return caller && { caller, digest };
            })
          : await deps.signIn.attempt({ client: request.ip, account: userAccount(given.email_address) }, () => byPassword(deps, given));
      if (outcome.kind === 'locked-out') {
        deps.log.warn({ event: 'sign-in locked out' }, 'web UI sign-in locked out after repeated failures');
        return sendLockedOut(reply, outcome.retryAfterSeconds);
      }
      if (outcome.kind === 'refused') {
        deps.log.info({ event: 'sign-in refused' }, 'web UI sign-in refused');
        return sendError(reply, 401, NOT_AUTHORISED);
      }
      const { caller, digest } = outcome.value;
      const { token, session } = await openSession(db, caller.user, digest, config.session_ttl_seconds);
      deps.log.info({ user: caller.user.id, org: caller.org.id }, 'web UI session opened');
      reply.header('set-cookie', sessionCookie(token, { secure: secure(request), maxAgeSeconds: config.session_ttl_seconds }));
      return sendJson(noStore(reply), 200, view(deps.config, caller, session));
    },
    GET: async (request, reply) => {
      const found = await callerBySession(db, request);
      if (!found) return sendError(noStore(reply), 401, NOT_AUTHORISED);
      return sendJson(noStore(reply), 200, view(deps.config, found.caller, found.session));
    },
    DELETE: async (request, reply) => {
      const found = await callerBySession(db, request);
      if (found) {
        const refusal = csrfRefusal(request, found.session.csrf_token, config.session_cookie_secure);
        if (refusal) return sendError(reply, 403, refusal);
        await closeSession(db, found.token);
        deps.log.info({ user: found.caller.user.id, org: found.caller.org.id }, 'web UI session closed');
      }
      reply.header('set-cookie', clearedSessionCookie(secure(request)));
      return sendOk(noStore(reply), 'Signed out');
    },
  });
}
