// HMAC request signing (enable_signature_checking): the credential (auth_configs.hmac, default Authorization) is
// `Signature keyId="..",algorithm="..",headers="..",signature=".."` (credentials/http-signature.ts). The key named
// by keyId must be hmac_enabled with an hmac_string; the signature must be the HMAC of the listed headers with
// that secret, the algorithm allowed (hmac_allowed_algorithms), the Date (or X-Aux-Date) parsable and, when
// hmac_allowed_clock_skew > 0, within that many milliseconds of now. Every refusal is Tyk's single
// 400 `Authorization field missing, malformed or invalid`; then the key is admitted like a token's (admit-key.ts).
import type { HmacSpec } from '../../definition/api-spec.ts';
import type { ProxyContext, Step } from '../../pipeline/contract.ts';
import { writeError } from '../../pipeline/error-reply.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import type { ResolvedKey } from '../../session/session-cache.ts';
import {
  dateHeader,
  digestOf,
  expectedSignature,
  parseSignatureDate,
  parseSignatureHeader,
  signatureMatches,
  signingString,
  type SignatureFields,
} from '../../credentials/http-signature.ts';
import { admitKey } from './admit-key.ts';
import { readCredential } from './credential.ts';
import type { StepDescriptor } from '../../pipeline/step.ts';
import { providesIdentity } from './auth-modes.ts';

export const HMAC_REFUSAL = 'Authorization field missing, malformed or invalid';

export function hmacAuth(spec: HmacSpec, services: PipelineServices, providesIdentity: boolean): Step {
  const { hash_keys: hashKeys, hide_generator_header: hideGenerator } = services.config;
  const allowed = new Set<string>(spec.allowedAlgorithms);
  const refuse = (ctx: ProxyContext): true => {
    writeError(ctx.req, ctx.res, 400, HMAC_REFUSAL, { hideGenerator });
    return true;
  };
  const verify = (ctx: ProxyContext, fields: SignatureFields, key: ResolvedKey | undefined): boolean => {
    if (!key) return refuse(ctx);
    if (!key.ok) return admitKey(ctx, key, services, providesIdentity); // its policies fail: admitKey refuses
    const session = key.effective.session;
    if (!session.hmac_enabled || !session.hmac_string) return refuse(ctx);
    const expected = expectedSignature(session.hmac_string, digestOf(fields.algorithm), signingString(ctx.req, fields.headers));
    if (!signatureMatches(fields.signature, expected)) return refuse(ctx);
    const date = parseSignatureDate(dateHeader(ctx.req));
    if (date === undefined) return refuse(ctx);
    if (spec.allowedClockSkewMs > 0 && Math.abs(services.now() - date) > spec.allowedClockSkewMs) return refuse(ctx);
    if (providesIdentity) ctx.token = fields.keyId;
    return admitKey(ctx, key, services, providesIdentity);
  };
  return (ctx) => {
    if (ctx.ignored) return false;
    const header = readCredential(ctx.req, ctx.query, spec.credential);
    const fields = header ? parseSignatureHeader(header) : undefined;
    if (!fields) return refuse(ctx);
    if (allowed.size > 0 && !allowed.has(fields.algorithm)) return refuse(ctx);
    const found = services.sessions.resolve(services.storageIds.of(fields.keyId, hashKeys));
    return found instanceof Promise ? found.then((key) => verify(ctx, fields, key)) : verify(ctx, fields, found);
  };
}

export const hmacAuthStep: StepDescriptor = {
  name: 'hmac-auth',
  enabledFor: (api) => api.hmac !== undefined,
  build: (api, services) => ({ request: hmacAuth(api.hmac!, services, providesIdentity(api, 'hmac_key')) }),
};
