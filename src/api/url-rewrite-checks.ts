// What a URL rewrite may say, checked by the gateway (which runs it) and the admission webhook (which refuses what
// the gateway would), so both refuse the same definitions. Two checks:
//
// Targets (rewrite_to, rewriteTo): a rewrite stays on the API's upstream. Absolute URLs (another host) and the
// anchor's internal looping (`tyk://self/...`) are refused rather than sent to the upstream as a path.
//
// The regular expressions of URL rewrites (Classic url_rewrites[].match_pattern and triggers' match_rx, OAS
// urlRewrite.pattern and triggers' rules' pattern): compiled once at load, by the gateway (which runs them) and the
// admission webhook (which refuses what the gateway would). JavaScript's engine backtracks, so the cost of a
// pattern is bounded here before any request runs it: at most MAX_PATTERN_LENGTH characters; no backreferences or
// lookaround (the anchor's RE2 has neither, so no definition written for it uses them); no quantified group that
// itself contains a quantifier (`(a+)+`, `(\w*)*`: the shape whose backtracking is exponential). The subject is a
// request path and query, already bounded by the server's header size limit, or a body bounded by
// transform_max_body_bytes.
import type { RegexpResult } from './body-credentials.ts';

export const MAX_PATTERN_LENGTH = 1024;

/** `problem` completes "<field> ...". */
export function compileRewriteRegexp(source: string): RegexpResult {
  if (source.length > MAX_PATTERN_LENGTH) return { ok: false, problem: `is longer than ${MAX_PATTERN_LENGTH} characters` };
  let regexp: RegExp;
  try {
    regexp = new RegExp(source);
  } catch (error) {
    return { ok: false, problem: `is not a valid JavaScript regular expression: ${(error as Error).message}` };
  }
  const shape = unboundedShape(source);
  return shape ? { ok: false, problem: shape } : { ok: true, regexp };
}

/** `problem` completes "<field> ...". */
export function rewriteTargetProblem(text: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return undefined;
  return /^tyk:\/\//i.test(text)
    ? 'loops back into the gateway (tyk://): internal looping is not supported; rewrite to a path of the upstream'
    : 'is an absolute URL: a rewrite stays on the API\'s upstream; give a path (and query)';
}

const QUANTIFIER = /^(?:[*+?]|\{\d+(?:,\d*)?\})/;

/** A reason the pattern may backtrack without bound, or undefined. Escapes and character classes are skipped. */
function unboundedShape(source: string): string | undefined {
  /** Per open group: whether a quantifier occurs inside it. */
  const groups: boolean[] = [];
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (/[1-9k]/.test(next)) return 'uses a backreference (not supported: the anchor\'s RE2 has none, and they make matching cost unbounded)';
      i++;
      continue;
    }
    if (c === '[') {
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
      continue;
    }
    if (c === '(') {
      if (/^\?<?[=!]/.test(source.slice(i + 1, i + 4))) return 'uses lookaround (not supported: the anchor\'s RE2 has none)';
      groups.push(false);
      const prefix = /^\?(?::|<[A-Za-z_$][\w$]*>)/.exec(source.slice(i + 1));
      if (prefix) i += prefix[0].length;
      continue;
    }
    if (c === ')') {
      const quantifiedInside = groups.pop() ?? false;
      const after = QUANTIFIER.exec(source.slice(i + 1));
      if (after && quantifiedInside && after[0] !== '?') return 'repeats a group that itself repeats (like (a+)+): its matching cost is unbounded';
      if (after && groups.length > 0) groups[groups.length - 1] = true;
      if (quantifiedInside && groups.length > 0) groups[groups.length - 1] = true;
      continue;
    }
    if (QUANTIFIER.test(source.slice(i)) && groups.length > 0) groups[groups.length - 1] = true;
  }
  return undefined;
}
