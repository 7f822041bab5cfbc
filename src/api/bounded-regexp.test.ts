import { describe, expect, it } from 'vitest';
import { compileBoundedRegexp } from './bounded-regexp.ts';
import { compileCredentialRegexp } from './body-credentials.ts';

const problem = (source: string): string | undefined => {
  const result = compileBoundedRegexp(source);
  return result.ok ? undefined : result.problem;
};

describe('bounded regular expressions', () => {
  it('accepts the patterns the anchor\'s users write', () => {
    for (const source of ['/users/(\\w+)', '^/a/(.*)$', '(\\d+)/(x)?', '(?:ab)+', '(?<id>\\d+)/x', '[(]+(a)*', '(abc)+', '"kind":"(\\w+)"', '<User>(.*)</User>']) expect(problem(source), source).toBeUndefined();
  });

  it('refuses invalid, unbounded and RE2-foreign patterns', () => {
    expect(problem('/a/(')).toMatch(/^is not a valid JavaScript regular expression/);
    for (const source of ['(a+)+', '((a|b)*)*', '(a{2,})*', '(?:\\w+)*', '((x+)y)+']) expect(problem(source), source).toMatch(/^repeats a group that itself repeats/);
    expect(problem('(a)\\1')).toMatch(/backreference/);
    expect(problem('(?<n>a)\\k<n>')).toMatch(/backreference/);
    expect(problem('(?=x)a')).toMatch(/lookaround/);
    expect(problem('(?<!x)a')).toMatch(/lookaround/);
    expect(problem('a'.repeat(1025))).toMatch(/longer than 1024/);
  });

  it('bounds basic auth\'s credentials-from-body patterns too: they run against request bodies', () => {
    const credential = (source: string): string | undefined => {
      const result = compileCredentialRegexp(source);
      return result.ok ? undefined : result.problem;
    };
    expect(credential('<User>(.*)</User>')).toBeUndefined();
    expect(credential('"user":"((\\w+)+)"')).toMatch(/^repeats a group that itself repeats/);
    expect(credential('(?<=user=)(\\w+)')).toMatch(/lookaround/);
    expect(credential('<User>.*</User>')).toMatch(/capture group/);
  });
});
