// JWT authentication (enable_jwt / OAS bearer JWT): reads the token (auth_configs.jwt, `Bearer ` stripped),
// verifies it (credentials/jwt-verify.ts), derives the identity's session from its policies
// (credentials/jwt-session.ts) and admits it like a token's key (admit-key.ts), so access rights, rate limit and
// quota apply exactly as for tokens, counted per identity. Claims become context variables `jwt_claims_<name>`.
// Refusals (reference/auth.md §1): no token 400 `Authorization field missing`; bad token, signature or kid 403
// `Key not authorized`; wrong algorithm 403 `Key not authorized: Unexpected signing method`; exp/iat/nbf 401;
// identity or policy problems 403 with the anchor's message.
import type { JwtSpec } from '../definition/api-spec.ts';
import { JwtVerifier } from '../credentials/jwt-verify.ts';
import { jwtIdentity, jwtKeyId, jwtPolicies } from '../credentials/jwt-session.ts';
import type { ProxyContext, Step } from '../pipeline/contract.ts';
import { Messages, writeError } from '../pipeline/error-reply.ts';
import type { PipelineServices } from '../pipeline/services.ts';
import { admitKey } from './admit-key.ts';
import { readCredential } from './credential.ts';

export function jwtAuth(spec: JwtSpec, orgId: string, services: PipelineServices, providesIdentity: boolean): Step {
  const { hash_keys: hashKeys, hide_generator_header: hideGenerator } = services.config;
  const verifier = new JwtVerifier(spec, services.jwks, () => services.now());
  const exists = (id: string): boolean => services.sessions.hasPolicy(id);
  const refuse = (ctx: ProxyContext, status: number, message: string): true => {
    writeError(ctx.req, ctx.res, status, message, { hideGenerator });
    return true;
  };
  return async (ctx) => {
    if (ctx.ignored) return false;
    const token = readCredential(ctx.req, ctx.query, spec.credential);
    if (!token) return refuse(ctx, 400, Messages.authMissing);
    const verified = await verifier.verify(token);
    if (!verified.ok) return refuse(ctx, verified.status, verified.message);
    const claims = verified.claims;
    const identity = jwtIdentity(claims, spec.identityField);
    if (!identity.ok) return refuse(ctx, 403, identity.message);
    const policies = jwtPolicies(spec, claims, exists);
    if (!policies.ok) return refuse(ctx, 403, policies.message);
    const keyId = jwtKeyId(orgId, identity.value);
    const key = services.sessions.derive(services.storageIds.of(keyId, hashKeys), {
      org_id: orgId,
      apply_policies: policies.value,
      alias: identity.value,
      meta_data: { TykJWTSessionID: keyId },
    });
    if (admitKey(ctx, key, services, providesIdentity)) return true;
    const variables: Record<string, unknown> = ctx.variables ?? {};
    for (const name in claims) variables[`jwt_claims_${name}`] = claims[name];
    ctx.variables = variables;
    if (providesIdentity) ctx.token = keyId;
    return false;
  };
}
