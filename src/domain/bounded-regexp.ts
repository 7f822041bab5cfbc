// The one way a regular expression written in an API definition is compiled: URL rewrites' patterns and triggers,
// basic auth's credentials-from-body and JSON Schema `pattern` / `patternProperties` (json-schema/compile.ts); the
// endpoint paths of allow/block lists, mocks and timeouts are no regexps at all (gateway/definition/path-pattern.ts
// scans their literal parts). They all run against what clients send, so they run on RE2 (`re2js`, a
// pure-JavaScript port of RE2 with Go's regexp syntax): matching takes time linear in the subject whatever the
// pattern, where JavaScript's own engine backtracks (`^(a|a)*$` against 30 characters blocks the event loop for a
// minute). Tyk runs Go's regexp, the same RE2 syntax, so a definition written for Tyk means the same here; the
// constructs RE2 cannot match in linear time (backreferences, lookaround, possessive quantifiers) are refused when
// the definition loads, naming the field, by the gateway and by the admission webhook alike. Patterns are at most
// MAX_PATTERN_LENGTH characters (RE2's cost is linear in the subject times the pattern); subjects are bounded by
// their callers (the header limit, the body limits).
import { RE2JS } from 're2js';

/** A compiled definition pattern: RE2 semantics, `RegExp`'s `test` / `exec` shapes. */
export interface LinearRegexp {
  readonly source: string;
  /** Unanchored search, as RegExp.prototype.test. */
  test(text: string): boolean;
  /** The first match and its groups (undefined for a group that took no part), as RegExp.prototype.exec. */
  exec(text: string): RegExpExecArray | null;
  /**
   * The first `max` successive non-overlapping matches (whole matches), as Go's FindAllString: an empty match
   * right after the previous match is skipped.
   */
  findAll(text: string, max: number): string[];
  /** How many capture groups the pattern has. */
  readonly groupCount: number;
  /** `/source/flags`: distinct per pattern and flags (ajv keys its compiled patterns by this text). */
  toString(): string;
}

export type RegexpResult = { ok: true; regexp: LinearRegexp } | { ok: false; problem: string };

export const MAX_PATTERN_LENGTH = 1024;

export interface PatternOptions {
  ignoreCase?: boolean;
}

/** A pattern from a definition; `problem` completes "<field> ...". */
export function compileBoundedRegexp(source: string, options: PatternOptions = {}): RegexpResult {
  if (source.length > MAX_PATTERN_LENGTH) return { ok: false, problem: `is longer than ${MAX_PATTERN_LENGTH} characters` };
  try {
    return { ok: true, regexp: new Re2Regexp(source, options) };
  } catch (error) {
    return { ok: false, problem: invalidProblem(source, error) };
  }
}

class Re2Regexp implements LinearRegexp {
  readonly source: string;
  readonly groupCount: number;
  readonly #re2: RE2JS;
  readonly #flags: string;

  constructor(source: string, options: PatternOptions) {
    this.#re2 = RE2JS.compile(source, options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
    this.source = source;
    this.groupCount = this.#re2.groupCount();
    this.#flags = options.ignoreCase ? 'i' : '';
  }

  test(text: string): boolean {
    return this.#re2.test(text);
  }

  exec(text: string): RegExpExecArray | null {
    return this.#re2.exec(text) as RegExpExecArray | null;
  }

  findAll(text: string, max: number): string[] {
    const found: string[] = [];
    const matcher = this.#re2.matcher(text);
    let previousEnd = -1;
    while (found.length < max && matcher.find()) {
      const start = matcher.start();
      const end = matcher.end();
      if (!(start === end && start === previousEnd)) found.push(text.slice(start, end));
      previousEnd = end;
    }
    return found;
  }

  toString(): string {
    return `/${this.source}/${this.#flags}`;
  }
}

/** The constructs people bring from backtracking engines, named; RE2's own message otherwise. */
function invalidProblem(source: string, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  const hint = /\\[1-9]|\\k</.test(source)
    ? 'backreferences are not supported'
    : /\(\?<?[=!]/.test(source)
      ? 'lookaround is not supported'
      : /[*+?}][+]/.test(source)
        ? 'possessive quantifiers are not supported'
        : undefined;
  const limits = hint ? `${hint}: RE2 matches in linear time, as Tyk's Go regexp` : "Go's regexp syntax, as Tyk";
  return `is not a valid RE2 regular expression (${limits}): ${reason}`;
}
