// JWT time claims end to end: a real gateway process refuses a token whose exp, iat or nbf is present but not a
// NumericDate (a string, a boolean, null, a list), which would otherwise never expire; numeric claims still work.
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, errorBody, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

const SECRET = 'a-shared-hmac-secret-of-the-time-claims-test';
const sign = (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(Buffer.from(SECRET));

describe('JWT time claims that are not NumericDates', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway();
    const api = classicApi('jwt-times', '/jwt-times', upstream.url, {
      enable_jwt: true,
      jwt_signing_method: 'hmac',
      jwt_source: Buffer.from(SECRET).toString('base64'),
      jwt_default_policies: ['jwt-times'],
    });
    expect((await gw.admin('POST', '/gw/apis', api)).status).toBe(200);
    const policy = { id: 'jwt-times', name: 'jwt times', access_rights: { 'jwt-times': { api_id: 'jwt-times', versions: [] } } };
    expect((await gw.admin('POST', '/gw/policies', policy)).status).toBe(200);
    await gw.reload();
  });

  it('refuses exp "1600000000", true, null and [1] with 401, and forwards nothing', async () => {
    const before = upstream.requests.length;
    for (const exp of ['1600000000', true, null, [1]]) {
      const answer = await gw.call('/jwt-times/x', { headers: { authorization: `Bearer ${await sign({ sub: 'mallory', exp })}` } });
      expect({ exp, status: answer.status, text: answer.text }).toEqual({
        exp,
        status: 401,
        text: errorBody('Key not authorized: the exp claim is not a NumericDate'),
      });
    }
    for (const claim of ['iat', 'nbf']) {
      const answer = await gw.call('/jwt-times/x', { headers: { authorization: `Bearer ${await sign({ sub: 'mallory', [claim]: '0' })}` } });
      expect(answer.status, claim).toBe(401);
    }
    expect(upstream.requests.length).toBe(before);
  });

  it('still admits numeric claims and refuses an expired numeric exp', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(
      (await gw.call('/jwt-times/x', { headers: { authorization: `Bearer ${await sign({ sub: 'alice', iat: now, nbf: now - 1, exp: now + 300 })}` } })).status,
    ).toBe(200);
    const expired = await gw.call('/jwt-times/x', { headers: { authorization: `Bearer ${await sign({ sub: 'alice', exp: now - 60 })}` } });
    expect(expired.text).toBe(errorBody('Key not authorized: token has expired'));
  });
});
