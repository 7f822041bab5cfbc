// The resource a request path names to the most lenient upstream we might sit in front of, as one comparable
// string (the "resource key"). Block lists match this key (path-pattern.ts, compileResourcePattern), so a blocked
// path cannot be reached by respelling it in a way some server reads as the same thing. Each segment of the
// (already normalised, see proxy/request-path.ts) path is read as:
//   - fully percent-decoded once (`%3B` is `;`, `%20` is a space; a server decodes once, so do we);
//   - cut at its first `;`: matrix/path parameters (`/admin;jsessionid=1`) are dropped by Tomcat, Jetty, Spring;
//   - trimmed of leading whitespace and trailing whitespace and dots (`/admin%20`, `/admin%09`, `/admin.`): Windows,
//     IIS and some frameworks ignore them;
//   - a segment left empty disappears (so a trailing slash and `//` name the same resource).
// Letter case is NOT folded here: the patterns compare case-insensitively instead.
// It also tells request-path.ts which segments are dot-segments in disguise (`..;`, `%2e%2e%3b`, `.. `), which
// the gateway must refuse rather than forward. It never decides what is allowed: allow lists (white_list, ignored,
// allowed_urls) match the normalised path as it will be forwarded, strictly, so this leniency never opens anything.

/** Decodes every run of `%XX` escapes as UTF-8 (a malformed sequence becomes U+FFFD, which matches nothing). */
function percentDecode(text: string): string {
  if (!text.includes('%')) return text;
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => Buffer.from(run.replaceAll('%', ''), 'hex').toString('utf8'));
}

/** A segment decoded and without its matrix parameters: `%2e%2e%3bx` -> `..`. */
function segmentName(segment: string): string {
  const decoded = percentDecode(segment);
  const parameters = decoded.indexOf(';');
  return parameters === -1 ? decoded : decoded.slice(0, parameters);
}

/** One segment as a lenient server reads it. */
function segmentKey(segment: string): string {
  return segmentName(segment)
    .replace(/^\s+/, '')
    .replace(/[\s.]+$/, '');
}

let lastPath: string | undefined;
let lastKey = '/';

/** `/Admin;x/Panel%20.` -> `/Admin/Panel`. Remembers the last answer: every block-list entry asks for the same path. */
export function resourceKey(path: string): string {
  if (path === lastPath) return lastKey;
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    const key = segmentKey(segment);
    if (key !== '') segments.push(key);
  }
  lastPath = path;
  lastKey = `/${segments.join('/')}`;
  return lastKey;
}

/**
 * A segment that is not literally `.` or `..` but that a server stripping parameters, decoding or trimming would
 * read as one: `..;`, `..;x`, `.;`, `%2e%2e%3b`, `..%20`. Forwarding it would let the upstream climb out of the
 * path the gateway authorised.
 */
export function isDisguisedDotSegment(segment: string): boolean {
  if (segment === '.' || segment === '..' || (!segment.includes('.') && !segment.includes('%'))) return false;
  const name = segmentName(segment).trim();
  return name === '.' || name === '..';
}
