// Certificate material made by openssl as a user would make it, for the /gw/certs and /api/certs tests: a
// self-signed leaf with its key (also encrypted, PKCS#8 ENCRYPTED PRIVATE KEY), and a CA with a leaf it signed.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PemMaterial {
  /** A self-signed certificate (CN and DNS name `host`) and its unencrypted key. */
  cert: string;
  key: string;
  /** The same key, encrypted (`-----BEGIN ENCRYPTED PRIVATE KEY-----`). */
  encryptedKey: string;
  /** A CA certificate and a leaf it issued (a two-certificate chain: leaf, then CA). */
  caCert: string;
  issuedCert: string;
}

export function pemMaterial(host = 'pem.test'): PemMaterial {
  const dir = mkdtempSync(join(tmpdir(), 'gw-pem-'));
  const file = (name: string): string => join(dir, name);
  const openssl = (...args: string[]): void => void execFileSync('openssl', args, { stdio: 'ignore' });
  try {
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
    openssl(
      'req',
      '-x509',
      ...ec,
      '-keyout',
      file('key.pem'),
      '-out',
      file('cert.pem'),
      '-days',
      '2',
      '-subj',
      `/CN=${host}`,
      '-addext',
      `subjectAltName=DNS:${host}`,
    );
    openssl('pkcs8', '-topk8', '-in', file('key.pem'), '-out', file('encrypted.pem'), '-passout', 'pass:test-passphrase');
    openssl(
      'req',
      '-x509',
      ...ec,
      '-keyout',
      file('ca.key'),
      '-out',
      file('ca.pem'),
      '-days',
      '2',
      '-subj',
      '/CN=Test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=keyCertSign',
    );
    openssl('req', ...ec, '-keyout', file('leaf.key'), '-out', file('leaf.csr'), '-subj', `/CN=leaf.${host}`);
    openssl(
      'x509',
      '-req',
      '-in',
      file('leaf.csr'),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-out',
      file('leaf.pem'),
      '-days',
      '2',
    );
    const read = (name: string): string => readFileSync(file(name), 'utf8');
    return { cert: read('cert.pem'), key: read('key.pem'), encryptedKey: read('encrypted.pem'), caCert: read('ca.pem'), issuedCert: read('leaf.pem') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
