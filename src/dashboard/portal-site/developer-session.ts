// A developer's sign-in to one organisation's portal: a row in portal_developer_sessions (looked up by the SHA-256
// of the cookie's token, never the token itself) and the cookie gw_portal_session, set by session/cookie.ts like
// the dashboard's (HttpOnly, SameSite=Strict, Secure over TLS or with session_cookie_secure) but scoped to the
// portal's own path, so one organisation's portal never receives another's cookie. Each session carries a CSRF
// token that every form post of the signed-in developer must return (forms.ts). A session belongs to its
// organisation: it is only ever looked up together with the site's org id. Must never log or store a token.
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashKey } from '../../domain/key-hash.ts';
import type { Queryable } from '../../db/database.ts';
import type { DashboardConfig } from '../config.ts';
import { clearedSessionCookie, sessionCookie, sessionTokenOf } from '../session/cookie.ts';
import { iso } from '../../db/rows.ts';
import type { PortalSite } from './site.ts';

export const PORTAL_SESSION_COOKIE = 'gw_portal_session';

export interface DeveloperSession {
  developer_id: string;
  org_id: string;
  csrf_token: string;
  expires_at: string;
}

/** The table the sessions live in (migration in portal-site/schema.ts). */
export const DEVELOPER_SESSIONS_SQL = `
CREATE TABLE portal_developer_sessions (
  token_sha256 text PRIMARY KEY,
  org_id text NOT NULL REFERENCES dashboard_orgs (id) ON DELETE CASCADE,
  developer_id text NOT NULL,
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX portal_developer_sessions_expiry ON portal_developer_sessions (expires_at);
CREATE INDEX portal_developer_sessions_developer ON portal_developer_sessions (org_id, developer_id);
`;

const secureFor = (config: DashboardConfig, request: FastifyRequest): boolean => config.session_cookie_secure || request.protocol === 'https';

/** Opens a session for this developer and sets its cookie on the reply. */
export async function signInDeveloper(
  db: Queryable,
  config: DashboardConfig,
  site: PortalSite,
  developerId: string,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  await db.query('DELETE FROM portal_developer_sessions WHERE expires_at <= now()');
  const token = randomBytes(32).toString('base64url');
  await db.query(
    `INSERT INTO portal_developer_sessions (token_sha256, org_id, developer_id, csrf_token, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
    [hashKey(token), site.org.id, developerId, randomBytes(24).toString('base64url'), config.session_ttl_seconds],
  );
  reply.header(
    'set-cookie',
    sessionCookie(token, { secure: secureFor(config, request), maxAgeSeconds: config.session_ttl_seconds, name: PORTAL_SESSION_COOKIE, path: site.base }),
  );
}

/** The live session of this site's organisation the request's cookie opens, if any. */
export async function developerSessionOf(db: Queryable, site: PortalSite, request: FastifyRequest): Promise<DeveloperSession | undefined> {
  const token = sessionTokenOf(request.headers.cookie, PORTAL_SESSION_COOKIE);
  if (token === undefined) return undefined;
  const rows = await db.query<DeveloperSession & { expires_at: unknown }>(
    'SELECT developer_id, org_id, csrf_token, expires_at FROM portal_developer_sessions WHERE token_sha256 = $1 AND org_id = $2 AND expires_at > now()',
    [hashKey(token), site.org.id],
  );
  const row = rows[0];
  return row && { ...row, expires_at: iso(row.expires_at) };
}

/** Ends the request's session (if any) on the server and clears the cookie. */
export async function signOutDeveloper(db: Queryable, config: DashboardConfig, site: PortalSite, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = sessionTokenOf(request.headers.cookie, PORTAL_SESSION_COOKIE);
  if (token !== undefined) await db.query('DELETE FROM portal_developer_sessions WHERE token_sha256 = $1 AND org_id = $2', [hashKey(token), site.org.id]);
  reply.header('set-cookie', clearedSessionCookie(secureFor(config, request), { name: PORTAL_SESSION_COOKIE, path: site.base }));
}
