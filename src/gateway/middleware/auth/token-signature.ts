// The request-signature check of an authentication token (auth_configs.authToken.validate_signature), Tyk's
// Mashery scheme: signature = hex(sha256|md5(key + secret + unix seconds)), accepted for every second within
// `allowedClockSkew` of now. The key is tried as Tyk tries it: without the organisation prefix, then the
// `id` inside a base64 JSON key, then as sent. Signatures are compared in constant time; nothing here logs the
// secret or the signature.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TokenSignatureSpec } from '../../definition/api-spec.ts';

const HASHES: Record<TokenSignatureSpec['algorithm'], string> = { MasherySHA256: 'sha256', MasheryMD5: 'md5' };

/** `true` when the request carries a signature of `token` valid at `nowMs`. */
export function tokenSignatureValid(req: IncomingMessage, query: string, token: string, orgId: string, spec: TokenSignatureSpec, nowMs: number): boolean {
  const given = signatureOf(req, query, spec);
  if (!given) return false;
  const givenBytes = Buffer.from(given.toLowerCase(), 'utf8');
  const hash = HASHES[spec.algorithm];
  const now = Math.floor(nowMs / 1000);
  let valid = false;
  for (const key of keyForms(token, orgId)) {
    for (let second = now - spec.allowedClockSkew; second <= now + spec.allowedClockSkew; second++) {
      const expected = Buffer.from(createHash(hash).update(`${key}${spec.secret}${second}`).digest('hex'), 'utf8');
      // Every candidate is compared (no early exit), each in constant time.
      if (expected.length === givenBytes.length && timingSafeEqual(expected, givenBytes)) valid = true;
    }
  }
  return valid;
}

function signatureOf(req: IncomingMessage, query: string, spec: TokenSignatureSpec): string | undefined {
  const raw = req.headers[spec.header.toLowerCase()];
  const header = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (header) return header;
  if (spec.paramName && query) return new URLSearchParams(query).get(spec.paramName)?.trim() || undefined;
  return undefined;
}

/** The key as the signer may have used it, most specific first, without repeats. */
function keyForms(token: string, orgId: string): string[] {
  const forms: string[] = [];
  if (orgId && token.startsWith(orgId) && token.length > orgId.length) forms.push(token.slice(orgId.length));
  const id = idInsideJsonKey(token);
  if (id) forms.push(id);
  forms.push(token);
  return [...new Set(forms)];
}

function idInsideJsonKey(token: string): string | undefined {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
    if (decoded && typeof decoded === 'object' && 'id' in decoded && typeof decoded.id === 'string') return decoded.id;
  } catch {
    // not a base64 JSON key
  }
  return undefined;
}
