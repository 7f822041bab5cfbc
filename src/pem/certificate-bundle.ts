// The one reader of uploaded certificate bodies (PEM) for the gateway's /gw/certs and the dashboard's /api/certs.
// It lives in its own leaf module, not in api/ (the data model: zod only, no node:crypto) nor in either service
// (DESIGN §2: gateway and dashboard never import each other); like config/ and http/ it imports nothing of ours.
//
// What a body may be: a certificate chain in PEM, that is, one or more CERTIFICATE blocks, the leaf first and each
// following certificate the issuer of the one before it (intermediates), plus optionally ONE private key (PRIVATE
// KEY, RSA PRIVATE KEY, EC PRIVATE KEY or ENCRYPTED PRIVATE KEY) before or after the certificates. Every block is
// decoded: certificates by node:crypto X509Certificate, an unencrypted key by createPrivateKey and it must belong to
// the leaf; an encrypted key must be a well-formed encrypted PKCS#8 key (it cannot be opened without its
// passphrase). Anything else is a PemError naming the problem: text outside the blocks, another kind of block, a
// block that does not decode, a second key, a chain out of order. The bundle's `pem` is exactly the blocks that
// were checked, in their order, one after the other: what a service stores, so what it serves later parses again.
// Never logs or returns key material.
import { createPrivateKey, randomBytes, X509Certificate } from 'node:crypto';

export type PemProblem =
  'no_certificate' | 'outside_blocks' | 'unexpected_block' | 'bad_certificate' | 'bad_key' | 'second_key' | 'key_mismatch' | 'chain_order';

export class PemError extends Error {
  override readonly name = 'PemError';
  readonly problem: PemProblem;
  constructor(problem: PemProblem, message: string) {
    super(message);
    this.problem = problem;
  }
}

export interface CertificateBundle {
  /** The leaf (first) certificate. */
  leaf: X509Certificate;
  /** The certificates after the leaf, each the issuer of the one before. */
  intermediates: X509Certificate[];
  /** Whether a private key came with the chain. */
  hasPrivateKey: boolean;
  /** The leaf's SHA-256 fingerprint, lower-case hex without colons. */
  fingerprint: string;
  /** The checked blocks, in their order, newline-terminated: the text to store. */
  pem: string;
}

/** What the services answer about a stored certificate (never the key). */
export interface CertificateMetadata {
  fingerprint: string;
  has_private: boolean;
  issuer: string;
  subject: string;
  not_before: string;
  not_after: string;
  dns_names: string[];
  is_ca: boolean;
  /** Intermediates stored after the leaf. */
  chain_length: number;
}

const KEY_LABELS = new Set(['PRIVATE KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY', 'ENCRYPTED PRIVATE KEY']);
const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([A-Za-z0-9+/=\s:,-]*?)-----END \1-----/g;

/** Reads an uploaded body; throws PemError naming the first problem. */
export function parseCertificateBundle(text: string): CertificateBundle {
  const certificates: X509Certificate[] = [];
  const blocks: string[] = [];
  let key: { label: string; text: string } | undefined;
  let last = 0;
  for (const match of text.matchAll(BLOCK)) {
    refuseOutside(text, last, match.index);
    last = match.index + match[0].length;
    const [block, label] = [match[0].replaceAll('\r\n', '\n'), match[1]!];
    const position = blocks.length + 1;
    if (label === 'CERTIFICATE') {
      certificates.push(decodeCertificate(block, position));
    } else if (KEY_LABELS.has(label)) {
      if (key) throw new PemError('second_key', `block ${position} is a second private key: a body holds at most one (the leaf certificate's)`);
      checkKey(block, label, position);
      key = { label, text: block };
    } else {
      throw new PemError(
        'unexpected_block',
        `block ${position} is a ${label}: a body holds CERTIFICATE blocks (leaf first, then its issuers) and at most one private key`,
      );
    }
    blocks.push(block);
  }
  refuseOutside(text, last, text.length);
  const [leaf, ...intermediates] = certificates;
  if (!leaf) throw new PemError('no_certificate', 'the body must hold a PEM certificate (-----BEGIN CERTIFICATE-----)');
  for (let i = 0; i < certificates.length - 1; i++) {
    if (!certificates[i]!.checkIssued(certificates[i + 1]!)) {
      throw new PemError('chain_order', `certificate ${i + 2} did not issue certificate ${i + 1}: a chain lists the leaf first, then each issuer in turn`);
    }
  }
  if (key && key.label !== 'ENCRYPTED PRIVATE KEY' && !leaf.checkPrivateKey(createPrivateKey(key.text))) {
    throw new PemError('key_mismatch', 'the private key does not belong to the (first) certificate');
  }
  return { leaf, intermediates, hasPrivateKey: key !== undefined, fingerprint: fingerprintOf(leaf), pem: `${blocks.join('\n')}\n` };
}

/**
 * Metadata of a stored body. Bodies stored before this reader existed were checked on their first certificate
 * only and may carry anything after it: those are described from that first certificate and its body's
 * key marker, so reading them never fails.
 */
export function certificateMetadata(pem: string): CertificateMetadata {
  let bundle: Pick<CertificateBundle, 'leaf' | 'intermediates' | 'hasPrivateKey' | 'fingerprint'>;
  try {
    bundle = parseCertificateBundle(pem);
  } catch (error) {
    if (!(error instanceof PemError)) throw error;
    const leaf = new X509Certificate(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(pem)![0]);
    bundle = { leaf, intermediates: [], hasPrivateKey: /-----BEGIN (RSA |EC |ENCRYPTED )?PRIVATE KEY-----/.test(pem), fingerprint: fingerprintOf(leaf) };
  }
  const cert = bundle.leaf;
  return {
    fingerprint: bundle.fingerprint,
    has_private: bundle.hasPrivateKey,
    issuer: cert.issuer,
    subject: cert.subject,
    not_before: new Date(cert.validFrom).toISOString(),
    not_after: new Date(cert.validTo).toISOString(),
    dns_names: (cert.subjectAltName ?? '')
      .split(', ')
      .filter((n) => n.startsWith('DNS:'))
      .map((n) => n.slice(4)),
    is_ca: cert.ca,
    chain_length: bundle.intermediates.length,
  };
}

function fingerprintOf(cert: X509Certificate): string {
  return cert.fingerprint256.replaceAll(':', '').toLowerCase();
}

function refuseOutside(text: string, from: number, to: number): void {
  const between = text.slice(from, to);
  if (between.trim() === '') return;
  const line = text.slice(0, from + between.search(/\S/)).split('\n').length;
  throw new PemError('outside_blocks', `line ${line} is outside any PEM block: the body must be PEM blocks only (-----BEGIN ...----- to -----END ...-----)`);
}

function decodeCertificate(block: string, position: number): X509Certificate {
  try {
    return new X509Certificate(block);
  } catch (error) {
    throw new PemError('bad_certificate', `block ${position} (CERTIFICATE) does not parse: ${(error as Error).message}`);
  }
}

function checkKey(block: string, label: string, position: number): void {
  const encrypted = label === 'ENCRYPTED PRIVATE KEY';
  try {
    // A passphrase nobody chose: a well-formed encrypted key then fails only at decryption.
    createPrivateKey(encrypted ? { key: block, passphrase: randomBytes(32).toString('hex') } : block);
  } catch (error) {
    if (encrypted && (error as { code?: string }).code === 'ERR_OSSL_BAD_DECRYPT') return;
    throw new PemError('bad_key', `block ${position} (${label}) does not parse as a private key`);
  }
  if (encrypted) throw new PemError('bad_key', `block ${position} (${label}) is not encrypted`);
}
