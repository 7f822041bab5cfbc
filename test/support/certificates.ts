// Certificates for tests (a CA, leaves it issues, self-signed serving certificates), from the operator's own
// generator (src/kube/certs.ts, a small DER encoder over node:crypto). Tests of every part get them here, so a
// gateway test never imports kube/ itself (docs/architecture.md §2: the gateway and kube do not know each other).
export {
  createCertificateAuthority,
  issueServingCertificate,
  selfSignedServingCertificate,
  type CertificateAuthority,
  type ServingCertificate,
} from '../../src/kube/certs.ts';
