import { describe, expect, it } from 'vitest';
import { compileRewriteRegexp, rewriteTargetProblem } from './url-rewrite-checks.ts';

const problem = (source: string): string | undefined => {
  const result = compileRewriteRegexp(source);
  return result.ok ? undefined : result.problem;
};

describe('URL rewrite checks', () => {
  it('accepts the patterns the anchor\'s users write', () => {
    for (const source of ['/users/(\\w+)', '^/a/(.*)$', '(\\d+)/(x)?', '(?:ab)+', '(?<id>\\d+)/x', '[(]+(a)*', '(abc)+', '"kind":"(\\w+)"']) expect(problem(source), source).toBeUndefined();
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

  it('keeps targets on the upstream', () => {
    expect(rewriteTargetProblem('/b/$1?x=1')).toBeUndefined();
    expect(rewriteTargetProblem('b')).toBeUndefined();
    expect(rewriteTargetProblem('tyk://self/b')).toMatch(/internal looping/);
    expect(rewriteTargetProblem('https://elsewhere/b')).toMatch(/absolute URL/);
  });
});
