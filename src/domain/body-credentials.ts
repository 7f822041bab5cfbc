// The two regexps of basic auth's credentials-from-body (basic_auth.body_user_regexp / body_password_regexp, OAS
// extractCredentialsFromBody.userRegexp / passwordRegexp): each must be given, compile, and have a capture group
// (its first group is the credential). Shared by the gateway (which loads them) and the admission webhook. Tyk
//  silently disables the mode when one is empty or invalid; here the definition is refused, naming the field.
// They run against request bodies, so they run on RE2 like every pattern from a definition (bounded-regexp.ts).
import { compileBoundedRegexp, type RegexpResult } from './bounded-regexp.ts';

export type { RegexpResult };

/** `problem` completes "<field> ...". */
export function compileCredentialRegexp(source: string | undefined): RegexpResult {
  if (!source) return { ok: false, problem: 'is required when credentials are extracted from the body' };
  const bounded = compileBoundedRegexp(source);
  if (!bounded.ok) return bounded;
  // Matching the empty alternative reports how many groups the expression has.
  if (bounded.regexp.groupCount < 1) return { ok: false, problem: 'needs a capture group: its first group is the credential' };
  return bounded;
}
