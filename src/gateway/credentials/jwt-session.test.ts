import { describe, expect, it } from 'vitest';
import type { JwtSpec } from '../definition/api-spec.ts';
import { claimValue, jwtClientId, jwtIdentity, jwtKeyId, jwtPolicies } from './jwt-session.ts';

const spec = (extra: Partial<JwtSpec> = {}): JwtSpec => ({
  credential: { kind: 'token', headerName: 'Authorization', readHeader: true },
  signingMethod: 'hmac',
  source: { kind: 'secret', secret: Buffer.from('x') },
  skipKid: false,
  defaultPolicies: [],
  scopeToPolicy: new Map(),
  skew: { exp: 0, nbf: 0, iat: 0 },
  ...extra,
});
const known = new Set(['base', 'gold', 'read', 'write']);
const exists = (id: string) => known.has(id);

describe('JWT identity', () => {
  it('prefers the identity field (a literal dotted key first, then the nested path), else sub', () => {
    expect(claimValue({ 'a.b': 'literal', a: { b: 'nested' } }, 'a.b')).toBe('literal');
    expect(jwtIdentity({ a: { b: 'nested' }, sub: 's' }, 'a.b')).toEqual({ ok: true, value: 'nested' });
    expect(jwtIdentity({ sub: 's' }, 'email')).toEqual({ ok: true, value: 's' });
  });

  it("answers Tyk's messages when there is none", () => {
    expect(jwtIdentity({}, undefined)).toEqual({ ok: false, message: 'no suitable claims for user ID were found' });
    expect(jwtIdentity({ sub: '' }, undefined)).toEqual({ ok: false, message: 'found an empty user ID in sub claim' });
    expect(jwtIdentity({ email: '', sub: 's' }, 'email')).toEqual({ ok: false, message: 'found an empty user ID in predefined base claim, claim: email' });
  });

  it('names the session <org><md5 hex of the identity>', () => {
    expect(jwtKeyId('org1', 'user')).toBe('org1ee11cbb19052e40b07aac0ca060c23ee');
  });
});

describe('JWT policies', () => {
  it('takes the policy claim, else the defaults', () => {
    expect(jwtPolicies(spec({ policyField: 'pol', defaultPolicies: ['base'] }), { pol: 'gold' }, exists)).toEqual({ ok: true, value: ['gold'] });
    expect(jwtPolicies(spec({ policyField: 'pol', defaultPolicies: ['base'] }), {}, exists)).toEqual({ ok: true, value: ['base'] });
    expect(jwtPolicies(spec(), {}, exists)).toEqual({ ok: false, message: 'key not authorized: no matching policy found' });
    expect(jwtPolicies(spec({ policyField: 'pol' }), { pol: 'nope' }, exists)).toEqual({ ok: false, message: 'key not authorized: no matching policy' });
  });

  it('adds the policies mapped from scopes (string or array), keeping a claimed base but not the defaults', () => {
    const scoped = spec({
      policyField: 'pol',
      defaultPolicies: ['base'],
      scopeToPolicy: new Map([
        ['r', 'read'],
        ['w', 'write'],
      ]),
    });
    expect(jwtPolicies(scoped, { scope: 'r w other' }, exists)).toEqual({ ok: true, value: ['read', 'write'] });
    expect(jwtPolicies(scoped, { scope: ['w'], pol: 'gold' }, exists)).toEqual({ ok: true, value: ['gold', 'write'] });
    expect(jwtPolicies(spec({ scopeClaim: 'perms', scopeToPolicy: new Map([['r', 'read']]) }), { perms: 'r' }, exists)).toEqual({ ok: true, value: ['read'] });
    expect(jwtPolicies(scoped, { scope: 'other' }, exists)).toEqual({ ok: false, message: 'key not authorized: no matching policy found in scope claim' });
    expect(jwtPolicies(scoped, {}, exists)).toEqual({ ok: true, value: ['base'] });
  });
});

describe('jwt_client_base_field', () => {
  const client = spec({ clientField: 'cid', policyField: 'pol', defaultPolicies: ['base'], scopeToPolicy: new Map([['read', 'read']]) });

  it('names the client key only when the policy claim gives no policy', () => {
    expect(jwtClientId(client, { cid: 'acme' })).toBe('acme');
    expect(jwtClientId(client, { cid: 'acme', pol: 'gold' })).toBeUndefined();
    expect(jwtClientId(client, { cid: '' })).toBeUndefined();
    expect(jwtClientId(spec(), { cid: 'acme' })).toBeUndefined();
  });

  it("makes the client key's first policy the base policy, kept beside mapped scopes like a claimed one", () => {
    expect(jwtPolicies(client, { cid: 'acme' }, exists, 'gold')).toEqual({ ok: true, value: ['gold'] });
    expect(jwtPolicies(client, { cid: 'acme', scope: 'read' }, exists, 'gold')).toEqual({ ok: true, value: ['gold', 'read'] });
    expect(jwtPolicies(client, { cid: 'acme' }, exists, undefined)).toEqual({ ok: true, value: ['base'] });
    expect(jwtPolicies(client, { cid: 'acme' }, exists, 'gone')).toEqual({ ok: false, message: 'key not authorized: no matching policy' });
  });
});
