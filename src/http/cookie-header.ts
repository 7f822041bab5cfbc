// The request Cookie header, read through the maintained `cookie` package (jshttp): one parser for the gateway
// (cookie credentials, context variables, strip_auth_data) and the dashboard (session tokens). Pairs are split on
// ';', names and values trimmed of spaces and tabs, a segment without '=' skipped, values kept as sent (quotes
// included). A name sent twice: the FIRST occurrence wins unless the caller asks for the last (context
// variables do, as Tyk Gateway fills cookies_<name> from a loop over Go's r.Cookies(), each later pair
// overwriting). Values are never decoded unless the caller asks (`decode: 'uri'`: percent-decoding, the raw value
// kept when it is malformed). Pairs with an empty name are dropped (no cookie is named ""). The header is already
// bounded by the HTTP server's header limit; parsing is one linear pass.
import { parseCookie } from 'cookie';

export interface CookieReadOptions {
  /** Which occurrence of a name sent twice counts; default 'first'. */
  duplicates?: 'first' | 'last';
  /** 'uri': percent-decode each value (kept raw when malformed); default 'none': the value as sent. */
  decode?: 'none' | 'uri';
}

const AS_SENT = { decode: (value: string): string => value };
const URI_DECODED = {};

/** Every cookie in a request's Cookie header, name to value (a record without Object.prototype). */
export function parseCookieHeader(header: string | undefined, options: CookieReadOptions = {}): Record<string, string> {
  // The package keeps the first occurrence; reading the ';'-separated pairs in reverse order keeps the last.
  const source = options.duplicates === 'last' && header ? header.split(';').reverse().join(';') : (header ?? '');
  // The package's record has no Object.prototype in its chain (so `__proto__` or `toString` is only ever a cookie).
  const cookies = parseCookie(source, options.decode === 'uri' ? URI_DECODED : AS_SENT) as Record<string, string>;
  delete cookies[''];
  return cookies;
}

/** The value of the cookie named exactly `name` (first occurrence), or undefined when absent. */
export function cookieNamed(header: string | undefined, name: string, options: Pick<CookieReadOptions, 'decode'> = {}): string | undefined {
  return parseCookieHeader(header, options)[name];
}

/**
 * The Cookie header without every pair named exactly `name` (a segment without '=' counts as its whole trimmed
 * text), the others kept as sent and rejoined with '; '; undefined when nothing is left. This rewrites rather
 * than parses (the package's stringify would re-encode values and merge duplicates), so it stays here.
 */
export function cookieHeaderWithout(header: string, name: string): string | undefined {
  const kept = header.split(';').filter((pair) => pair.split('=', 1)[0]!.trim() !== name);
  return kept.length === 0 ? undefined : kept.map((pair) => pair.trim()).join('; ');
}
