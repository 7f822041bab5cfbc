// Definition patterns compile on RE2 (bounded-regexp.ts): Tyk's syntax accepted, what RE2 cannot match in linear
// time refused with the reason, and the patterns that backtrack exponentially in JavaScript answered at once.
import { describe, expect, it } from 'vitest';
import { compileBoundedRegexp, type LinearRegexp } from './bounded-regexp.ts';
import { compileCredentialRegexp } from './body-credentials.ts';

const problem = (source: string): string | undefined => {
  const result = compileBoundedRegexp(source);
  return result.ok ? undefined : result.problem;
};

const compiled = (source: string, ignoreCase = false): LinearRegexp => {
  const result = compileBoundedRegexp(source, { ignoreCase });
  if (!result.ok) throw new Error(result.problem);
  return result.regexp;
};

describe('definition patterns on RE2', () => {
  it("accepts the patterns Tyk's users write, Go's named groups and nested repetition included", () => {
    for (const source of [
      '/users/(\\w+)',
      '^/a/(.*)$',
      '(\\d+)/(x)?',
      '(?:ab)+',
      '(?P<id>\\d+)/x',
      '(?<id>\\d+)/x',
      '[(]+(a)*',
      '"kind":"(\\w+)"',
      '<User>(.*)</User>',
      '(a+)+',
      '(?i)^/admin',
      '\\p{L}+',
    ]) {
      expect(problem(source), source).toBeUndefined();
    }
  });

  it('refuses what RE2 cannot match in linear time, naming the construct', () => {
    expect(problem('/a/(')).toMatch(/^is not a valid RE2 regular expression \(Go's regexp syntax, as Tyk\): error parsing regexp: missing closing \)/);
    expect(problem('(a)\\1')).toMatch(/^is not a valid RE2 regular expression \(backreferences are not supported: RE2 matches in linear time/);
    expect(problem('(?<n>a)\\k<n>')).toMatch(/backreferences are not supported/);
    expect(problem('(?=x)a')).toMatch(/lookaround is not supported/);
    expect(problem('(?<!x)a')).toMatch(/lookaround is not supported/);
    expect(problem('a++')).toMatch(/possessive quantifiers are not supported/);
    expect(problem('a'.repeat(1025))).toMatch(/longer than 1024/);
  });

  it('answers the patterns that backtrack exponentially in JavaScript (issue 23: ^(a|a)*$ froze the gateway)', () => {
    // JavaScript's engine takes about a minute for 30 characters here, doubling per character; RE2 is linear.
    const subject = `${'a'.repeat(20_000)}!`;
    expect(compiled('^(a|a)*$').test(subject)).toBe(false);
    expect(compiled('^/(a|a)*$').exec(`/${subject}`)).toBeNull();
    expect(compiled('(a|aa)+$').test(subject)).toBe(false);
    expect(compiled('^(\\w+\\s?)*$').test(`${'word '.repeat(5_000)}!`)).toBe(false);
  });

  it("matches as RegExp's exec: index, groups, undefined for a group that took no part, flags", () => {
    const match = compiled('/(\\w+)/(\\d+)?(x)?').exec('/v1/users/12?q');
    expect(match?.index).toBe(0);
    expect([...(match ?? [])]).toEqual(['/v1/', 'v1', undefined, undefined]);
    expect(compiled('^/ADMIN$', true).test('/admin')).toBe(true);
    expect(compiled('^/ADMIN$').test('/admin')).toBe(false);
    expect(compiled('a.b').test('a\nb')).toBe(false);
    expect(compiled('(a)(?:b)(?P<c>c)').groupCount).toBe(2);
    expect(String(compiled('x', true))).toBe('/x/i');
  });

  it("runs basic auth's credentials-from-body patterns on RE2 too: they read request bodies", () => {
    const credential = (source: string): string | undefined => {
      const result = compileCredentialRegexp(source);
      return result.ok ? undefined : result.problem;
    };
    expect(credential('<User>(.*)</User>')).toBeUndefined();
    expect(credential('"user":"((\\w+)+)"')).toBeUndefined();
    expect(credential('(?<=user=)(\\w+)')).toMatch(/lookaround is not supported/);
    expect(credential('<User>.*</User>')).toMatch(/capture group/);
  });
});

describe('findAll', () => {
  it("answers successive non-overlapping matches as Go's FindAllString, an empty match right after a match skipped", () => {
    const compile = (source: string) => {
      const result = compileBoundedRegexp(source);
      if (!result.ok) throw new Error(result.problem);
      return result.regexp;
    };
    expect(compile('a*').findAll('baaab', 10)).toEqual(['', 'aaa', '']);
    expect(compile('[0-9]+').findAll('id 12, id 345, id 6', 2)).toEqual(['12', '345']);
    expect(compile('é+').findAll('xéé𝄞é', 10)).toEqual(['éé', 'é']);
    expect(compile('z').findAll('abc', 10)).toEqual([]);
  });
});
