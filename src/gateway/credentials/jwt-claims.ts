// The OAS JWT scheme's claim checks (Tyk\'s validateExtraClaims, docs/compatibility.md; Classic APIs skip
// them): `allowedIssuers` (iss), `allowedAudiences` (aud, a string or a list: one must be allowed), `jtiValidation`
// (a jti is required) and `allowedSubjects` (the identity: identityBaseField, else sub). Checked in that order
// after the signature and the time claims; a failure is 401 `Key not authorized: <reason>` with Tyk's
// reason. Pure.
import type { JWTPayload } from 'jose';
import type { JwtClaimChecks } from '../definition/api-spec.ts';
import { jwtIdentity } from './jwt-session.ts';

export const JwtClaimMessages = {
  issuerRequired: 'Key not authorized: issuer claim is required but not present in token',
  invalidIssuer: (iss: string) => `Key not authorized: invalid issuer claim: ${iss}`,
  audienceRequired: 'Key not authorized: audience claim is required but not present in token',
  /** The audiences as Go prints a string list (`[a b]`). */
  noMatchingAudience: (aud: string[]) => `Key not authorized: no matching audience found in token: [${aud.join(' ')}]`,
  jtiRequired: 'Key not authorized: JWT ID (jti) claim is required but not present in token',
  invalidSubject: (sub: string) => `Key not authorized: invalid subject value: ${sub}`,
} as const;

/** The first failed check's message, or undefined when the claims pass every configured check. */
export function claimCheckProblem(checks: JwtClaimChecks, claims: JWTPayload, identityField: string | undefined): string | undefined {
  if (checks.issuers.length > 0) {
    if (typeof claims.iss !== 'string' || claims.iss === '') return JwtClaimMessages.issuerRequired;
    if (!checks.issuers.includes(claims.iss)) return JwtClaimMessages.invalidIssuer(claims.iss);
  }
  if (checks.audiences.length > 0) {
    const aud = typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud.filter((a): a is string => typeof a === 'string') : [];
    if (aud.length === 0 || aud.every((a) => a === '')) return JwtClaimMessages.audienceRequired;
    if (!aud.some((a) => checks.audiences.includes(a))) return JwtClaimMessages.noMatchingAudience(aud);
  }
  if (checks.jti && (typeof claims.jti !== 'string' || claims.jti === '')) return JwtClaimMessages.jtiRequired;
  if (checks.subjects.length > 0) {
    const identity = jwtIdentity(claims, identityField);
    if (!identity.ok) return `Key not authorized: ${identity.message}`;
    if (!checks.subjects.includes(identity.value)) return JwtClaimMessages.invalidSubject(identity.value);
  }
  return undefined;
}
