// Reading the credential of an auth-token API from a request, with Tyk's precedence: a non-empty cookie
// wins over a non-empty query parameter, which wins over the header. `Bearer <token>` (any case) is accepted in
// the header. The Cookie header is read by http/cookie-header.ts (the first pair of the name counts, percent-decoded).
import type { IncomingMessage } from 'node:http';
import { cookieNamed } from '../../../http/cookie-header.ts';
import type { AuthSpec } from '../../definition/api-spec.ts';

export type TokenAuth = Extract<AuthSpec, { kind: 'token' }>;

export function readCredential(req: IncomingMessage, query: string, auth: TokenAuth): string | undefined {
  if (auth.cookieName) {
    const cookie = cookieNamed(req.headers.cookie, auth.cookieName, { decode: 'uri' });
    if (cookie) return cookie;
  }
  if (auth.paramName && query) {
    const param = new URLSearchParams(query).get(auth.paramName);
    if (param) return param;
  }
  if (auth.readHeader) {
    const raw = req.headers[auth.headerName.toLowerCase()];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value) return value.length > 7 && value.slice(0, 7).toLowerCase() === 'bearer ' ? value.slice(7).trim() : value.trim();
  }
  return undefined;
}
