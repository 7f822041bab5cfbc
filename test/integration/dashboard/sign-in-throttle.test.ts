// Sign-in throttling on a real dashboard (PGlite): the web UI's POST /session and POST /session/admin, the developer
// portal's sign-in form and POST /api/portal/developers/verify_credentials answer 429 with Retry-After once a client
// address (each test signs in from its own loopback address, 127.0.0.x) or an account has failed too often, even for
// the right credentials, until the lock-out ends; a success resets the account; another address or account is
// unaffected; an unknown e-mail locks out exactly like a known one; X-Forwarded-For counts only from trusted_proxies. Also: behind a TLS proxy (session_cookie_secure)
// the web UI's cookie-authenticated writes accept the browser's https Origin, and refuse it without the setting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { createOrg, startDashboard, ADMIN_SECRET, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { waitUntil } from '../../support/wait.ts';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const agents: Agent[] = [];
afterAll(async () => {
  await Promise.all(agents.map((agent) => agent.close()));
});

/** Calls the dashboard from this loopback address (the dashboard listens on 127.0.0.1; any 127.0.0.x reaches it). */
function from(dashboard: RunningDashboard, localAddress: string) {
  const dispatcher = new Agent({ localAddress });
  agents.push(dispatcher);
  return async (method: 'POST' | 'GET' | 'PUT' | 'DELETE', path: string, body: string | object, headers: Record<string, string> = {}): Promise<Answer> => {
    const form = typeof body === 'string';
    const response = await request(`${dashboard.url}${path}`, {
      method,
      dispatcher,
      headers: { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json', ...headers },
      body: form ? body : JSON.stringify(body),
    });
    return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
  };
}

const loginForm = (email: string, password: string): string => new URLSearchParams({ email, password }).toString();

function expectLockedOut(answer: Answer, windowSeconds: number): void {
  expect(answer.status, answer.text).toBe(429);
  const retryAfter = Number(answer.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

function expectJsonLockedOut(answer: Answer, windowSeconds: number): void {
  expectLockedOut(answer, windowSeconds);
  expect(JSON.parse(answer.text)).toEqual({ Status: 'Error', Message: 'Too many failed sign-in attempts: try again later' });
}

const PASSWORD = 'a long developer password';

describe('sign-in throttle (per client address and per account)', () => {
  const WINDOW = 300;
  let dashboard: RunningDashboard;
  let org: TestOrg;

  beforeAll(async () => {
    dashboard = await startDashboard({
      sign_in_max_failures_per_account: 3,
      sign_in_max_failures_per_client: 6,
      sign_in_window_seconds: WINDOW,
      trusted_proxies: ['127.0.0.71'],
    });
    org = await createOrg(dashboard, 'Throttled');
    for (const email of ['one@dev.test', 'two@dev.test', 'three@dev.test', 'four@dev.test']) {
      expect((await org.call('POST', '/api/portal/developers', { email, password: PASSWORD })).status).toBe(200);
    }
  });

  it("POST /session: 429 after the client address's failures, even for a valid key; another address signs in", async () => {
    const call = from(dashboard, '127.0.0.11');
    for (let i = 0; i < 6; i += 1) expect((await call('POST', '/session', { access_key: `wrong-key-${i}` })).status).toBe(401);
    expectJsonLockedOut(await call('POST', '/session', { access_key: 'wrong-key-again' }), WINDOW);
    const locked = await call('POST', '/session', { access_key: org.key });
    expectJsonLockedOut(locked, WINDOW);
    expect(locked.headers['set-cookie']).toBeUndefined();
    expect((await from(dashboard, '127.0.0.12')('POST', '/session', { access_key: org.key })).status).toBe(200);
    // X-Forwarded-For from an address that is not a trusted proxy changes nothing.
    expectJsonLockedOut(await call('POST', '/session', { access_key: org.key }, { 'x-forwarded-for': '10.1.2.3' }), WINDOW);
  });

  it('POST /session behind a trusted proxy: the client is the X-Forwarded-For address the proxy gives', async () => {
    const proxy = from(dashboard, '127.0.0.71');
    for (let i = 0; i < 6; i += 1)
      expect((await proxy('POST', '/session', { access_key: `wrong-key-${i}` }, { 'x-forwarded-for': '10.0.0.1' })).status).toBe(401);
    expectJsonLockedOut(await proxy('POST', '/session', { access_key: org.key }, { 'x-forwarded-for': '10.0.0.1' }), WINDOW);
    expect((await proxy('POST', '/session', { access_key: org.key }, { 'x-forwarded-for': '10.0.0.2' })).status).toBe(200);
  });

  it('POST /session/admin: a success resets the account; 429 after its failures, even for the right secret; the admin-auth header still works', async () => {
    const call = from(dashboard, '127.0.0.21');
    for (let i = 0; i < 2; i += 1) expect((await call('POST', '/session/admin', { admin_secret: `wrong-${i}` })).status).toBe(401);
    expect((await call('POST', '/session/admin', { admin_secret: ADMIN_SECRET })).status).toBe(200);
    for (let i = 0; i < 3; i += 1) expect((await call('POST', '/session/admin', { admin_secret: `wrong-${i}` })).status).toBe(401);
    expectJsonLockedOut(await call('POST', '/session/admin', { admin_secret: ADMIN_SECRET }), WINDOW);
    // The account is locked from any address; the client's own count (5 failures, under 6) did not lock it.
    expectJsonLockedOut(await from(dashboard, '127.0.0.22')('POST', '/session/admin', { admin_secret: ADMIN_SECRET }), WINDOW);
    expect((await call('POST', '/session', { access_key: org.key })).status).toBe(200);
    expect((await dashboard.admin('GET', '/admin/organisations?p=-2')).status).toBe(200);
  });

  it('portal sign-in form: a success resets the account; 429 with an alert after its failures, even for the right password; another account and address unaffected', async () => {
    const call = from(dashboard, '127.0.0.31');
    const login = (email: string, password: string): Promise<Answer> => call('POST', `/portal/${org.id}/login/`, loginForm(email, password));
    for (let i = 0; i < 2; i += 1) expect((await login('one@dev.test', `wrong ${i}`)).status).toBe(401);
    expect((await login('one@dev.test', PASSWORD)).status).toBe(303);
    for (let i = 0; i < 3; i += 1) expect((await login('One@Dev.test', `wrong ${i}`)).status).toBe(401);
    const locked = await login('one@dev.test', PASSWORD);
    expectLockedOut(locked, WINDOW);
    expect(locked.headers['content-type']).toMatch(/^text\/html/);
    expect(locked.text).toMatch(
      /<p role="alert" class="alert" id="sign-in-problem">Too many failed sign-in attempts\. Wait \d+ minutes?, then try again\.<\/p>/,
    );
    expect(locked.headers['set-cookie']).toBeUndefined();
    expect((await login('two@dev.test', PASSWORD)).status).toBe(303);
    const elsewhere = from(dashboard, '127.0.0.32');
    expectLockedOut(await elsewhere('POST', `/portal/${org.id}/login/`, loginForm('one@dev.test', PASSWORD)), WINDOW);
  });

  it('portal sign-in form: an unknown e-mail is locked out exactly like a known one (no hint which e-mails exist)', async () => {
    const call = from(dashboard, '127.0.0.33');
    const login = (email: string): Promise<Answer> => call('POST', `/portal/${org.id}/login/`, loginForm(email, 'wrong password'));
    const unknown = [await login('nobody@dev.test'), await login('nobody@dev.test'), await login('nobody@dev.test'), await login('nobody@dev.test')];
    const known = [await login('three@dev.test'), await login('three@dev.test')];
    expect(unknown.map((a) => a.status)).toEqual([401, 401, 401, 429]);
    expect(known.map((a) => a.status)).toEqual([401, 401]);
    const message = (answer: Answer): string => /role="alert"[^>]*>([^<]*)</.exec(answer.text)![1]!;
    expect(message(unknown[0]!)).toBe(message(known[0]!));
  });

  it('POST /api/portal/developers/verify_credentials: a success resets the account; 429 after its failures, even for the right password; another account unaffected', async () => {
    const verify = (username: string, password: string) => org.call('POST', '/api/portal/developers/verify_credentials', { username, password });
    for (let i = 0; i < 2; i += 1) expect((await verify('four@dev.test', `wrong ${i}`)).status).toBe(401);
    expect((await verify('four@dev.test', PASSWORD)).status).toBe(200);
    for (let i = 0; i < 3; i += 1) expect((await verify('four@dev.test', `wrong ${i}`)).status).toBe(401);
    const locked = await verify('four@dev.test', PASSWORD);
    expectJsonLockedOut({ status: locked.status, headers: locked.headers, text: locked.text }, WINDOW);
    expect((await verify('two@dev.test', PASSWORD)).status).toBe(200);
    // The portal form shares the account: it is locked there too.
    expectLockedOut(await from(dashboard, '127.0.0.41')('POST', `/portal/${org.id}/login/`, loginForm('four@dev.test', PASSWORD)), WINDOW);
  });
});

describe("sign-in throttle lock-out ends with its window; session_cookie_secure accepts the TLS proxy's Origin", () => {
  const WINDOW = 3;
  let dashboard: RunningDashboard;
  let plain: RunningDashboard;
  let org: TestOrg;

  beforeAll(async () => {
    [dashboard, plain] = await Promise.all([
      startDashboard({ sign_in_max_failures_per_account: 1, sign_in_max_failures_per_client: 1, sign_in_window_seconds: WINDOW, session_cookie_secure: true }),
      startDashboard({ password_check_concurrency: 1, password_check_queue: 1 }),
    ]);
    org = await createOrg(dashboard, 'Short window');
    expect((await org.call('POST', '/api/portal/developers', { email: 'dev@short.test', password: PASSWORD })).status).toBe(200);
  });

  const endpoints = (): { name: string; address: string; wrong: object | string; right: object | string; path: string; ok: number }[] => [
    { name: 'POST /session', address: '127.0.0.51', path: '/session', wrong: { access_key: 'wrong' }, right: { access_key: org.key }, ok: 200 },
    {
      name: 'POST /session/admin',
      address: '127.0.0.52',
      path: '/session/admin',
      wrong: { admin_secret: 'wrong' },
      right: { admin_secret: ADMIN_SECRET },
      ok: 200,
    },
    {
      name: 'portal sign-in form',
      address: '127.0.0.53',
      path: `/portal/${org.id}/login/`,
      wrong: loginForm('dev@short.test', 'wrong'),
      right: loginForm('dev@short.test', PASSWORD),
      ok: 303,
    },
  ];

  it('answers 429 to the right credentials while locked out, and signs in once the lock-out has passed', async () => {
    // The three endpoints at once (their own addresses and accounts), so their windows pass together; then
    // verify_credentials, which shares the portal form's account.
    await Promise.all(
      endpoints().map(async (endpoint) => {
        const call = from(dashboard, endpoint.address);
        expect((await call('POST', endpoint.path, endpoint.wrong)).status, endpoint.name).toBe(401);
        expectLockedOut(await call('POST', endpoint.path, endpoint.right), WINDOW);
        await waitUntil(
          `${endpoint.name} to accept the right credentials again`,
          async () => (await call('POST', endpoint.path, endpoint.right)).status === endpoint.ok,
          { intervalMs: 200 },
        );
      }),
    );
    const verify = (password: string) => org.call('POST', '/api/portal/developers/verify_credentials', { username: 'dev@short.test', password });
    expect((await verify('wrong')).status).toBe(401);
    expect((await verify(PASSWORD)).status).toBe(429);
    await waitUntil('verify_credentials to accept the right password again', async () => (await verify(PASSWORD)).status === 200, { intervalMs: 200 });
  });

  it('accepts cookie-authenticated writes with Origin https://<host> when session_cookie_secure is set, and refuses them without', async () => {
    for (const [target, accepted] of [
      [dashboard, true],
      [plain, false],
    ] as const) {
      const key = target === dashboard ? org.key : (await createOrg(plain, 'Plain')).key;
      const host = new URL(target.url).host;
      const origin = { origin: `https://${host}` };
      const call = from(target, '127.0.0.61');
      const signIn = await call('POST', '/session', { access_key: key }, origin);
      expect(signIn.status, signIn.text).toBe(accepted ? 200 : 403);
      if (!accepted) {
        // Signed in without an Origin, the session's writes with the proxy's Origin are still refused.
        const plainSignIn = await call('POST', '/session', { access_key: key });
        expect(plainSignIn.status).toBe(200);
        Object.assign(signIn, plainSignIn);
      }
      const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
      const csrf = (JSON.parse(signIn.text) as { csrf_token: string }).csrf_token;
      const write = await call('PUT', '/api/portal/configuration', {}, { ...origin, cookie, 'x-csrf-token': csrf });
      expect(write.status, write.text).toBe(accepted ? 200 : 403);
      const signOut = await call('DELETE', '/session', {}, { ...origin, cookie, 'x-csrf-token': csrf });
      expect(signOut.status, signOut.text).toBe(accepted ? 200 : 403);
      const admin = await call('POST', '/session/admin', { admin_secret: ADMIN_SECRET }, origin);
      expect(admin.status, admin.text).toBe(accepted ? 200 : 403);
    }
  });

  it('bounds concurrent password checks: a burst of verify_credentials beyond password_check_concurrency + password_check_queue gets 503, never a 500', async () => {
    const other = await createOrg(plain, 'Burst');
    let round = 0;
    const statuses = await waitUntil('a burst to overflow the password-check queue', async () => {
      round += 1;
      const caller = plain.as(await other.user({ portal: 'write' }));
      const burst = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          caller('POST', '/api/portal/developers/verify_credentials', { username: `burst-${round}-${i}@dev.test`, password: 'wrong' }),
        ),
      );
      for (const answer of burst) expect([401, 503], answer.text).toContain(answer.status);
      const busy = burst.filter((answer) => answer.status === 503);
      for (const answer of busy)
        expect(answer.json<{ Status: string; Message: string }>()).toEqual({
          Status: 'Error',
          Message: expect.stringContaining('password_check_concurrency') as string,
        });
      return busy.length > 0 && burst.map((answer) => answer.status);
    });
    expect(statuses).toContain(401);
  });
});
