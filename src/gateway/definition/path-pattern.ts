// Endpoint paths of API definitions (`/status/{code}`, allowed_urls, hard_timeouts, mocks, endpoint lists)
// compiled once, at load, into regular expressions. Per the seed a `{name}` segment is a wildcard matching
// everything (`(.*)`), not a variable. Two readings, chosen by what a match grants:
//
// Allow patterns (compilePathPattern: white_list, ignored, allowed_urls, mocks, timeouts) match the normalised
// request path (proxy/request-path.ts) exactly as it is forwarded, anchored at both ends and case-sensitively
// unless the entry says `ignore_case`: `/public` allows `/public` only, never `/public/`, `/public/x`,
// `/public.json`, `/public;x` or `/PUBLIC`; write `/files/{rest}` for a prefix. Being strict here can only refuse,
// never open.
//
// Block patterns (compileResourcePattern: black_list) match the RESOURCE the path names to a lenient upstream
// (resource-path.ts: percent-decoded, matrix parameters `;...` dropped, trailing whitespace and dots trimmed,
// empty segments gone), case-insensitively, and cover the entry's sub-resources: `/admin` blocks `/admin`,
// `/admin/`, `/ADMIN`, `/admin;x`, `/admin%3bx`, `/admin%20`, `/admin.`, `/admin.json` and `/admin/x` (but not
// `/administrator`). An entry ending in `$` (the anchor's regex spelling of "ends here") blocks the resource
// itself in every spelling but not its sub-paths or extensions: `/admin$` blocks `/ADMIN/` yet lets `/admin/x`
// and `/admin.json` through.
//
// The expressions run on RE2 (../../api/bounded-regexp.ts): each `{name}` is a `(.*)`, and a backtracking engine
// pays a power of the path's length for several of them; RE2 pays the length.
import { linearRegexp } from '../../api/bounded-regexp.ts';
import { resourceKey } from './resource-path.ts';

export interface PathPattern {
  readonly source: string;
  test(path: string): boolean;
}

const WILDCARD = /\{[^}]*\}/g;

/** An allow pattern: the whole path, anchored; `{name}` is `(.*)`. */
export function compilePathPattern(path: string, ignoreCase = false): PathPattern {
  const normalized = path.startsWith('/') ? path : `/${path}`;
  const regexp = linearRegexp(`^${patternBody(normalized)}$`, { ignoreCase });
  return { source: path, test: (candidate) => regexp.test(candidate) };
}

/** A block pattern: the resource the entry names and, unless it ends in `$`, everything under or beside it. */
export function compileResourcePattern(path: string): PathPattern {
  const exactOnly = path.endsWith('$');
  const key = resourceKey(exactOnly ? path.slice(0, -1) : path);
  const regexp = exactOnly
    ? linearRegexp(`^${patternBody(key)}$`, { ignoreCase: true })
    : linearRegexp(`^${key === '/' ? '' : patternBody(key)}(?:[/.].*)?$`, { ignoreCase: true });
  return { source: path, test: (candidate) => regexp.test(resourceKey(candidate)) };
}

function patternBody(path: string): string {
  let body = '';
  let last = 0;
  for (const match of path.matchAll(WILDCARD)) {
    body += escapeRegExp(path.slice(last, match.index)) + '(.*)';
    last = match.index + match[0].length;
  }
  return body + escapeRegExp(path.slice(last));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
