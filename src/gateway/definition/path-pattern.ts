// Endpoint paths of API definitions (`/status/{code}`, allowed_urls, hard_timeouts, mocks) compiled once, at load,
// into anchored regular expressions. Per the seed a `{name}` segment is a wildcard matching everything (`(.*)`),
// not a variable. The whole API-relative path must match (anchored at both ends), so `/get` never matches
// `/getaway` and an allow-list entry cannot be widened by a suffix; write `/files/{rest}` for a prefix.
export interface PathPattern {
  readonly source: string;
  test(path: string): boolean;
}

const WILDCARD = /\{[^}]*\}/g;

export function compilePathPattern(path: string, ignoreCase = false): PathPattern {
  const normalized = path.startsWith('/') ? path : `/${path}`;
  let body = '';
  let last = 0;
  for (const match of normalized.matchAll(WILDCARD)) {
    body += escapeRegExp(normalized.slice(last, match.index)) + '(.*)';
    last = match.index + match[0].length;
  }
  body += escapeRegExp(normalized.slice(last));
  const regexp = new RegExp(`^${body}$`, ignoreCase ? 'i' : '');
  return { source: path, test: (candidate) => regexp.test(candidate) };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
