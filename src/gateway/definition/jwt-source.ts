// jwt_source (Classic) / `source` (OAS JWT scheme) -> where verification keys come from, with the anchor's rules:
// an http(s) URL is a JWKS endpoint; otherwise the value is base64, and what it decodes to is either an http(s)
// URL (JWKS) or the key itself (an HMAC secret, or a PEM public key or certificate for rsa/ecdsa). A PEM given
// as is (not base64) is accepted too. A key that cannot be read is refused at load, naming the field; the key
// material never appears in the message.
import { createPublicKey, X509Certificate } from 'node:crypto';
import { DefinitionError, type JwtKeySource } from './api-spec.ts';

const URL_PATTERN = /^https?:\/\//i;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

export function parseJwtSource(value: string | undefined, signingMethod: 'hmac' | 'rsa' | 'ecdsa', field: string): JwtKeySource {
  const raw = value?.trim() ?? '';
  if (!raw) throw new DefinitionError(`${field} is required: a base64 secret or public key, or a JWKS URL (keys without it are not supported)`);
  if (URL_PATTERN.test(raw)) return jwksSource(raw, field);
  let decoded: Buffer;
  if (raw.startsWith('-----BEGIN')) decoded = Buffer.from(raw);
  else {
    if (!BASE64.test(raw.replace(/\s+/g, ''))) throw new DefinitionError(`${field} must be base64 (a secret, a PEM key or a JWKS URL) or an http(s) URL`);
    decoded = Buffer.from(raw.replace(/\s+/g, ''), raw.includes('-') || raw.includes('_') ? 'base64url' : 'base64');
  }
  const text = decoded.toString('utf8').trim();
  if (URL_PATTERN.test(text)) return jwksSource(text, field);
  if (signingMethod === 'hmac') {
    if (decoded.length === 0) throw new DefinitionError(`${field} decodes to an empty HMAC secret`);
    return { kind: 'secret', secret: decoded };
  }
  try {
    if (text.includes('BEGIN CERTIFICATE')) new X509Certificate(text);
    else createPublicKey(text);
  } catch {
    throw new DefinitionError(`${field} is not a PEM public key or certificate (jwt_signing_method ${signingMethod})`);
  }
  return { kind: 'pem', pem: text };
}

function jwksSource(url: string, field: string): JwtKeySource {
  try {
    new URL(url);
  } catch {
    throw new DefinitionError(`${field} is not a valid JWKS URL`);
  }
  return { kind: 'jwks', url };
}
