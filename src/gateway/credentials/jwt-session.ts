// Who a verified JWT is and which policies its session gets, with Tyk's rules and messages
// (processCentralisedJWT, docs/compatibility.md): identity from jwt_identity_base_field (a dotted path is a nested
// lookup; a literal key with dots wins) else `sub`; the session's key id is <org_id><md5 hex of the identity>;
// policies from the claim named by jwt_policy_field_name, else the first policy of the key named by the claim
// jwt_client_base_field names, else jwt_default_policies, plus the policies mapped from the token's scopes. Pure functions of the claims: the step (middleware/auth/jwt-auth.ts) turns them into a session.
import { createHash } from 'node:crypto';
import type { JWTPayload } from 'jose';
import type { JwtSpec } from '../definition/api-spec.ts';

export type Decision<T> = { ok: true; value: T } | { ok: false; message: string };

export const JwtSessionMessages = {
  noIdentity: 'no suitable claims for user ID were found',
  emptySub: 'found an empty user ID in sub claim',
  emptyBase: (field: string) => `found an empty user ID in predefined base claim, claim: ${field}`,
  noPolicy: 'key not authorized: no matching policy found',
  unknownPolicy: 'key not authorized: no matching policy',
  noScopePolicy: 'key not authorized: no matching policy found in scope claim',
} as const;

/** A claim by name: the literal key first, then the dotted path. */
export function claimValue(claims: JWTPayload, name: string): unknown {
  if (name in claims) return claims[name];
  let value: unknown = claims;
  for (const part of name.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

export function jwtIdentity(claims: JWTPayload, identityField: string | undefined): Decision<string> {
  if (identityField) {
    const value = claimValue(claims, identityField);
    if (typeof value === 'string' && value !== '') return { ok: true, value };
    if (value === '') return { ok: false, message: JwtSessionMessages.emptyBase(identityField) };
  }
  if (typeof claims.sub === 'string') return claims.sub ? { ok: true, value: claims.sub } : { ok: false, message: JwtSessionMessages.emptySub };
  return { ok: false, message: JwtSessionMessages.noIdentity };
}

/** Tyk's virtual key id of an identity: org id + md5 hex. */
export function jwtKeyId(orgId: string, identity: string): string {
  return orgId + createHash('md5').update(identity).digest('hex');
}

/** The policy claim's value, when jwt_policy_field_name names one present in the token. */
function policyClaim(spec: JwtSpec, claims: JWTPayload): string | undefined {
  const claimed = spec.policyField ? claimValue(claims, spec.policyField) : undefined;
  return typeof claimed === 'string' && claimed !== '' ? claimed : undefined;
}

/**
 * The key id whose first policy becomes the base policy (jwt_client_base_field): the value of that claim, asked
 * for only when the policy claim gives none.
 */
export function jwtClientId(spec: JwtSpec, claims: JWTPayload): string | undefined {
  if (!spec.clientField || policyClaim(spec, claims) !== undefined) return undefined;
  const value = claimValue(claims, spec.clientField);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The policies of the identity's session; `exists` tells whether a policy id is loaded; `clientPolicy` is the
 * first policy of the key jwtClientId() named, when there is one.
 */
export function jwtPolicies(spec: JwtSpec, claims: JWTPayload, exists: (id: string) => boolean, clientPolicy?: string): Decision<string[]> {
  const claimed = policyClaim(spec, claims) ?? clientPolicy;
  const fromClaim = claimed !== undefined;
  const base = fromClaim ? [claimed] : spec.defaultPolicies;
  let policies = base;
  if (spec.scopeToPolicy.size > 0) {
    const raw = claimValue(claims, spec.scopeClaim ?? 'scope');
    const scopes =
      typeof raw === 'string' ? raw.split(' ').filter(Boolean) : Array.isArray(raw) ? raw.filter((s): s is string => typeof s === 'string') : undefined;
    if (scopes) {
      const mapped = [...new Set(scopes.map((s) => spec.scopeToPolicy.get(s)).filter((p): p is string => p !== undefined))];
      if (mapped.length === 0) return { ok: false, message: JwtSessionMessages.noScopePolicy };
      policies = [...new Set([...(fromClaim ? base : []), ...mapped])];
    }
  }
  if (policies.length === 0) return { ok: false, message: JwtSessionMessages.noPolicy };
  if (!policies.every(exists)) return { ok: false, message: JwtSessionMessages.unknownPolicy };
  return { ok: true, value: policies };
}
