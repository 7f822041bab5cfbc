// JavaScript custom authentication (custom_middleware.auth_check, driver otto) through a real gateway process and a
// recording upstream: Tyk's sample plugin contract — ReturnOverrides refuse (401 `Header missing (JS middleware)`),
// ReturnAuthData(request, session) with AuthValue admits — and the returned session enforced by the steps after
// it: access rights, rate limit, quota (counted per AuthValue), the request edits applied; a throwing plugin 500.
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, errorBody, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

/** Admits `Bearer <user>` for the users it knows, each with its own session; refuses the rest as Tyk's sample does. */
const AUTH_PLUGIN = String.raw`
var customAuth = new TykJS.TykMiddleware.NewMiddleware({});
customAuth.NewProcessRequest(function (request, session, config) {
  var header = (request.Headers['Authorization'] || [])[0];
  if (header === undefined) {
    request.ReturnOverrides.ResponseCode = 401;
    request.ReturnOverrides.ResponseError = 'Header missing (JS middleware)';
    return customAuth.ReturnAuthData(request, {});
  }
  var user = header.replace(/^Bearer /, '');
  if (user === 'explode') throw new Error('the plugin broke');
  var sessions = {
    open: { rate: 100, per: 1, quota_max: -1, meta_data: { tier: 'open' } },
    quota: { rate: 100, per: 1, quota_max: 2, quota_renewal_rate: 3600 },
    slow: { rate: 1, per: 3600, quota_max: -1 },
    elsewhere: { rate: 100, per: 1, quota_max: -1, access_rights: { other: { api_id: 'other', versions: [] } } },
  };
  if (!sessions[user]) {
    request.ReturnOverrides.ResponseCode = 403;
    request.ReturnOverrides.ResponseError = 'Key not authorised';
    return customAuth.ReturnAuthData(request, {});
  }
  request.SetHeaders['X-Auth-User'] = user;
  var admitted = customAuth.ReturnAuthData(request, sessions[user]);
  admitted.AuthValue = 'custom-' + user;
  return admitted;
});`;

describe('JavaScript custom authentication (auth_check)', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  const call = async (user?: string) => {
    const seen = upstream.requests.length;
    const result = await gw.call('/custom/x', { headers: user ? { authorization: `Bearer ${user}` } : {} });
    return { result, forwarded: upstream.requests.slice(seen) };
  };

  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway({ enable_jsvm: true, jsvm_workers: 1 });
    const api = classicApi('custom', '/custom', upstream.url, {
      enable_coprocess_auth: true,
      custom_middleware: { driver: 'otto', auth_check: { name: 'customAuth', code: AUTH_PLUGIN } },
    });
    const created = await gw.admin('POST', '/gw/apis', api);
    expect(created.status, created.text).toBe(200);
    await gw.reload();
  });

  it("refuses as the plugin says (Tyk's sample 401, a 403), the upstream never reached", async () => {
    const missing = await call();
    expect(missing.result).toMatchObject({ status: 401, text: errorBody('Header missing (JS middleware)') });
    const unknown = await call('stranger');
    expect(unknown.result).toMatchObject({ status: 403, text: errorBody('Key not authorised') });
    expect([...missing.forwarded, ...unknown.forwarded]).toEqual([]);
  });

  it("admits with the plugin's session, its request edits applied", async () => {
    const { result, forwarded } = await call('open');
    expect(result.status, result.text).toBe(200);
    expect(forwarded).toHaveLength(1);
    expect(forwarded[0]!.headers['x-auth-user']).toBe('open');
  });

  it("enforces the session's quota, counted under its AuthValue", async () => {
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await call('quota')).result);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 403]);
    expect(answers[0]!.headers['x-ratelimit-limit']).toBe('2');
    expect(answers[2]!.text).toBe(errorBody('Quota exceeded'));
    // Another user's counters are its own.
    expect((await call('open')).result.status).toBe(200);
  });

  it("enforces the session's rate limit and access rights", async () => {
    expect((await call('slow')).result.status).toBe(200);
    expect((await call('slow')).result.status).toBe(429);
    const elsewhere = await call('elsewhere');
    expect(elsewhere.result).toMatchObject({ status: 403, text: errorBody('Access to this API has been disallowed') });
    expect(elsewhere.forwarded).toEqual([]);
  });

  it('answers a failing plugin 500 `Internal Server Error`', async () => {
    const { result, forwarded } = await call('explode');
    expect(result).toMatchObject({ status: 500, text: errorBody('Internal Server Error') });
    expect(forwarded).toEqual([]);
  });
});
