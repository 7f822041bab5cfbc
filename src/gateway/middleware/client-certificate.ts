// Static client mTLS (use_mutual_tls_auth + client_certificates): the request's TLS connection must carry a client
// certificate whose SHA-256 fingerprint (the leaf or any certificate of the chain it sent) is that of a certificate
// listed by id in client_certificates, as the store holds it at the last reload (a removed certificate stops
// matching after the reload). The listener only requests the certificate (tls/server-certificates.ts); this step
// decides, always 403 with the anchor's messages (reference/auth.md §3): plain HTTP `TLS not enabled`, no
// certificate `Client TLS certificate is required`, expired `Certificate has expired`, not listed `Certificate with
// SHA256 <hex> not allowed`. Listed CA certificates are matched by fingerprint only (a certificate a listed CA
// issued is not accepted: deliberate difference, README).
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import type { ProxyContext, Step } from '../pipeline/contract.ts';
import { writeError } from '../pipeline/error-reply.ts';
import type { PipelineServices } from '../pipeline/services.ts';

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
    const socket = ctx.req.socket as Partial<TLSSocket>;
    if (!socket.encrypted || typeof socket.getPeerCertificate !== 'function') return refuse(ctx, ClientCertificateMessages.tlsNotEnabled);
    const leaf = socket.getPeerCertificate(true);
    if (!leaf.raw) return refuse(ctx, ClientCertificateMessages.required);
    if (Date.parse(leaf.valid_to) < services.now()) return refuse(ctx, ClientCertificateMessages.expired);
    const allowed = new Set(allowedIds.map((id) => services.certificates.fingerprintOf(id)));
    for (const cert of chain(leaf)) if (allowed.has(fingerprint(cert))) return false;
    return refuse(ctx, ClientCertificateMessages.notAllowed(fingerprint(leaf)));
  };
}

/** The leaf, then each issuer the client sent (a self-signed certificate is its own issuer: stop there). */
function* chain(leaf: DetailedPeerCertificate): Generator<DetailedPeerCertificate> {
  const seen = new Set<DetailedPeerCertificate>();
  for (let cert: DetailedPeerCertificate | undefined = leaf; cert?.raw && !seen.has(cert); cert = cert.issuerCertificate) {
    seen.add(cert);
    yield cert;
  }
}

function fingerprint(cert: DetailedPeerCertificate): string {
  return cert.fingerprint256.replaceAll(':', '').toLowerCase();
}
