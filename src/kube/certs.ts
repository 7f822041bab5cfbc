// Self-signed X.509 certificates for serving TLS inside a cluster (admission webhooks, tests): a certificate
// authority and serving certificates it signs, with ECDSA P-256 keys. Node's crypto makes keys, signs and parses
// certificates but cannot create one, and the operator must not depend on openssl being installed or pull a
// whole ASN.1/PKI library for one structure; so this file holds the small DER encoder RFC 5280 needs (TBSCertificate
// v3 with the extensions a serving certificate needs: basicConstraints, keyUsage, extKeyUsage, subjectAltName,
// subject/authority key identifiers). It never parses certificates (crypto.X509Certificate does) and never writes
// files: callers decide where PEM goes.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';

export interface CertificateAuthority {
  /** The CA certificate (PEM): what clients trust, e.g. a webhook's caBundle. */
  certPem: string;
  /** Its PKCS#8 private key (PEM). */
  keyPem: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  commonName: string;
  /** DER of the CA's subject Name: the issuer of every certificate it signs. */
  subject: Buffer;
  /** subjectKeyIdentifier of the CA: the authorityKeyIdentifier of every certificate it signs. */
  keyId: Buffer;
}

export interface ServingCertificate {
  /** Leaf certificate (PEM). */
  certPem: string;
  /** Its PKCS#8 private key (PEM). */
  keyPem: string;
}

export interface CertificateAuthorityOptions {
  commonName: string;
  /** Validity in days from now (default 365); notBefore is one hour in the past to tolerate clock skew. */
  days?: number;
}

export interface ServingCertificateOptions {
  commonName: string;
  /** DNS subjectAltNames, e.g. gw-webhook.gw-operator-system.svc. */
  dnsNames?: string[];
  /** IP subjectAltNames, IPv4 or IPv6, e.g. 127.0.0.1 or ::1. */
  ipAddresses?: string[];
  /** Validity in days from now (default 365). */
  days?: number;
}

const DEFAULT_DAYS = 365;
const CLOCK_SKEW_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

// Object identifiers.
const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
};

// keyUsage bits (RFC 5280 4.2.1.3), numbered from the most significant bit of the first byte.
const KEY_USAGE = { digitalSignature: 0, keyCertSign: 5, cRLSign: 6 };

export function createCertificateAuthority(options: CertificateAuthorityOptions): CertificateAuthority {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const subject = name(options.commonName);
  const keyId = keyIdentifier(publicKey);
  const extensions = [
    extension(OID.basicConstraints, true, sequence(boolean(true))),
    extension(OID.keyUsage, true, keyUsage([KEY_USAGE.digitalSignature, KEY_USAGE.keyCertSign, KEY_USAGE.cRLSign])),
    extension(OID.subjectKeyIdentifier, false, octetString(keyId)),
  ];
  const der = certificate({ issuer: subject, subject, publicKey, signer: privateKey, days: options.days, extensions });
  return {
    certPem: pem('CERTIFICATE', der),
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    privateKey,
    publicKey,
    commonName: options.commonName,
    subject,
    keyId,
  };
}

/** A serving (TLS server) certificate for the given names, signed by `ca`. */
export function issueServingCertificate(ca: CertificateAuthority, options: ServingCertificateOptions): ServingCertificate {
  const dnsNames = options.dnsNames ?? [];
  const ipAddresses = options.ipAddresses ?? [];
  if (dnsNames.length + ipAddresses.length === 0) throw new Error('a serving certificate needs at least one DNS name or IP address');
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const extensions = [
    extension(OID.basicConstraints, true, sequence()),
    extension(OID.keyUsage, true, keyUsage([KEY_USAGE.digitalSignature])),
    extension(OID.extKeyUsage, false, sequence(oid(OID.serverAuth))),
    extension(OID.subjectAltName, false, sequence(...dnsNames.map(dnsName), ...ipAddresses.map(ipAddress))),
    extension(OID.subjectKeyIdentifier, false, octetString(keyIdentifier(publicKey))),
    extension(OID.authorityKeyIdentifier, false, sequence(tagged(0x80, ca.keyId))),
  ];
  const der = certificate({ issuer: ca.subject, subject: name(options.commonName), publicKey, signer: ca.privateKey, days: options.days, extensions });
  return { certPem: pem('CERTIFICATE', der), keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string };
}

/** A fresh CA and a serving certificate it signed, in one call; `caPem` is what clients must trust. */
export function selfSignedServingCertificate(options: ServingCertificateOptions): ServingCertificate & { caPem: string } {
  const ca = createCertificateAuthority({ commonName: `${options.commonName} CA`, ...(options.days !== undefined ? { days: options.days } : {}) });
  return { ...issueServingCertificate(ca, options), caPem: ca.certPem };
}

interface CertificateParts {
  issuer: Buffer;
  subject: Buffer;
  publicKey: KeyObject;
  signer: KeyObject;
  days: number | undefined;
  extensions: Buffer[];
}

