// Public key pinning on upstream connections: whether some certificate of the upstream's chain carries one of the
// pinned public keys (SHA-256 of its SubjectPublicKeyInfo, as Tyk compares them), and Tyk's error
// when none does. upstream-connector.ts checks it on every new TLS socket before the pool may write to it.
import { createHash, X509Certificate } from 'node:crypto';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';

/** The code forward.ts recognises to answer 502 with this error's message. */
export const PIN_MISMATCH = 'GW_UPSTREAM_PIN_MISMATCH';

export class PinMismatchError extends Error {
  readonly code = PIN_MISMATCH;
  constructor(host: string) {
    super(`https://${host} certificate public key pinning error. Public keys do not match.`);
    this.name = 'PinMismatchError';
  }
}

/** SHA-256 (base64) of a certificate's public key in SubjectPublicKeyInfo DER form. */
export function publicKeyPin(certificate: X509Certificate): string {
  return createHash('sha256')
    .update(certificate.publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64');
}

/** undefined when some certificate of the peer's chain carries a pinned key; else the error to fail with. */
export function pinMismatch(socket: TLSSocket, pins: ReadonlySet<string>, host: string): PinMismatchError | undefined {
  return chainPins(socket).some((pin) => pins.has(pin)) ? undefined : new PinMismatchError(host);
}

/** The pins of every certificate the peer presented, leaf first. */
function chainPins(socket: TLSSocket): string[] {
  const pins: string[] = [];
  const seen = new Set<DetailedPeerCertificate>();
  let certificate: DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  while (certificate?.raw && !seen.has(certificate)) {
    seen.add(certificate);
    pins.push(publicKeyPin(new X509Certificate(certificate.raw)));
    certificate = certificate.issuerCertificate;
  }
  return pins;
}
