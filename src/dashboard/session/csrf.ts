// Cross-site request forgery defence for cookie-authenticated writes, in two independent layers besides the
// cookie's SameSite=Strict: the session's own token must come back in header x-csrf-token (compared in constant
// time; a page on another site can neither read it nor make a browser add the header without a CORS preflight the
// dashboard never grants), and an Origin header, when the browser sends one, must be the dashboard's own. Safe
// methods (GET, HEAD, OPTIONS) change nothing and need neither. Header-authenticated API calls (Authorization)
// are not cookie-borne, so this never applies to them.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method);
}

/**
 * False when the request carries an Origin that is not this dashboard's (scheme, host and port). `behindTlsProxy`
 * (session_cookie_secure: a TLS proxy sits in front, the request itself arrives as http) also accepts https on the
 * same host and port, which is what the browser sends there.
 */
export function sameOrigin(request: Pick<FastifyRequest, 'headers' | 'protocol' | 'host'>, behindTlsProxy: boolean): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  return origin === `${request.protocol}://${request.host}` || (behindTlsProxy && origin === `https://${request.host}`);
}

/** Whether a presented CSRF token is the session's (constant time over SHA-256 digests; anything but a string fails). */
export function csrfTokenMatches(given: unknown, expectedToken: string): boolean {
  const digest = (value: string): Buffer => createHash('sha256').update(value).digest();
  return typeof given === 'string' && timingSafeEqual(digest(given), digest(expectedToken));
}

export const CROSS_ORIGIN_REFUSAL = 'Cross-origin request refused: Origin is not this dashboard';

/**
 * The refusal, or undefined when this cookie-authenticated request may proceed. `behindTlsProxy` is the dashboard's
 * session_cookie_secure (required: every caller must pass it, or a TLS proxy's https Origin is refused).
 */
export function csrfRefusal(request: FastifyRequest, expectedToken: string, behindTlsProxy: boolean): string | undefined {
  if (isSafeMethod(request.method)) return undefined;
  if (!sameOrigin(request, behindTlsProxy)) return CROSS_ORIGIN_REFUSAL;
  if (!csrfTokenMatches(request.headers[CSRF_HEADER], expectedToken)) return `Missing or wrong ${CSRF_HEADER} header (sessions need it on every write)`;
  return undefined;
}
