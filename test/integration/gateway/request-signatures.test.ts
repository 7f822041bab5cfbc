// Request signatures end to end through a real gateway process and a real upstream: the authentication token's
// Mashery signature (auth_configs.authToken.validate_signature), signatures minted here.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addApi, addKey, classicApi, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

const ERROR = (message: string) => `{\n    "error": "${message}"\n}`;
const SIGNING_SECRET = 'the-signing-secret-of-the-test';
const mashery = (hash: 'sha256' | 'md5', key: string, secret: string, atSeconds: number) =>
  createHash(hash).update(`${key}${secret}${atSeconds}`).digest('hex');
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('authentication token request signatures', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  let key: string;
  let md5Key: string;
  afterAll(async () => upstream.close());

  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway();
    const signed = (algorithm: string, extra: Record<string, unknown> = {}) => ({
      use_standard_auth: true,
      auth_configs: { authToken: { validate_signature: true, signature: { algorithm, header: 'X-Signature', secret: SIGNING_SECRET, allowed_clock_skew: 60, ...extra } } },
    });
    await addApi(gw, classicApi('signed', '/signed', upstream.url, signed('MasherySHA256')));
    await addApi(gw, classicApi('signed-md5', '/signed-md5', upstream.url, signed('MasheryMD5', { error_code: 418, error_message: 'bad signature', allowed_clock_skew: 5 })));
    key = await addKey(gw, ['signed']);
    md5Key = await addKey(gw, ['signed-md5']);
  });

  it('accepts a signature of key + secret + now, and one within the allowed clock skew', async () => {
    const now = await gw.call('/signed/get', { headers: { authorization: key, 'x-signature': mashery('sha256', key, SIGNING_SECRET, nowSeconds()) } });
    expect(now.status).toBe(200);
    const skewed = await gw.call('/signed/get', { headers: { authorization: key, 'x-signature': mashery('sha256', key, SIGNING_SECRET, nowSeconds() - 30) } });
    expect(skewed.status).toBe(200);
    const upperCase = await gw.call('/signed/get', { headers: { authorization: key, 'x-signature': mashery('sha256', key, SIGNING_SECRET, nowSeconds()).toUpperCase() } });
    expect(upperCase.status).toBe(200);
  });

  it('refuses a missing signature, a wrong secret and a signature outside the skew with 401 and the anchor message', async () => {
    const refused = ERROR('Request signature verification failed');
    const cases = {
      missing: {},
      'wrong secret': { 'x-signature': mashery('sha256', key, 'not-the-secret', nowSeconds()) },
      'too old': { 'x-signature': mashery('sha256', key, SIGNING_SECRET, nowSeconds() - 600) },
      'from the future': { 'x-signature': mashery('sha256', key, SIGNING_SECRET, nowSeconds() + 600) },
      'wrong hash': { 'x-signature': mashery('md5', key, SIGNING_SECRET, nowSeconds()) },
    };
    for (const [name, headers] of Object.entries(cases)) {
      const result = await gw.call('/signed/get', { headers: { authorization: key, ...headers } });
      expect({ name, status: result.status, text: result.text }).toEqual({ name, status: 401, text: refused });
    }
    expect(gw.output()).not.toContain(SIGNING_SECRET);
  });

  it('answers error_code with error_message, and checks the key first (unknown key: 403)', async () => {
    const wrong = await gw.call('/signed-md5/get', { headers: { authorization: md5Key, 'x-signature': mashery('md5', md5Key, SIGNING_SECRET, nowSeconds() - 120) } });
    expect([wrong.status, wrong.text]).toEqual([418, ERROR('bad signature')]);
    const right = await gw.call('/signed-md5/get', { headers: { authorization: md5Key, 'x-signature': mashery('md5', md5Key, SIGNING_SECRET, nowSeconds()) } });
    expect(right.status).toBe(200);
    const unknown = await gw.call('/signed-md5/get', { headers: { authorization: 'no-such-key-0123456789', 'x-signature': mashery('md5', 'no-such-key-0123456789', SIGNING_SECRET, nowSeconds()) } });
    expect([unknown.status, unknown.text]).toEqual([403, ERROR('Access to this API has been disallowed')]);
  });

  it('refuses a definition whose signature cannot be checked, naming the field', async () => {
    const created = await gw.admin('POST', '/gw/apis', classicApi('signed-bad', '/signed-bad', upstream.url, {
      use_standard_auth: true,
      auth_configs: { authToken: { validate_signature: true, signature: { algorithm: 'hmac-sha1', header: 'X-Signature', secret: 's' } } },
    }));
    expect(created.status).toBe(400);
    expect(created.text).toContain('auth_configs.authToken.signature.algorithm must be one of MasherySHA256, MasheryMD5');
  });
});
