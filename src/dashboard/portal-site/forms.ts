// The portal's HTML form posts: the body (application/x-www-form-urlencoded, already bounded by max_body_bytes)
// as fields, and the cross-site request forgery checks every post passes before it changes anything: an Origin
// header, when the browser sends one, must be the portal's own (session/csrf.ts sameOrigin: stops login and
// sign-up CSRF too), and a signed-in developer's post must carry the session's token in the hidden field
// csrf_token (compared in constant time). The session cookie is SameSite=Strict besides. Must never echo a
// password field back into a page.
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../http/errors.ts';
import { csrfTokenMatches, sameOrigin } from '../session/csrf.ts';
import type { DeveloperSession } from './developer-session.ts';

export const CSRF_FIELD = 'csrf_token';

export type FormFields = Map<string, string>;

/** The posted fields (the first value of a repeated one); 400 for a body that is not a form. */
export function formFields(request: FastifyRequest): FormFields {
  const type = String(request.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (type !== 'application/x-www-form-urlencoded')
    throw new HttpError('malformed', 'Request malformed: expected a form post (application/x-www-form-urlencoded)');
  const fields: FormFields = new Map();
  for (const [name, value] of new URLSearchParams(typeof request.body === 'string' ? request.body : '')) {
    if (!fields.has(name)) fields.set(name, value);
  }
  return fields;
}

/**
 * Refuses (403) a post from another site, or a signed-in developer's post without the session's token.
 * `behindTlsProxy` is session_cookie_secure (the browser's Origin is https while the request arrives as http).
 */
export function checkFormPost(request: FastifyRequest, fields: FormFields, session: DeveloperSession | undefined, behindTlsProxy: boolean): void {
  if (!sameOrigin(request, behindTlsProxy)) throw new HttpError('forbidden', 'Cross-origin form post refused: Origin is not this portal');
  if (session && !csrfTokenMatches(fields.get(CSRF_FIELD), session.csrf_token))
    throw new HttpError('forbidden', 'This form has expired or did not come from this portal: reload the page and try again');
}
