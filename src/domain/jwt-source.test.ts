import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseJwtSource } from './jwt-source.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();

describe('parseJwtSource', () => {
  it('reads a plain or base64 http(s) URL as a JWKS endpoint', () => {
    expect(parseJwtSource('https://idp.example.com/jwks', 'rsa')).toEqual({ ok: true, source: { kind: 'jwks', url: 'https://idp.example.com/jwks' } });
    expect(parseJwtSource(b64('http://127.0.0.1:1/keys'), 'hmac')).toEqual({ ok: true, source: { kind: 'jwks', url: 'http://127.0.0.1:1/keys' } });
  });

  it('reads the decoded bytes as the HMAC secret, or as a PEM key (base64 or as is) for rsa/ecdsa', () => {
    expect(parseJwtSource(b64('s3cret'), 'hmac')).toEqual({ ok: true, source: { kind: 'secret', secret: Buffer.from('s3cret') } });
    expect(parseJwtSource(b64(pem), 'ecdsa')).toEqual({ ok: true, source: { kind: 'pem', pem: pem.trim() } });
    expect(parseJwtSource(pem, 'ecdsa')).toEqual({ ok: true, source: { kind: 'pem', pem: pem.trim() } });
  });

  it('names the problem without quoting the key', () => {
    expect(parseJwtSource(undefined, 'hmac')).toEqual({ ok: false, problem: 'is required: a base64 secret or public key, or a JWKS URL' });
    expect(parseJwtSource('not base64!', 'hmac')).toEqual({ ok: false, problem: 'must be base64 (a secret, a PEM key or a JWKS URL) or an http(s) URL' });
    const notAKey = parseJwtSource(b64('s3cret'), 'rsa');
    expect(notAKey).toEqual({ ok: false, problem: 'is not a PEM public key or certificate (signing method rsa)' });
  });
});
