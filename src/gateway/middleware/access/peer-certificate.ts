// The client certificate of a request's TLS connection, as the mTLS steps read it (client-certificate.ts,
// certificate-key.ts): whether the connection is TLS at all, the leaf the client sent (if any), whether it has
// expired, and fingerprints in the form of store ids (SHA-256 of the DER, lower-case hex). Reads only.
import type { IncomingMessage } from 'node:http';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';

export type PeerCertificate = { tls: false } | { tls: true; leaf: DetailedPeerCertificate | undefined };

export function peerCertificate(req: IncomingMessage): PeerCertificate {
  const socket = req.socket as Partial<TLSSocket>;
  if (!socket.encrypted || typeof socket.getPeerCertificate !== 'function') return { tls: false };
  const leaf = socket.getPeerCertificate(true);
  return { tls: true, leaf: leaf.raw ? leaf : undefined };
}

export function hasExpired(cert: DetailedPeerCertificate, now: number): boolean {
  return Date.parse(cert.valid_to) < now;
}

/** SHA-256 of the certificate's DER, lower-case hex: the fingerprint part of a certificate store id. */
export function certificateFingerprint(cert: DetailedPeerCertificate): string {
  return cert.fingerprint256.replaceAll(':', '').toLowerCase();
}

/** The leaf, then each issuer the client sent (a self-signed certificate is its own issuer: stop there). */
export function* sentChain(leaf: DetailedPeerCertificate): Generator<DetailedPeerCertificate> {
  const seen = new Set<DetailedPeerCertificate>();
  for (let cert: DetailedPeerCertificate | undefined = leaf; cert?.raw && !seen.has(cert); cert = cert.issuerCertificate) {
    seen.add(cert);
    yield cert;
  }
}
