// Request signatures end to end through a real gateway process and a real upstream: the authentication token's
// Mashery signature (auth_configs.authToken.validate_signature) and HMAC request signing (enable_signature_checking),
// signatures minted here.
import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addApi, addKey, classicApi, errorBody, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

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
      auth_configs: {
        authToken: { validate_signature: true, signature: { algorithm, header: 'X-Signature', secret: SIGNING_SECRET, allowed_clock_skew: 60, ...extra } },
      },
    });
    await addApi(gw, classicApi('signed', '/signed', upstream.url, signed('MasherySHA256')));
    await addApi(
      gw,
      classicApi('signed-md5', '/signed-md5', upstream.url, signed('MasheryMD5', { error_code: 418, error_message: 'bad signature', allowed_clock_skew: 5 })),
    );
    const oas = {
      openapi: '3.0.3',
      info: { title: 'signed-oas', version: '1' },
      paths: {},
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
      'x-gw-api-gateway': {
        info: { id: 'signed-oas', name: 'signed-oas', state: { active: true } },
        upstream: { url: upstream.url },
        server: {
          listenPath: { value: '/signed-oas', strip: true },
          authentication: {
            enabled: true,
            securitySchemes: {
              token: {
                enabled: true,
                signatureValidation: {
                  enabled: true,
                  algorithm: 'MasherySHA256',
                  header: 'X-Signature',
                  secret: SIGNING_SECRET,
                  allowedClockSkew: 10,
                  errorCode: 403,
                },
              },
            },
          },
        },
      },
    };
    expect((await gw.admin('POST', '/gw/apis/oas', oas)).status).toBe(200);
    await gw.reload();
    key = await addKey(gw, ['signed', 'signed-oas']);
    md5Key = await addKey(gw, ['signed-md5']);
  });

  it('accepts a signature of key + secret + now, and one within the allowed clock skew', async () => {
    const now = await gw.call('/signed/get', { headers: { authorization: key, 'x-signature': mashery('sha256', key, SIGNING_SECRET, nowSeconds()) } });
    expect(now.status).toBe(200);
    const skewed = await gw.call('/signed/get', { headers: { authorization: key, 'x-signature': mashery('sha256', key, SIGNING_SECRET, nowSeconds() - 30) } });
    expect(skewed.status).toBe(200);
    const upperCase = await gw.call('/signed/get', {
      headers: { authorization: key, 'x-signature': mashery('sha256', key, SIGNING_SECRET, nowSeconds()).toUpperCase() },
    });
    expect(upperCase.status).toBe(200);
  });

  it('refuses a missing signature, a wrong secret and a signature outside the skew with 401 and Tyk message', async () => {
    const refused = errorBody('Request signature verification failed');
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
    const wrong = await gw.call('/signed-md5/get', {
      headers: { authorization: md5Key, 'x-signature': mashery('md5', md5Key, SIGNING_SECRET, nowSeconds() - 120) },
    });
    expect([wrong.status, wrong.text]).toEqual([418, errorBody('bad signature')]);
    const right = await gw.call('/signed-md5/get', { headers: { authorization: md5Key, 'x-signature': mashery('md5', md5Key, SIGNING_SECRET, nowSeconds()) } });
    expect(right.status).toBe(200);
    const unknown = await gw.call('/signed-md5/get', {
      headers: { authorization: 'no-such-key-0123456789', 'x-signature': mashery('md5', 'no-such-key-0123456789', SIGNING_SECRET, nowSeconds()) },
    });
    expect([unknown.status, unknown.text]).toEqual([403, errorBody('Access to this API has been disallowed')]);
  });

  it('reads signatureValidation from an OAS apiKey scheme', async () => {
    const valid = await gw.call('/signed-oas/get', { headers: { authorization: key, 'x-signature': mashery('sha256', key, SIGNING_SECRET, nowSeconds()) } });
    expect(valid.status).toBe(200);
    const wrong = await gw.call('/signed-oas/get', { headers: { authorization: key, 'x-signature': mashery('sha256', key, 'nope', nowSeconds()) } });
    expect([wrong.status, wrong.text]).toEqual([403, errorBody('Request signature verification failed')]);
  });

  it('refuses a definition whose signature cannot be checked, naming the field', async () => {
    const created = await gw.admin(
      'POST',
      '/gw/apis',
      classicApi('signed-bad', '/signed-bad', upstream.url, {
        use_standard_auth: true,
        auth_configs: { authToken: { validate_signature: true, signature: { algorithm: 'hmac-sha1', header: 'X-Signature', secret: 's' } } },
      }),
    );
    expect(created.status).toBe(400);
    expect(created.text).toContain('auth_configs.authToken.signature.algorithm must be one of MasherySHA256, MasheryMD5');
  });
});

