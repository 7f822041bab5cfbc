// Static client mTLS (use_mutual_tls_auth + client_certificates): the request's TLS connection must carry a client
// certificate whose SHA-256 fingerprint (the leaf or any certificate of the chain it sent) is that of a certificate
// listed by id in client_certificates, as the store holds it at the last reload (a removed certificate stops
// matching after the reload). The listener only requests the certificate (tls/server-certificates.ts); this step
// decides, always 403 with Tyk's messages (docs/compatibility.md): plain HTTP `TLS not enabled`, no
// certificate `Client TLS certificate is required`, expired `Certificate has expired`, not listed `Certificate with
// SHA256 <hex> not allowed`. Listed CA certificates are matched by fingerprint only (a certificate a listed CA
// issued is not accepted: deliberate difference, README).
import type { ProxyContext, Step } from '../../pipeline/contract.ts';
import { writeError } from '../../pipeline/error-reply.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import { certificateFingerprint, hasExpired, peerCertificate, sentChain } from './peer-certificate.ts';
import type { StepDescriptor } from '../../pipeline/step.ts';

export const ClientCertificateMessages = {
  tlsNotEnabled: 'TLS not enabled',
  required: 'Client TLS certificate is required',
  expired: 'Certificate has expired',
  notAllowed: (fingerprint: string): string => `Certificate with SHA256 ${fingerprint} not allowed`,
} as const;

export function clientCertificate(allowedIds: readonly string[], services: PipelineServices): Step {
  const hideGenerator = services.config.hide_generator_header;
  const refuse = (ctx: ProxyContext, message: string): true => {
    writeError(ctx.req, ctx.res, 403, message, { hideGenerator });
    return true;
  };
  return (ctx) => {
    const peer = peerCertificate(ctx.req);
    if (!peer.tls) return refuse(ctx, ClientCertificateMessages.tlsNotEnabled);
    if (!peer.leaf) return refuse(ctx, ClientCertificateMessages.required);
    if (hasExpired(peer.leaf, services.now())) return refuse(ctx, ClientCertificateMessages.expired);
    // Read against the certificate table as it stands now (it is swapped on /gw/certs changes without a recompile);
    // both lists are a handful long, so no set is built per request.
    for (const cert of sentChain(peer.leaf)) {
      const fingerprint = certificateFingerprint(cert);
      if (allowedIds.some((id) => services.certificates.fingerprintOf(id) === fingerprint)) return false;
    }
    return refuse(ctx, ClientCertificateMessages.notAllowed(certificateFingerprint(peer.leaf)));
  };
}

export const clientCertificateStep: StepDescriptor = {
  name: 'client-certificate',
  enabledFor: (api) => api.clientCertificates !== undefined,
  build: (api, services) => ({ request: clientCertificate(api.clientCertificates!, services) }),
};
