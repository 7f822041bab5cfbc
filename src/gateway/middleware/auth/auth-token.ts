// Authentication token: reads the credential (credential.ts), finds its key and refuses, with Tyk's codes
// and messages: no credential 401 `Authorization field missing`; unknown key (or too short, or its only policy
// missing) 403 `Access to this API has been disallowed`; inactive key or a policy in state deny 403 `Key is
// inactive, please renew`; expired key 401 `Key has expired, please renew` (admit-key.ts). Endpoints in `ignored`
// skip it. A key made for a client certificate (`certificate`) is never accepted as a plain token. With
// validate_signature, a found key must also carry a valid request signature (token-signature.ts), else `error_code`
// (default 401) with `error_message` (default `Request signature verification failed`). With several modes on the
// API, the key is the request's session only when this mode provides it.
import type { ProxyContext, Step } from '../../pipeline/contract.ts';
import { Messages, writeError } from '../../pipeline/error-reply.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import type { ResolvedKey } from '../../session/session-cache.ts';
import { admitKey } from './admit-key.ts';
import { readCredential, type TokenAuth } from './credential.ts';
import { tokenSignatureValid } from './token-signature.ts';
import type { StepDescriptor } from '../../pipeline/step.ts';
import { providesIdentity } from './auth-modes.ts';

export function authToken(auth: TokenAuth, services: PipelineServices, providesIdentity = true): Step {
  const { hash_keys: hashKeys, min_token_length: minLength, hide_generator_header: hideGenerator } = services.config;
  const storageIds = services.storageIds;
  const refuse = (ctx: ProxyContext, status: number, message: string): true => {
    writeError(ctx.req, ctx.res, status, message, { hideGenerator });
    return true;
  };
  const signature = auth.signature;
  const check = (ctx: ProxyContext, token: string, key: ResolvedKey | undefined): boolean => {
    if (!key) return refuse(ctx, 403, Messages.keyNotAuthorised);
    // A certificate's key is public knowledge (org id + fingerprint): only its certificate presents it (certificate-key.ts).
    if (key.ok && key.effective.session.certificate) return refuse(ctx, 403, Messages.keyNotAuthorised);
    if (signature && !tokenSignatureValid(ctx.req, ctx.query, token, ctx.api.spec.orgId, signature, services.now())) {
      return refuse(ctx, signature.errorCode, signature.errorMessage);
    }
    return admitKey(ctx, key, services, providesIdentity);
  };
  return (ctx) => {
    if (ctx.ignored) return false;
    const token = readCredential(ctx.req, ctx.query, auth);
    if (!token) return refuse(ctx, 401, Messages.authMissing);
    if (token.length < minLength) return refuse(ctx, 403, Messages.keyNotAuthorised);
    if (providesIdentity) ctx.token = token;
    const resolved = services.sessions.resolve(storageIds.of(token, hashKeys));
    return resolved instanceof Promise ? resolved.then((key) => check(ctx, token, key)) : check(ctx, token, resolved);
  };
}

export const authTokenStep: StepDescriptor = {
  name: 'auth-token',
  enabledFor: (api) => api.auth.kind === 'token' && !api.tokenFromCertificate,
  build: (api, services) => ({ request: authToken(api.auth as TokenAuth, services, providesIdentity(api, 'auth_token')) }),
};
