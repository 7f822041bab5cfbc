// The methods a request may be executed as upstream: its own, plus any an override header names
// (`X-HTTP-Method-Override`, `X-HTTP-Method`, `X-Method-Override`, which many frameworks honour to let a POST act
// as a DELETE). The gateway forwards those headers untouched, so every rule that decides by method — block lists,
// `ignored`, allow lists, allowed_urls — must hold for each claimed method: a block matches if it matches any of
// them, a permission only if it covers all of them. Without this a blocked `DELETE /admin` went through as
// `POST /admin` + `X-HTTP-Method-Override: DELETE`.
import type { IncomingMessage } from 'node:http';

const OVERRIDE_HEADERS = ['x-http-method-override', 'x-http-method', 'x-method-override'] as const;

/** One array per method for the common request that claims no other (node's parser knows a fixed set of methods). */
const ONLY = new Map<string, readonly string[]>();

export function claimedMethods(req: IncomingMessage, method: string): readonly string[] {
  if (OVERRIDE_HEADERS.every((header) => req.headers[header] === undefined)) {
    let only = ONLY.get(method);
    if (!only) ONLY.set(method, (only = Object.freeze([method])));
    return only;
  }
  const methods = [method];
  for (const header of OVERRIDE_HEADERS) {
    const value = req.headers[header];
    for (const named of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      for (const part of named.split(',')) {
        const claimed = part.trim().toUpperCase();
        if (claimed !== '' && !methods.includes(claimed)) methods.push(claimed);
      }
    }
  }
  return methods;
}
