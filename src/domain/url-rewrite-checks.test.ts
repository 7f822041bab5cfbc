import { describe, expect, it } from 'vitest';
import { rewriteTargetProblem } from './url-rewrite-checks.ts';

describe('URL rewrite checks', () => {
  it('keeps targets on the upstream', () => {
    expect(rewriteTargetProblem('/b/$1?x=1')).toBeUndefined();
    expect(rewriteTargetProblem('b')).toBeUndefined();
    expect(rewriteTargetProblem('tyk://self/b')).toBeUndefined();
    expect(rewriteTargetProblem('tyk://other-api/b?method=POST')).toBeUndefined();
    expect(rewriteTargetProblem('tyk:///b')).toMatch(/names no API/);
    expect(rewriteTargetProblem('https://elsewhere/b')).toMatch(/absolute URL/);
  });
});
