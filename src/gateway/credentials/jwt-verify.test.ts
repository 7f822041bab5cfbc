import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, generateKeyPairSync } from 'node:crypto';
import { exportJWK, SignJWT } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import type { JwtSpec } from '../definition/api-spec.ts';
import { JwksCache } from './jwks-cache.ts';
import { JwtVerifier } from './jwt-verify.ts';

const NOW = 1_900_000_000;
const secret = Buffer.from('unit-test-secret');
const spec = (extra: Partial<JwtSpec> = {}): JwtSpec => ({
  credential: { kind: 'token', headerName: 'Authorization', readHeader: true },
  signingMethod: 'hmac',
  source: { kind: 'secret', secret },
  skipKid: false,
  defaultPolicies: [],
  scopeToPolicy: new Map(),
  skew: { exp: 0, nbf: 0, iat: 0 },
  ...extra,
});
const jwks = new JwksCache(() => undefined);
const verifier = (extra: Partial<JwtSpec> = {}) => new JwtVerifier(spec(extra), jwks, () => NOW * 1000);
const hs = (claims: Record<string, unknown>, header: Record<string, unknown> = {}) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256', ...header }).sign(secret);

describe('JwtVerifier', () => {
  it('checks exp, iat and nbf, each with its own skew; missing claims pass', async () => {
    expect(await verifier().verify(await hs({ sub: 'a' }))).toMatchObject({ ok: true });
    expect(await verifier().verify(await hs({ exp: NOW - 1 }))).toEqual({ ok: false, status: 401, message: 'Key not authorized: token has expired' });
    expect(await verifier({ skew: { exp: 5, nbf: 0, iat: 0 } }).verify(await hs({ exp: NOW - 5 }))).toMatchObject({ ok: true });
    expect(await verifier().verify(await hs({ iat: NOW + 10 }))).toEqual({ ok: false, status: 401, message: 'Key not authorized: token used before issued' });
    expect(await verifier({ skew: { exp: 0, nbf: 0, iat: 10 } }).verify(await hs({ iat: NOW + 10 }))).toMatchObject({ ok: true });
    expect(await verifier().verify(await hs({ nbf: NOW + 10 }))).toEqual({ ok: false, status: 401, message: 'Key not authorized: token is not valid yet' });
    expect(await verifier({ skew: { exp: 0, nbf: 10, iat: 0 } }).verify(await hs({ nbf: NOW + 10 }))).toMatchObject({ ok: true });
  });

  it('refuses a time claim that is not a NumericDate instead of ignoring it (a token that never expires)', async () => {
    for (const claim of ['exp', 'iat', 'nbf']) {
      for (const value of [String(NOW + 60), true, null, [NOW + 60], { t: NOW }]) {
        expect(await verifier().verify(await hs({ sub: 'a', [claim]: value })), `${claim}: ${JSON.stringify(value)}`).toEqual({
          ok: false,
          status: 401,
          message: `Key not authorized: the ${claim} claim is not a NumericDate`,
        });
      }
    }
    // 1e400 parses to Infinity: no date at all.
    const payload = Buffer.from('{"sub":"a","exp":1e400}').toString('base64url');
    const signingInput = `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.${payload}`;
    const infinite = `${signingInput}.${createHmac('sha256', secret).update(signingInput).digest('base64url')}`;
    expect(await verifier().verify(infinite)).toEqual({ ok: false, status: 401, message: 'Key not authorized: the exp claim is not a NumericDate' });
    expect(await verifier().verify(await hs({ sub: 'a', exp: NOW + 0.5, iat: NOW - 1.5, nbf: 0 }))).toMatchObject({ ok: true });
  });

  it('refuses an algorithm outside the signing method, alg none, a wrong secret and garbage', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const rs = await new SignJWT({}).setProtectedHeader({ alg: 'RS256' }).sign(rsa.privateKey);
    expect(await verifier().verify(rs)).toEqual({ ok: false, status: 403, message: 'Key not authorized: Unexpected signing method' });
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{}').toString('base64url')}.`;
    expect(await verifier().verify(none)).toEqual({ ok: false, status: 403, message: 'Key not authorized: Unexpected signing method' });
    const other = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).sign(Buffer.from('another-secret'));
    expect(await verifier().verify(other)).toEqual({ ok: false, status: 403, message: 'Key not authorized' });
    expect(await verifier().verify('a.b.c')).toEqual({ ok: false, status: 403, message: 'Key not authorized' });
  });

  describe('with a JWKS', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const server = createServer((_req, res) => {
      void exportJWK(rsa.publicKey).then((jwk) => res.end(JSON.stringify({ keys: [{ ...jwk, kid: 'k1' }] })));
    });
    afterAll(() => new Promise((r) => server.close(r)));

    it('verifies by kid, refuses a kid that is not a string, and ignores kid with skipKid', async () => {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
      const rsaSpec: Partial<JwtSpec> = { signingMethod: 'rsa', source: { kind: 'jwks', url } };
      const sign = (header: Record<string, unknown>) => new SignJWT({ sub: 'a' }).setProtectedHeader({ alg: 'PS256', ...header }).sign(rsa.privateKey);
      expect(await verifier(rsaSpec).verify(await sign({ kid: 'k1' }))).toMatchObject({ ok: true });
      expect(await verifier(rsaSpec).verify(await sign({ kid: 7 }))).toEqual({ ok: false, status: 403, message: 'Key not authorized' });
      expect(await verifier(rsaSpec).verify(await sign({ kid: 'unknown' }))).toEqual({ ok: false, status: 403, message: 'Key not authorized' });
      expect(await verifier({ ...rsaSpec, skipKid: true }).verify(await sign({ kid: 'unknown' }))).toMatchObject({ ok: true });
    });
  });
});
