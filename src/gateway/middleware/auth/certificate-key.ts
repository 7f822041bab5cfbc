// Keys derived from the client certificate (auth_configs.authToken.use_certificate): the request's key is
// <org_id><certificate id>, certificate id = <org_id><SHA-256 hex of the leaf> (docs/compatibility.md), made by
// POST /gw/keys/create with `certificate`. The header is not read. Refusals, Tyk's: no client certificate
// 401 `Client certificate required`; expired leaf 403 `Certificate has expired`; the certificate no longer in the
// store (as of the last reload) 403 `Access to this API has been disallowed`; no key for it 401 with the same
// message. A found key is admitted like a token's (admit-key.ts). Endpoints in `ignored` skip it.
import type { ProxyContext, Step } from '../../pipeline/contract.ts';
import { Messages, writeError } from '../../pipeline/error-reply.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import type { ResolvedKey } from '../../session/session-cache.ts';
import { certificateKey as keyOfCertificate } from '../../session/keys.ts';
import { admitKey } from './admit-key.ts';
import { ClientCertificateMessages } from '../access/client-certificate.ts';
import { certificateFingerprint, hasExpired, peerCertificate } from '../access/peer-certificate.ts';
import type { StepDescriptor } from '../../pipeline/step.ts';
import { providesIdentity } from './auth-modes.ts';

export const CertificateKeyMessages = { required: 'Client certificate required' } as const;

export function certificateKey(orgId: string, services: PipelineServices, providesIdentity: boolean): Step {
  const { hash_keys: hashKeys, hide_generator_header: hideGenerator } = services.config;
  const refuse = (ctx: ProxyContext, status: number, message: string): true => {
    writeError(ctx.req, ctx.res, status, message, { hideGenerator });
    return true;
  };
  const check = (ctx: ProxyContext, key: ResolvedKey | undefined): boolean => {
    if (!key) return refuse(ctx, 401, Messages.keyNotAuthorised);
    return admitKey(ctx, key, services, providesIdentity);
  };
  return (ctx) => {
    if (ctx.ignored) return false;
    const peer = peerCertificate(ctx.req);
    if (!peer.tls || !peer.leaf) return refuse(ctx, 401, CertificateKeyMessages.required);
    if (hasExpired(peer.leaf, services.now())) return refuse(ctx, 403, ClientCertificateMessages.expired);
    const certificateId = `${orgId}${certificateFingerprint(peer.leaf)}`;
    if (services.certificates.fingerprintOf(certificateId) === undefined) return refuse(ctx, 403, Messages.keyNotAuthorised);
    const token = keyOfCertificate(orgId, certificateId);
    if (providesIdentity) ctx.token = token;
    const resolved = services.sessions.resolve(services.storageIds.of(token, hashKeys));
    return resolved instanceof Promise ? resolved.then((key) => check(ctx, key)) : check(ctx, resolved);
  };
}

/** The token mode when the key comes from the client certificate (auth_configs.authToken.use_certificate). */
export const certificateKeyStep: StepDescriptor = {
  name: 'certificate-key',
  enabledFor: (api) => api.auth.kind === 'token' && api.tokenFromCertificate === true,
  build: (api, services) => ({ request: certificateKey(api.orgId, services, providesIdentity(api, 'auth_token')) }),
};
