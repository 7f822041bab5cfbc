// JWT authentication (enable_jwt / OAS bearer JWT): reads the token (auth_configs.jwt, `Bearer ` stripped),
// verifies it (credentials/jwt-verify.ts), checks an OAS scheme's claims (credentials/jwt-claims.ts: iss, aud, jti,
// sub; 401), derives the identity's session from its policies (credentials/jwt-session.ts; with
// jwt_client_base_field the named key's first policy, read from the store once per verification) and admits it
// like a token's key (admit-key.ts), so access rights, rate limit and
// quota apply exactly as for tokens, counted per identity. Claims become context variables `jwt_claims_<name>`.
// A token verified in the last minute is not verified again (its exp/iat/nbf are: see below), unless the JWKS cache
// was flushed since (DELETE /gw/cache/jwks: keys rotated or revoked).
// Refusals (docs/compatibility.md): no token 400 `Authorization field missing`; bad token, signature or kid 403
// `Key not authorized`; wrong algorithm 403 `Key not authorized: Unexpected signing method`; exp/iat/nbf 401;
// identity or policy problems 403 with Tyk's message.
import type { JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Session } from '../../../domain/session.ts';
import type { JwtSpec } from '../../definition/api-spec.ts';
import { JwtVerifier } from '../../credentials/jwt-verify.ts';
import { claimCheckProblem } from '../../credentials/jwt-claims.ts';
import { jwtClientId, jwtIdentity, jwtKeyId, jwtPolicies } from '../../credentials/jwt-session.ts';
import { policyIdsOf } from '../../session/apply-policies.ts';
import { isOrganisationSessionId } from '../../session/keys.ts';
import type { ProxyContext, Step } from '../../pipeline/contract.ts';
import { Messages, writeError } from '../../pipeline/error-reply.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import { admitKey } from './admit-key.ts';
import { readCredential } from './credential.ts';
import type { StepDescriptor } from '../../pipeline/step.ts';
import { providesIdentity } from './auth-modes.ts';

/** Tokens whose signature, identity and policies were checked, kept this long (and at most this many). */
const VERIFIED_TTL_MS = 60_000;
const VERIFIED_MAX = 10_000;

interface VerifiedToken {
  until: number;
  /** services.jwks.flushes when it was verified: a JWKS flush since then means verifying it again. */
  flushes: number;
  claims: JWTPayload;
  keyId: string;
  storageId: string;
  session: Session;
  variables: Record<string, unknown>;
}

export function jwtAuth(spec: JwtSpec, orgId: string, services: PipelineServices, providesIdentity: boolean): Step {
  const { hash_keys: hashKeys, hide_generator_header: hideGenerator } = services.config;
  const verifier = new JwtVerifier(spec, services.jwks, () => services.now());
  const exists = (id: string): boolean => services.sessions.hasPolicy(id);
  // Signature checks cost far more than the rest of the request: a token seen again within VERIFIED_TTL_MS skips
  // them (and the identity and policy choice), never the exp/iat/nbf checks. The cache belongs to this compiled
  // API, so a reload (new policies, a new jwt_source) starts it afresh. lru-cache bounds it (least recently used
  // first out); the expiry stays the entry's own `until` on the pipeline's clock (services.now), as lru-cache's TTL
  // runs on its own clock.
  const verified = new LRUCache<string, VerifiedToken>({ max: VERIFIED_MAX });
  const refuse = (ctx: ProxyContext, status: number, message: string): true => {
    writeError(ctx.req, ctx.res, status, message, { hideGenerator });
    return true;
  };
  const admit = (ctx: ProxyContext, token: VerifiedToken): boolean => {
    const late = verifier.timeProblem(token.claims);
    if (late) return refuse(ctx, 401, late);
    if (admitKey(ctx, services.sessions.derive(token.storageId, token.session), services, providesIdentity)) return true;
    ctx.variables = ctx.variables ? Object.assign(ctx.variables, token.variables) : { ...token.variables };
    if (providesIdentity) ctx.token = token.keyId;
    return false;
  };
  const verifyAndAdmit = async (ctx: ProxyContext, raw: string): Promise<boolean> => {
    const flushes = services.jwks.flushes;
    const outcome = await verifier.verify(raw);
    if (!outcome.ok) return refuse(ctx, outcome.status, outcome.message);
    const claims = outcome.claims;
    const claimProblem = spec.claimChecks && claimCheckProblem(spec.claimChecks, claims, spec.identityField);
    if (claimProblem) return refuse(ctx, 401, claimProblem);
    const identity = jwtIdentity(claims, spec.identityField);
    if (!identity.ok) return refuse(ctx, 403, identity.message);
    const clientId = jwtClientId(spec, claims);
    const clientStorageId = clientId === undefined ? undefined : services.storageIds.of(clientId, hashKeys);
    const client = clientStorageId === undefined || isOrganisationSessionId(clientStorageId) ? undefined : await services.store.getKey(clientStorageId);
    const policies = jwtPolicies(spec, claims, exists, client ? policyIdsOf(client)[0] : undefined);
    if (!policies.ok) return refuse(ctx, 403, policies.message);
    const keyId = jwtKeyId(orgId, identity.value);
    const variables: Record<string, unknown> = {};
    for (const name in claims) variables[`jwt_claims_${name}`] = claims[name];
    const token: VerifiedToken = {
      until: services.now() + VERIFIED_TTL_MS,
      flushes,
      claims,
      keyId,
      storageId: services.storageIds.of(keyId, hashKeys),
      session: { org_id: orgId, apply_policies: policies.value, alias: identity.value, meta_data: { TykJWTSessionID: keyId } },
      variables,
    };
    verified.set(raw, token);
    return admit(ctx, token);
  };
  return (ctx) => {
    if (ctx.ignored) return false;
    const raw = readCredential(ctx.req, ctx.query, spec.credential);
    if (!raw) return refuse(ctx, 400, Messages.authMissing);
    const known = verified.get(raw);
    if (known && known.until > services.now() && known.flushes === services.jwks.flushes) return admit(ctx, known);
    return verifyAndAdmit(ctx, raw);
  };
}

export const jwtAuthStep: StepDescriptor = {
  name: 'jwt-auth',
  enabledFor: (api) => api.jwt !== undefined,
  build: (api, services) => ({ request: jwtAuth(api.jwt!, api.orgId, services, providesIdentity(api, 'jwt_claim')) }),
};
