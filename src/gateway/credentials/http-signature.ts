// HTTP Signatures as Tyk reads and verifies them (docs/compatibility.md): the header value
// `Signature keyId="..",algorithm="..",headers="..",signature=".."` parsed, the signing string built from the
// listed headers, and the HMAC computed and compared. Pure functions: no I/O, no logging of secrets.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HMAC_ALGORITHMS, type HmacAlgorithm } from '../../domain/http-signature.ts';

export interface SignatureFields {
  keyId: string;
  algorithm: string;
  /** Lower-case header names, in signing order; `date` when the header does not say. */
  headers: string[];
  signature: string;
}

const FIELDS = new Set(['keyId', 'algorithm', 'headers', 'signature']);
const DIGESTS: Record<HmacAlgorithm, string> = { 'hmac-sha1': 'sha1', 'hmac-sha256': 'sha256', 'hmac-sha384': 'sha384', 'hmac-sha512': 'sha512' };

/** undefined when malformed (an unknown field, a value not in quotes, no keyId or signature). */
export function parseSignatureHeader(value: string): SignatureFields | undefined {
  const rest = value.replace(/^\s*[Ss]ignature\s+/, '');
  const fields = new Map<string, string>();
  for (const part of rest.split(',')) {
    const match = /^\s*([A-Za-z]+)="([^"]*)"\s*$/.exec(part);
    if (!match || !FIELDS.has(match[1]!) || fields.has(match[1]!)) return undefined;
    fields.set(match[1]!, match[2]!);
  }
  const keyId = fields.get('keyId');
  const signature = fields.get('signature');
  if (!keyId || !signature) return undefined;
  const headers = (fields.get('headers') || 'date').toLowerCase().split(' ').filter(Boolean);
  return { keyId, algorithm: (fields.get('algorithm') ?? '').toLowerCase(), headers, signature };
}

/** Tyk treats every name it does not know as hmac-sha1. */
export function digestOf(algorithm: string): string {
  return (HMAC_ALGORITHMS as readonly string[]).includes(algorithm) ? DIGESTS[algorithm as HmacAlgorithm] : 'sha1';
}

/** `date` reads X-Aux-Date when present (browsers cannot set Date); `(request-target)` is `<method> <path>`. */
export function signingString(req: IncomingMessage, headers: string[]): string {
  return headers
    .map((name) => {
      if (name === '(request-target)') return `(request-target): ${(req.method ?? 'GET').toLowerCase()} ${(req.url ?? '/').split('?')[0]}`;
      return `${name}: ${name === 'date' ? dateHeader(req) : headerValue(req, name)}`;
    })
    .join('\n');
}

export function dateHeader(req: IncomingMessage): string {
  return headerValue(req, 'x-aux-date') || headerValue(req, 'date');
}

/** The signature as Tyk expects it: URL-query-escaped base64 of the HMAC (`+` `/` `=` as %2B %2F %3D). */
export function expectedSignature(secret: string, digest: string, text: string): string {
  return encodeURIComponent(createHmac(digest, secret).update(text).digest('base64'));
}

/** Constant-time; a client's lower-case %xx escapes are accepted too, as Tyk retries them upper-cased. */
export function signatureMatches(given: string, expected: string): boolean {
  const same = (a: string): boolean => {
    const left = Buffer.from(a);
    const right = Buffer.from(expected);
    return left.length === right.length && timingSafeEqual(left, right);
  };
  const exact = same(given);
  const upper = same(given.replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase()));
  return exact || upper;
}

/** RFC 1123 with a zone name or a numeric offset; undefined when it is not that. */
export function parseSignatureDate(value: string): number | undefined {
  if (!/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} ([A-Z]{3}|[+-]\d{4})$/.test(value.trim())) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

function headerValue(req: IncomingMessage, name: string): string {
  const raw = req.headers[name];
  return (Array.isArray(raw) ? raw.join(', ') : raw) ?? '';
}
