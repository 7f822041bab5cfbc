// Endpoint paths of API definitions (`/status/{code}`, allowed_urls, hard_timeouts, mocks, endpoint lists)
// compiled once, at load, into regular expressions. By design a `{name}` segment is a wildcard matching
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
// `/administrator`). An entry ending in `$` (Tyk's regex spelling of "ends here") blocks the resource
// itself in every spelling but not its sub-paths or extensions: `/admin$` blocks `/ADMIN/` yet lets `/admin/x`
// and `/admin.json` through.
//
// No regular expression is built: a pattern is its literal parts between wildcards, matched by a scan that takes
// each literal at its leftmost place after the previous one (enough for wildcards that match anything), so a
// match costs the path's length times the pattern's, however many wildcards (as `(.*)` groups in a backtracking
// engine, several of them cost a power of the path's length). A wildcard matches any characters, `/` included.
import { resourceKey } from './resource-path.ts';

export interface PathPattern {
  readonly source: string;
  test(path: string): boolean;
}

const WILDCARD = /\{[^}]*\}/g;

/** An allow pattern: the whole path, anchored; `{name}` matches anything. */
export function compilePathPattern(path: string, ignoreCase = false): PathPattern {
  const normalized = path.startsWith('/') ? path : `/${path}`;
  const parts = literalParts(ignoreCase ? normalized.toLowerCase() : normalized);
  return { source: path, test: (candidate) => matchesWhole(parts, ignoreCase ? candidate.toLowerCase() : candidate) };
}

/** A block pattern: the resource the entry names and, unless it ends in `$`, everything under or beside it. */
export function compileResourcePattern(path: string): PathPattern {
  const exactOnly = path.endsWith('$');
  const key = resourceKey(exactOnly ? path.slice(0, -1) : path).toLowerCase();
  const parts = literalParts(key === '/' && !exactOnly ? '' : key);
  return {
    source: path,
    test: (candidate) => {
      const resource = resourceKey(candidate).toLowerCase();
      return exactOnly ? matchesWhole(parts, resource) : matchesBeforeBoundary(parts, resource);
    },
  };
}

/** The literal text around each `{name}`: n wildcards give n + 1 parts (empty where wildcards touch or end). */
function literalParts(path: string): string[] {
  return path.split(WILDCARD);
}

/** `^part0.*part1.*...partN$`. */
function matchesWhole(parts: readonly string[], text: string): boolean {
  const last = parts[parts.length - 1]!;
  if (parts.length === 1) return text === last;
  const end = text.length - last.length;
  const after = middleEnd(parts, text);
  return after >= 0 && after <= end && text.endsWith(last);
}

/** `^part0.*part1.*...partN(?:[/.].*)?$`: the whole text, or a prefix of it followed by `/` or `.`. */
function matchesBeforeBoundary(parts: readonly string[], text: string): boolean {
  const last = parts[parts.length - 1]!;
  const boundaryAt = (index: number): boolean => index === text.length || text[index] === '/' || text[index] === '.';
  if (parts.length === 1) return text.startsWith(last) && boundaryAt(last.length);
  const after = middleEnd(parts, text);
  if (after < 0) return false;
  for (let at = text.indexOf(last, after); at >= 0; at = text.indexOf(last, at + 1)) {
    if (boundaryAt(at + last.length)) return true;
  }
  return false;
}

/**
 * Where the text is left after the first part (at the start) and every middle part (each at its leftmost place
 * after the one before); -1 when one is missing. Taking each leftmost leaves the most room for what follows.
 */
function middleEnd(parts: readonly string[], text: string): number {
  if (!text.startsWith(parts[0]!)) return -1;
  let at = parts[0]!.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const found = text.indexOf(parts[i]!, at);
    if (found < 0) return -1;
    at = found + parts[i]!.length;
  }
  return at;
}