function certificate(parts: CertificateParts): Buffer {
  const days = parts.days ?? DEFAULT_DAYS;
  if (!(days > 0)) throw new Error(`certificate validity must be a positive number of days, got ${days}`);
  const now = Date.now();
  const algorithm = sequence(oid(OID.ecdsaWithSha256));
  const tbs = sequence(
    tagged(0xa0, integer(Buffer.from([2]))), // version v3
    integer(serialNumber()),
    algorithm,
    parts.issuer,
    sequence(time(new Date(now - CLOCK_SKEW_MS)), time(new Date(now + days * DAY_MS))),
    parts.subject,
    parts.publicKey.export({ type: 'spki', format: 'der' }),
    tagged(0xa3, sequence(...parts.extensions)),
  );
  const signature = sign('sha256', tbs, { key: parts.signer, dsaEncoding: 'der' });
  return sequence(tbs, algorithm, bitString(signature));
}

/** 16 random bytes, positive, and minimal in DER (the top byte is never 0 and never has its sign bit set). */
function serialNumber(): Buffer {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x40;
  return bytes;
}

/** RFC 5280 4.2.1.2 method 1: SHA-1 of the subjectPublicKey bits (the uncompressed EC point 04 || x || y). */
function keyIdentifier(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
  return createHash('sha1').update(point).digest();
}

function name(commonName: string): Buffer {
  return sequence(set(sequence(oid(OID.commonName), tlv(0x0c, Buffer.from(commonName, 'utf8')))));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? sequence(oid(id), boolean(true), octetString(value)) : sequence(oid(id), octetString(value));
}

/** A named bit list in DER: trailing zero bits dropped, their count in the leading byte. */
function keyUsage(bits: number[]): Buffer {
  const highest = Math.max(...bits);
  const bytes = Buffer.alloc(Math.floor(highest / 8) + 1);
  for (const bit of bits) bytes[bit >> 3]! |= 0x80 >> (bit & 7);
  return tlv(0x03, Buffer.concat([Buffer.from([7 - (highest & 7)]), bytes]));
}

function dnsName(value: string): Buffer {
  if (!/^[\x21-\x7e]+$/.test(value)) throw new Error(`not a DNS name: ${JSON.stringify(value)}`);
  return tagged(0x82, Buffer.from(value, 'ascii')); // [2] IMPLICIT IA5String
}

function ipAddress(value: string): Buffer {
  return tagged(0x87, ipBytes(value)); // [7] IMPLICIT OCTET STRING
}

function ipBytes(value: string): Buffer {
  const family = isIP(value);
  if (family === 4) return Buffer.from(value.split('.').map(Number));
  if (family !== 6) throw new Error(`not an IP address: ${JSON.stringify(value)}`);
  let text = value.split('%')[0]!; // a zone id (fe80::1%eth0) is not part of the address
  let tail: number[] = [];
  const dotted = /:(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    // ::ffff:1.2.3.4 — the last 32 bits written as IPv4: two more 16-bit groups.
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    tail = [(a << 8) | b, (c << 8) | d];
    text = text.slice(0, dotted.index + 1);
    if (!text.endsWith('::')) text = text.slice(0, -1);
  }
  const halves = text.split('::');
  const groups = (part: string | undefined): number[] => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const head = groups(halves[0]);
  const rest = groups(halves[1]);
  const zeros = halves.length > 1 ? 8 - head.length - rest.length - tail.length : 0;
  const words = [...head, ...new Array<number>(zeros).fill(0), ...rest, ...tail];
  const bytes = Buffer.alloc(16);
  words.forEach((word, index) => bytes.writeUInt16BE(word, index * 2));
  return bytes;
}

/** UTCTime through 2049, GeneralizedTime from 2050 (RFC 5280 4.1.2.5). */
function time(date: Date): Buffer {
  const iso = date.toISOString(); // 2026-01-02T03:04:05.678Z
  const digits = iso.slice(0, 19).replace(/[-T:]/g, '') + 'Z'; // 20260102030405Z
  return date.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(digits.slice(2), 'ascii')) : tlv(0x18, Buffer.from(digits, 'ascii'));
}

// DER primitives.

function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), length(content.length), content]);
}

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function sequence(...items: Buffer[]): Buffer {
  return tlv(0x30, Buffer.concat(items));
}

function set(...items: Buffer[]): Buffer {
  return tlv(0x31, Buffer.concat(items));
}

function tagged(tag: number, content: Buffer): Buffer {
  return tlv(tag, content);
}

function boolean(value: boolean): Buffer {
  return tlv(0x01, Buffer.from([value ? 0xff : 0]));
}

/** A non-negative INTEGER from big-endian magnitude bytes (a leading 0 added when the sign bit is set). */
function integer(magnitude: Buffer): Buffer {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const trimmed = magnitude.subarray(start);
  return tlv(0x02, trimmed[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

function octetString(content: Buffer): Buffer {
  return tlv(0x04, content);
}

function bitString(content: Buffer): Buffer {
  return tlv(0x03, Buffer.concat([Buffer.from([0]), content]));
}

function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  const bytes: number[] = [arcs[0]! * 40 + arcs[1]!];
  for (const arc of arcs.slice(2)) {
    const chunk: number[] = [arc & 0x7f];
    for (let rest = Math.floor(arc / 128); rest > 0; rest = Math.floor(rest / 128)) chunk.unshift((rest & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function pem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
