// Tyk's numeric TLS version codes (http_server_options.min_version, Go's crypto/tls constants) and the
// names node:tls takes for them. Owns only the mapping.
import type { SecureVersion } from 'node:tls';

export type TlsVersionCode = 769 | 770 | 771 | 772;

const VERSIONS: Record<TlsVersionCode, SecureVersion> = { 769: 'TLSv1', 770: 'TLSv1.1', 771: 'TLSv1.2', 772: 'TLSv1.3' };

/** 769 TLS 1.0, 770 TLS 1.1, 771 TLS 1.2, 772 TLS 1.3. */
export function tlsVersion(code: TlsVersionCode): SecureVersion {
  return VERSIONS[code];
}
