// The session cookies on the wire: their names (a user's session, an administrator's), reading it from a Cookie header and writing the Set-Cookie that sets
// or clears it. The cookie is HttpOnly (scripts never see the token), SameSite=Strict (a browser never sends it on
// a request another site starts), Path=/ and Secure when the dashboard is reached over TLS (or
// session_cookie_secure says so). Must never log or echo the token. The developer portal's session cookie is the same
// kind under its own name and path (portal-site/developer-session.ts).
import { cookieNamed } from '../../http/cookie-header.ts';

export const SESSION_COOKIE = 'gw_session';
/** The administrator's session (session/admin-routes.ts): its own cookie, so a user's session never passes for one. */
export const ADMIN_SESSION_COOKIE = 'gw_admin_session';

/** The session token in a Cookie header (the first pair of that name), if present and well-formed (base64url). */
export function sessionTokenOf(cookieHeader: string | undefined, name: string = SESSION_COOKIE): string | undefined {
  const value = cookieNamed(cookieHeader, name);
  return value !== undefined && /^[A-Za-z0-9_-]{16,128}$/.test(value) ? value : undefined;
}

export interface CookieOptions {
  secure: boolean;
  /** Seconds until the browser drops it; 0 clears it. */
  maxAgeSeconds: number;
  /** The cookie's name; default gw_session. */
  name?: string;
  /** The paths it is sent to; default / (the whole site). */
  path?: string;
}

export function sessionCookie(token: string, options: CookieOptions): string {
  return [
    `${options.name ?? SESSION_COOKIE}=${token}`,
    `Path=${options.path ?? '/'}`,
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${options.maxAgeSeconds}`,
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}

export function clearedSessionCookie(secure: boolean, where: Pick<CookieOptions, 'name' | 'path'> = {}): string {
  return sessionCookie('', { secure, maxAgeSeconds: 0, ...where });
}
