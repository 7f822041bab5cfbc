// The request path the gateway routes, authorises and forwards: one normalised form, computed once per request.
// Because the SAME normalised path is used to choose the API, to check credentials and endpoint rules, and to build
// the upstream URL, no spelling of a path can be authorised as one thing and served as another:
//   - percent-encoded unreserved characters are decoded (`%2e` is `.`, `%41` is `A`); other escapes are kept with
//     upper-case hex;
//   - `.` and `..` segments are resolved (never above the root) and runs of `/` collapse to one;
//   - an encoded `/` or `\` (`%2F`, `%5C`), a raw `\`, a NUL or a malformed escape is refused (400): they mean
//     different paths to different servers, and no API needs them;
//   - so is a dot-segment in disguise (`..;`, `.;x`, `%2e%2e%3b`, `..%20`, definition/resource-path.ts): Tomcat and
//     Jetty drop the `;...` and resolve what is left as `..`, climbing out of the path the gateway authorised;
//   - and a raw `#`: never part of a request target, and an upstream client may cut the path there.
import { isDisguisedDotSegment } from '../definition/resource-path.ts';

export type NormalizedPath = { ok: true; path: string; query: string } | { ok: false; reason: string };

const UNRESERVED = /[A-Za-z0-9\-._~]/;
/** Already in normal form (no escape, no dot, no empty segment): what almost every request path is. */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9\-_~]+)*\/?$/;

export function normalizeRequestPath(url: string): NormalizedPath {
  const queryAt = url.indexOf('?');
  const rawPath = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? '' : url.slice(queryAt);
  if (!rawPath.startsWith('/')) return { ok: false, reason: 'the request path must start with /' };
  if (rawPath.includes('\\')) return { ok: false, reason: 'backslashes are not allowed in the request path' };
  if (rawPath.includes('#')) return { ok: false, reason: 'a fragment (#) is not allowed in the request path' };
  if (PLAIN_PATH.test(rawPath)) return { ok: true, path: rawPath, query };

  let decoded = '';
  for (let i = 0; i < rawPath.length; i++) {
    const char = rawPath[i]!;
    if (char !== '%') {
      decoded += char;
      continue;
    }
    const hex = rawPath.slice(i + 1, i + 3);
    if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return { ok: false, reason: 'malformed percent-encoding in the request path' };
    const byte = parseInt(hex, 16);
    if (byte === 0x2f || byte === 0x5c) return { ok: false, reason: 'encoded slashes are not allowed in the request path' };
    if (byte === 0) return { ok: false, reason: 'NUL is not allowed in the request path' };
    const decodedChar = String.fromCharCode(byte);
    decoded += UNRESERVED.test(decodedChar) ? decodedChar : `%${hex.toUpperCase()}`;
    i += 2;
  }

  const out: string[] = [];
  const segments = decoded.split('/');
  for (const segment of segments) {
    if (isDisguisedDotSegment(segment)) return { ok: false, reason: 'dot-segments with parameters (..;) are not allowed in the request path' };
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  const last = segments[segments.length - 1];
  const trailingSlash = decoded.length > 1 && (last === '' || last === '.' || last === '..') && out.length > 0;
  return { ok: true, path: `/${out.join('/')}${trailingSlash ? '/' : ''}`, query };
}
