// Reading the credential of an auth-token API from a request, with the anchor's precedence: a non-empty cookie
// wins over a non-empty query parameter, which wins over the header. `Bearer <token>` (any case) is accepted in
// the header. Also the parsing of the Cookie header, shared with strip-auth.ts.
import type { IncomingMessage } from 'node:http';
import type { AuthSpec } from '../definition/api-spec.ts';

export type TokenAuth = Extract<AuthSpec, { kind: 'token' }>;

export function readCredential(req: IncomingMessage, query: string, auth: TokenAuth): string | undefined {
  if (auth.cookieName) {
    const cookie = cookieValue(req.headers.cookie, auth.cookieName);
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

/** The value of the cookie named exactly `name`, decoded; undefined when absent or empty. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(value) || undefined;
    } catch {
      return value || undefined;
    }
  }
  return undefined;
}
