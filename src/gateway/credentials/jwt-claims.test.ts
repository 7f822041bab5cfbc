import { describe, expect, it } from 'vitest';
import { claimCheckProblem } from './jwt-claims.ts';

const checks = { issuers: ['https://idp'], audiences: ['api'], subjects: ['alice'], jti: true };
const good = { iss: 'https://idp', aud: ['x', 'api'], jti: 'j1', sub: 'alice' };

describe('OAS JWT claim checks', () => {
  it('pass claims that satisfy every configured check, and check nothing unconfigured', () => {
    expect(claimCheckProblem(checks, good, undefined)).toBeUndefined();
    expect(claimCheckProblem(checks, { ...good, aud: 'api' }, undefined)).toBeUndefined();
    expect(claimCheckProblem({ issuers: [], audiences: [], subjects: [], jti: false }, {}, undefined)).toBeUndefined();
  });

  it("refuse with Tyk's reasons, in its order (iss, aud, jti, subject)", () => {
    expect(claimCheckProblem(checks, {}, undefined)).toBe('Key not authorized: issuer claim is required but not present in token');
    expect(claimCheckProblem(checks, { ...good, iss: 'https://other' }, undefined)).toBe('Key not authorized: invalid issuer claim: https://other');
    expect(claimCheckProblem(checks, { ...good, aud: [] }, undefined)).toBe('Key not authorized: audience claim is required but not present in token');
    expect(claimCheckProblem(checks, { ...good, aud: 'web' }, undefined)).toBe('Key not authorized: no matching audience found in token: [web]');
    expect(claimCheckProblem(checks, { ...good, jti: '' }, undefined)).toBe('Key not authorized: JWT ID (jti) claim is required but not present in token');
    expect(claimCheckProblem(checks, { ...good, sub: 'bob' }, undefined)).toBe('Key not authorized: invalid subject value: bob');
    expect(claimCheckProblem(checks, { ...good, email: 'alice' }, 'email')).toBeUndefined(); // the subject is the identity
  });
});