/** The Authorization value of an HTTP signature over `headers` of this request, with `secret`. */
function httpSignature(options: {
  keyId: string;
  secret: string;
  algorithm: string;
  digest: string;
  headers: Record<string, string>;
  requestTarget?: string;
  escape?: (value: string) => string;
}): string {
  const names = [...(options.requestTarget ? ['(request-target)'] : []), ...Object.keys(options.headers)];
  const text = names
    .map((name) => (name === '(request-target)' ? `(request-target): ${options.requestTarget}` : `${name}: ${options.headers[name]}`))
    .join('\n');
  const base64 = createHmac(options.digest, options.secret).update(text).digest('base64');
  const signature = (options.escape ?? encodeURIComponent)(base64);
  return `Signature keyId="${options.keyId}",algorithm="${options.algorithm}",headers="${names.join(' ')}",signature="${signature}"`;
}

describe('HMAC request signing (enable_signature_checking)', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  let keyId: string;
  let secret: string;
  let plainKey: string;
  afterAll(async () => upstream.close());

  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway();
    await addApi(
      gw,
      classicApi('hmac', '/hmac', upstream.url, {
        enable_signature_checking: true,
        hmac_allowed_clock_skew: 5000,
        hmac_allowed_algorithms: ['hmac-sha256', 'hmac-sha1'],
      }),
    );
    const oas = {
      openapi: '3.0.3',
      info: { title: 'hmac-oas', version: '1' },
      paths: {},
      'x-gw-api-gateway': {
        info: { id: 'hmac-oas', name: 'hmac-oas', state: { active: true } },
        upstream: { url: upstream.url },
        server: {
          listenPath: { value: '/hmac-oas', strip: true },
          authentication: { enabled: true, hmac: { enabled: true, allowedAlgorithms: ['hmac-sha512'], allowedClockSkew: 5000 } },
        },
      },
    };
    expect((await gw.admin('POST', '/gw/apis/oas', oas)).status).toBe(200);
    await gw.reload();
    keyId = await addKey(gw, ['hmac', 'hmac-oas'], { hmac_enabled: true });
    plainKey = await addKey(gw, ['hmac']);
    const stored = await gw.admin('GET', `/gw/keys/${keyId}`);
    secret = stored.json<{ hmac_string: string }>().hmac_string;
    expect(secret).toMatch(/^[A-Za-z0-9+/]+=*$/);
  });

  const REFUSED = [400, errorBody('Authorization field missing, malformed or invalid')];
  const call = async (authorization: string | undefined, headers: Record<string, string>) => {
    const result = await gw.call('/hmac/anything?x=1', { headers: { ...headers, ...(authorization ? { authorization } : {}) } });
    return [result.status, result.status === 200 ? 'ok' : result.text];
  };

  it('accepts a signature of the date (default headers) and of (request-target) plus custom headers, in sha1 and sha256', async () => {
    const date = new Date().toUTCString();
    expect(await call(httpSignature({ keyId, secret, algorithm: 'hmac-sha256', digest: 'sha256', headers: { date } }), { date })).toEqual([200, 'ok']);
    const headers = { date, 'x-custom': 'value' };
    const signed = httpSignature({ keyId, secret, algorithm: 'hmac-sha1', digest: 'sha1', headers, requestTarget: 'get /hmac/anything' });
    expect(await call(signed, headers)).toEqual([200, 'ok']);
    // X-Aux-Date stands for Date (browsers cannot set Date); lower-case %xx escapes are accepted.
    const aux = { 'x-aux-date': date };
    const lower = httpSignature({
      keyId,
      secret,
      algorithm: 'hmac-sha256',
      digest: 'sha256',
      headers: { date },
      escape: (v) => encodeURIComponent(v).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    });
    expect(await call(lower, aux)).toEqual([200, 'ok']);
  });

  it('refuses a wrong secret, a skewed or missing Date, a disallowed algorithm, a key without hmac, a malformed header, with 400', async () => {
    const date = new Date().toUTCString();
    const old = new Date(Date.now() - 60_000).toUTCString();
    const cases: Record<string, [string | undefined, Record<string, string>]> = {
      'no header': [undefined, { date }],
      'wrong secret': [httpSignature({ keyId, secret: 'not-the-secret', algorithm: 'hmac-sha256', digest: 'sha256', headers: { date } }), { date }],
      'skewed date': [httpSignature({ keyId, secret, algorithm: 'hmac-sha256', digest: 'sha256', headers: { date: old } }), { date: old }],
      'no date': [httpSignature({ keyId, secret, algorithm: 'hmac-sha256', digest: 'sha256', headers: { 'x-custom': 'v' } }), { 'x-custom': 'v' }],
      'algorithm not allowed': [httpSignature({ keyId, secret, algorithm: 'hmac-sha512', digest: 'sha512', headers: { date } }), { date }],
      'key without hmac_enabled': [httpSignature({ keyId: plainKey, secret, algorithm: 'hmac-sha256', digest: 'sha256', headers: { date } }), { date }],
      'unknown key': [httpSignature({ keyId: 'no-such-key', secret, algorithm: 'hmac-sha256', digest: 'sha256', headers: { date } }), { date }],
      'unknown field': [`Signature keyId="${keyId}",nonce="1",signature="x"`, { date }],
      'signed header changed': [
        httpSignature({ keyId, secret, algorithm: 'hmac-sha256', digest: 'sha256', headers: { date, 'x-custom': 'signed' } }),
        { date, 'x-custom': 'tampered' },
      ],
    };
    for (const [name, [authorization, headers]] of Object.entries(cases)) {
      expect({ name, result: await call(authorization, headers) }).toEqual({ name, result: REFUSED });
    }
    expect(gw.output()).not.toContain(secret);
  });

  it('reads server.authentication.hmac from an OAS API', async () => {
    const date = new Date().toUTCString();
    const sign = (algorithm: string, digest: string) => httpSignature({ keyId, secret, algorithm, digest, headers: { date } });
    const ok = await gw.call('/hmac-oas/x', { headers: { date, authorization: sign('hmac-sha512', 'sha512') } });
    expect(ok.status).toBe(200);
    const notAllowed = await gw.call('/hmac-oas/x', { headers: { date, authorization: sign('hmac-sha256', 'sha256') } });
    expect([notAllowed.status, notAllowed.text]).toEqual(REFUSED);
  });

  it('refuses a definition naming an algorithm the gateway cannot verify', async () => {
    const created = await gw.admin(
      'POST',
      '/gw/apis',
      classicApi('hmac-rsa', '/hmac-rsa', upstream.url, { enable_signature_checking: true, hmac_allowed_algorithms: ['rsa-sha256'] }),
    );
    expect(created.status).toBe(400);
    expect(created.text).toContain('hmac_allowed_algorithms[0] rsa-sha256 signatures are not supported by this gateway yet');
  });
});
