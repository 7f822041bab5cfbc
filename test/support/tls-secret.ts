// A kubernetes.io/tls Secret manifest holding a certificate and its key (PEM), as cert-manager writes them: what the
// operator's certificate Secret references name.
import type { ServingCertificate } from './certificates.ts';

export function tlsSecret(name: string, pair: ServingCertificate): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'kubernetes.io/tls',
    metadata: { name },
    data: { 'tls.crt': Buffer.from(pair.certPem).toString('base64'), 'tls.key': Buffer.from(pair.keyPem).toString('base64') },
  };
}
