// Regular expressions from API definitions that run against what clients send (URL rewrites' patterns and
// triggers, basic auth's credentials-from-body), compiled once at load by the gateway (which runs them) and the
// admission webhook (which refuses what the gateway would), so both refuse the same definitions. JavaScript's
// engine backtracks, so the cost of a pattern is bounded here before any request runs it: at most
// MAX_PATTERN_LENGTH characters; no backreferences or lookaround (the anchor's RE2 has neither, so no definition
// written for it uses them); no quantified group that itself contains a quantifier (`(a+)+`, `(\w*)*`: the shape
// whose backtracking is exponential). The subjects are bounded by their callers (a request line by the server's
// header limit, a body by the body limits).

export type RegexpResult = { ok: true; regexp: RegExp } | { ok: false; problem: string };

export const MAX_PATTERN_LENGTH = 1024;

/** `problem` completes "<field> ...". */
export function compileBoundedRegexp(source: string): RegexpResult {
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
