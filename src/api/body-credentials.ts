// The two regexps of basic auth's credentials-from-body (basic_auth.body_user_regexp / body_password_regexp, OAS
// extractCredentialsFromBody.userRegexp / passwordRegexp): each must be given, compile, and have a capture group
// (its first group is the credential). Shared by the gateway (which loads them) and the admission webhook. The
// anchor silently disables the mode when one is empty or invalid; here the definition is refused, naming the field.

export type RegexpResult = { ok: true; regexp: RegExp } | { ok: false; problem: string };

/** `problem` completes "<field> ...". */
export function compileCredentialRegexp(source: string | undefined): RegexpResult {
  if (!source) return { ok: false, problem: 'is required when credentials are extracted from the body' };
  let regexp: RegExp;
  try {
    regexp = new RegExp(source);
  } catch {
    return { ok: false, problem: 'is not a valid regular expression' };
  }
  // Matching the empty alternative reports how many groups the expression has.
  if (new RegExp(`${source}|`).exec('')!.length < 2) return { ok: false, problem: 'needs a capture group: its first group is the credential' };
  return { ok: true, regexp };
}
