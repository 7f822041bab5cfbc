// jwt_source (Classic) / `source` (OAS JWT scheme) -> where JWT verification keys come from, with Tyk's rules
// (docs/compatibility.md): an http(s) URL is a JWKS endpoint; otherwise the value is base64, and what it decodes to
// is either an http(s) URL (JWKS) or the key itself (an HMAC secret, or a PEM public key or certificate for
// rsa/ecdsa). A PEM given as is (not base64) is accepted too. Shared by the gateway (which loads it) and the
// admission webhook (which refuses what the gateway would), so both apply one rule. Problems never quote the key.
import { createPublicKey, X509Certificate } from 'node:crypto';

export const JWT_SIGNING_METHODS = ['hmac', 'rsa', 'ecdsa'] as const;
export type JwtSigningMethod = (typeof JWT_SIGNING_METHODS)[number];

export type JwtKeySource = { kind: 'secret'; secret: Buffer } | { kind: 'pem'; pem: string } | { kind: 'jwks'; url: string };

export type JwtSourceResult = { ok: true; source: JwtKeySource } | { ok: false; problem: string };

const URL_PATTERN = /^https?:\/\//i;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** `problem` completes "<field> ..." (e.g. "is required: ..."). */
export function parseJwtSource(value: string | undefined, signingMethod: JwtSigningMethod): JwtSourceResult {
  const raw = value?.trim() ?? '';
  if (!raw) return { ok: false, problem: 'is required: a base64 secret or public key, or a JWKS URL' };
  if (URL_PATTERN.test(raw)) return jwksSource(raw);
  let decoded: Buffer;
  if (raw.startsWith('-----BEGIN')) decoded = Buffer.from(raw);
  else {
    const compact = raw.replace(/\s+/g, '');
    if (!BASE64.test(compact)) return { ok: false, problem: 'must be base64 (a secret, a PEM key or a JWKS URL) or an http(s) URL' };
    decoded = Buffer.from(compact, 'base64');
  }
  const text = decoded.toString('utf8').trim();
  if (URL_PATTERN.test(text)) return jwksSource(text);
  if (signingMethod === 'hmac') {
    return decoded.length === 0 ? { ok: false, problem: 'decodes to an empty HMAC secret' } : { ok: true, source: { kind: 'secret', secret: decoded } };
  }
  try {
    if (text.includes('BEGIN CERTIFICATE')) new X509Certificate(text);
    else createPublicKey(text);
  } catch {
    return { ok: false, problem: `is not a PEM public key or certificate (signing method ${signingMethod})` };
  }
  return { ok: true, source: { kind: 'pem', pem: text } };
}

function jwksSource(url: string): JwtSourceResult {
  try {
    new URL(url);
  } catch {
    return { ok: false, problem: 'is not a valid JWKS URL' };
  }
  return { ok: true, source: { kind: 'jwks', url } };
}
