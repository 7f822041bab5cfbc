// The developer portal in a real browser (Debian's Chromium through playwright-core) against a real `gw dashboard`
// on PostgreSQL and a real gateway fed by it: the catalogue an admin published through /api/portal/..., the API
// page rendering its OpenAPI document (Swagger UI, bundled, loaded on that page only), a developer signing up,
// signing out and in, requesting a key that an admin approves through /api/portal/requests/approve/{id}, seeing
// that key once and calling the API through the gateway with it, then its usage on "My keys". A developer of
// another organisation sees none of it (pages, documents, requests or cookies). The tests tell one story in order,
// as a developer would: run the file, not one test.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { createOrg, NODE_SECRET, startDashboard, type RunningDashboard, type TestOrg } from '../support/dashboard.ts';
import { startGateway } from '../support/gateway.ts';
import { useDatabases } from '../support/postgres.ts';
import { startUpstream, type Upstream } from '../support/upstream.ts';
import { waitUntil } from '../support/wait.ts';
import { publishCatalogue, WEATHER_OPENAPI, type Published } from './portal-fixtures.ts';

describe('developer portal in Chromium', () => {
  const db = useDatabases('postgres');
  let dashboard: RunningDashboard;
  let browser: Browser;
  let upstream: Upstream;
  let a: TestOrg;
  let b: TestOrg;
  let acme: Published;
  let other: Published;
  /** The developer's key, seen once in the portal. */
  let developerKey: string;
  const email = `dev-${process.pid}@example.test`;
  const password = 'correct horse battery';

  const portal = (org: TestOrg, path = ''): string => `${dashboard.url}/portal/${org.id}/${path}`;

  beforeAll(async () => {
    [browser, upstream] = await Promise.all([launchBrowser(), startUpstream()]);
    dashboard = await startDashboard(db.config());
    a = await createOrg(dashboard, 'Acme');
    b = await createOrg(dashboard, 'Other Org');
    acme = await publishCatalogue(a, {
      name: 'Weather',
      listenPath: '/weather/',
      upstream: upstream.url,
      config: { require_key_approval: true, signup_fields: ['Company'], key_request_fields: ['Use case'] },
    });
    other = await publishCatalogue(b, {
      name: 'Other secret API',
      listenPath: '/other-secret/',
      upstream: upstream.url,
      config: { require_key_approval: false },
    });
  });

  /** Console errors of every page (a Content-Security-Policy refusal shows there). */
  const consoleErrors: string[] = [];
  const newPage = async (): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.on('pageerror', (error) => process.stderr.write(`[page error] ${error.stack ?? error.message}\n`));
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    return { context, page };
  };

  const signIn = async (page: Page, org: TestOrg, who = email): Promise<void> => {
    await page.goto(portal(org, 'login/'));
    await page.getByLabel('E-mail', { exact: true }).fill(who);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'My keys' }).waitFor();
  };

  it("shows the organisation's catalogue to anyone, without script; another organisation's entries never appear", async () => {
    const { context, page } = await newPage();
    const started = Date.now();
    await page.goto(portal(a));
    await page.getByRole('heading', { name: 'API catalogue' }).waitFor();
    process.stderr.write(`[measure] catalogue page: loaded ${Date.now() - started} ms after navigation (not asserted)\n`);
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Weather' }) });
    await card.getByText('Auth token').waitFor();
    await card.getByText('Forecasts for any city, hour by hour.').waitFor();
    await card.getByRole('link', { name: 'View documentation of Weather' }).waitFor();
    await card.getByRole('link', { name: 'Request an API key for Weather' }).waitFor();
    // The hidden entry and the other organisation's are not listed.
    expect(await page.getByText('Hidden draft').count()).toBe(0);
    expect(await page.getByText('Other secret API').count()).toBe(0);
    // Server-rendered: no script on the catalogue (the renderer loads on the API page only).
    expect(await page.locator('script').count()).toBe(0);
    await screenshot(page, 'portal-catalogue');
    await context.close();
    // The server's side of the page: 50 requests one after another (median printed, not asserted).
    const times: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t0 = performance.now();
      expect((await dashboard.anonymous('GET', `/portal/${a.id}/apis/`)).status).toBe(200);
      times.push(performance.now() - t0);
    }
    times.sort((x, y) => x - y);
    process.stderr.write(
      `[measure] catalogue page from the server: median ${times[25]!.toFixed(1)} ms, slowest ${times[49]!.toFixed(1)} ms over 50 sequential requests (not asserted)\n`,
    );
  });

  it("renders the entry's OpenAPI document on the API page with the bundled renderer, nothing from another origin", async () => {
    const { context, page } = await newPage();
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(dashboard.url)) foreign.push(request.url());
    });
    await page.goto(portal(a, 'apis/'));
    await page.getByRole('link', { name: 'View documentation of Weather' }).click();
    await page.getByRole('heading', { name: 'Weather', exact: true, level: 1 }).waitFor();
    const started = Date.now();
    // Swagger UI draws the document's title and each operation.
    await page.locator('.swagger-ui .title', { hasText: WEATHER_OPENAPI.info.title }).waitFor();
    await page.locator('.opblock-summary-path', { hasText: '/forecast/{city}' }).waitFor();
    process.stderr.write(`[measure] API page: document rendered ${Date.now() - started} ms after the page's heading (not asserted)\n`);
    expect(await page.locator('script[src*="api-docs-"]').count()).toBe(1);
    expect(foreign).toEqual([]);
    // Nothing the page needs is refused by its Content-Security-Policy (nor by the catalogue's, before).
    expect(consoleErrors).toEqual([]);
    await screenshot(page, 'portal-api');
    // The document itself, as stored (base64) decoded.
    const document = await page.request.get(portal(a, `apis/${acme.docId}/documentation.json`));
    expect(await document.json()).toEqual(WEATHER_OPENAPI);
    await context.close();
  });

  it('signs a developer up with the configured sign-up field, into an HttpOnly SameSite=Strict session scoped to the portal', async () => {
    const { context, page } = await newPage();
    await page.goto(portal(a));
    await page.getByRole('link', { name: 'Register' }).click();
    await page.getByLabel('E-mail', { exact: true }).fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.locator('#email-note').waitFor();
    expect(await page.getByLabel('E-mail', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#password-note').textContent()).toContain('at least 8 characters');
    // The password is never sent back into the page.
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('');
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Company', { exact: true }).fill('Acme Widgets');
    await screenshot(page, 'portal-register');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('heading', { name: 'My keys' }).waitFor();
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'gw_portal_session', httpOnly: true, sameSite: 'Strict', path: `/portal/${a.id}/` });
    // The admin API lists the developer with the sign-up field.
    const developers = (await a.call('GET', '/api/portal/developers')).json<{ Data: { email: string; fields: Record<string, string> }[] }>().Data;
    expect(developers).toEqual([expect.objectContaining({ email, fields: { Company: 'Acme Widgets' } })]);
    // A second sign-up with the same e-mail is refused at the field. Signing out ends the session on the server.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();
    expect((await dashboard.anonymous('GET', `/portal/${a.id}/member/`, undefined, { cookie: `gw_portal_session=${cookie!.value}` })).status).toBe(303);
    await page.goto(portal(a, 'register/'));
    await page.getByLabel('E-mail', { exact: true }).fill(email.toUpperCase());
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.locator('#email-note', { hasText: 'already registered' }).waitFor();
    await context.close();
  });

  it('signs in from the keyboard alone; a wrong password is refused without saying which part was wrong', async () => {
    const { context, page } = await newPage();
    await page.goto(portal(a, 'login/'));
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement.id')).toBe('main');
    await page.getByLabel('E-mail', { exact: true }).focus();
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('wrong password');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'do not match an active developer account' }).waitFor();
    await screenshot(page, 'portal-sign-in');
    const unlabelled = await page.evaluate(
      `[...document.querySelectorAll('input:not([type=hidden]), select, textarea')].filter((c) => c.labels.length === 0).length`,
    );
    expect(unlabelled).toBe(0);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await page.getByRole('heading', { name: 'My keys' }).waitFor();
    await context.close();
  });

  it('requests a key with the configured field; it waits until an admin approves it, then is shown once', async () => {
    const { context, page } = await newPage();
    await signIn(page, a);
    await page.getByRole('link', { name: 'API catalogue', exact: true }).click();
    await page.getByRole('link', { name: 'Request an API key for Weather' }).click();
    await page.getByLabel('Use case', { exact: true }).fill('Weather widget');
    await page.getByRole('button', { name: 'Request key' }).click();
    await page.getByRole('status').filter({ hasText: 'Your key request was sent' }).waitFor();
    await page.getByRole('list', { name: 'Requests waiting for approval' }).getByText('Weather').waitFor();

    const pending = (await a.call('GET', '/api/portal/requests?approved=false')).json<{
      Data: { _id?: string; id?: string; fields: Record<string, string> }[];
    }>().Data;
    expect(pending).toHaveLength(1);
    expect(pending[0]!.fields).toEqual({ 'Use case': 'Weather widget' });
    const requestId = pending[0]!.id ?? pending[0]!._id!;
    const approved = await a.call('PUT', `/api/portal/requests/approve/${requestId}`);
    expect(approved.status, approved.text).toBe(200);
    const rawKey = approved.json<{ RawKey: string }>().RawKey;

    await page.reload();
    // The key waits behind a button (a form post: a prefetch of the page never spends it).
    await page.getByText('Your key for Weather was approved.').waitFor();
    await page.getByRole('button', { name: 'Show my new key' }).click();
    const shown = page.getByLabel('Your new API key');
    await shown.waitFor();
    developerKey = (await shown.textContent())!;
    expect(developerKey).toBe(rawKey);
    await screenshot(page, 'portal-keys');
    // Once: My keys lists the key by its short id only, and the same post again shows nothing.
    await page.goto(portal(a, 'member/'));
    await page.getByRole('heading', { name: 'Keys', exact: true }).waitFor();
    expect(await page.getByText('No requests are waiting.').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Show my new key' }).count()).toBe(0);
    const token = await page.locator('input[name="csrf_token"]').first().inputValue();
    const again = await page.request.post(portal(a, 'member/keys/'), { form: { csrf_token: token } });
    expect(await again.text()).toContain('There is no new key to show');
    expect(await again.text()).not.toContain(developerKey);
    expect(await page.getByText(developerKey).count()).toBe(0);
    expect(await page.getByRole('row').filter({ hasText: 'Weather' }).count()).toBe(1);
    await context.close();
  });

  it('calls the API through a real gateway with that key, and sees the calls as usage on My keys', async () => {
    const gateway = await startGateway({
      use_db_app_configs: true,
      policies: { policy_source: 'service' },
      db_app_conf_options: { connection_string: dashboard.url, node_secret: NODE_SECRET, poll_interval_seconds: 0.3 },
      analytics_config: { flush_interval: 100 },
    });
    const asDeveloper = { headers: { authorization: developerKey } };
    await waitUntil("the gateway to serve Weather with the developer's key", async () => {
      const { status, text } = await gateway.call('/weather/forecast/paris', asDeveloper);
      if (status !== 200 && status !== 404 && status !== 403) throw new Error(`the gateway answered ${status}: ${text}`);
      return status === 200;
    });
    expect((await gateway.call('/weather/forecast/paris')).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await gateway.call(`/weather/forecast/city-${i}`, asDeveloper)).status).toBe(200);
    expect(upstream.requests.filter((r) => r.url.startsWith('/forecast/')).length).toBeGreaterThanOrEqual(4);

    const { context, page } = await newPage();
    await signIn(page, a);
    const row = page.getByRole('row').filter({ hasText: 'Weather' });
    // The first 200 and the three calls after it (attempts before the gateway loaded the key are not the key's).
    await waitUntil("the 4 calls in the key's usage", async () => {
      await page.reload();
      const requests = Number(await row.locator('td').nth(1).textContent());
      return requests >= 4;
    });
    await screenshot(page, 'portal-usage');
    await context.close();
  });

  it('shows a developer of another organisation none of it, and keys there are issued at once', async () => {
    const { context, page } = await newPage();
    // The same e-mail is a different developer in another organisation's portal: Acme's password does not open it.
    await page.goto(portal(b, 'login/'));
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'do not match' }).waitFor();
    await page.goto(portal(b, 'register/'));
    await page.getByLabel('E-mail', { exact: true }).fill(`other-${email}`);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('heading', { name: 'My keys' }).waitFor();
    await page.getByText('You have no keys yet.').waitFor();

    await page.goto(portal(b, 'apis/'));
    await page.getByRole('heading', { name: 'Other secret API' }).waitFor();
    expect(await page.getByText('Weather').count()).toBe(0);
    // Acme's document, its raw file and its key request page do not exist in this portal.
    for (const path of [
      `apis/${acme.docId}/documentation/`,
      `apis/${acme.docId}/documentation.json`,
      `member/policies/${encodeURIComponent(acme.policyId)}/request/`,
    ]) {
      const response = await page.goto(portal(b, path));
      expect(response!.status(), path).toBe(404);
    }
    // Keys are issued at once here (no approval configured), and shown on the page that issued them.
    await page.goto(portal(b, 'apis/'));
    await page.getByRole('link', { name: 'Request an API key for Other secret API' }).click();
    await page.getByRole('button', { name: 'Request key' }).click();
    const key = (await page.getByLabel('Your new API key').textContent())!;
    expect(key.startsWith(b.id)).toBe(true);
    await page.goto(portal(b, 'member/'));
    expect(await page.getByText(key).count()).toBe(0);

    // This developer's cookie is scoped to this portal: Acme's portal sees an anonymous visitor.
    const [cookie] = await context.cookies();
    expect(cookie!.path).toBe(`/portal/${b.id}/`);
    const asOther = await dashboard.anonymous('GET', `/portal/${a.id}/member/`, undefined, { cookie: `gw_portal_session=${cookie!.value}` });
    expect(asOther.status).toBe(303);
    expect(asOther.headers.location).toBe(`/portal/${a.id}/login/?next=member%2F`);
    // And Acme's admin sees only Acme's developer and requests.
    expect((await a.call('GET', '/api/portal/developers')).json<{ Data: { email: string }[] }>().Data.map((d) => d.email)).toEqual([email]);
    expect((await b.call('GET', '/api/portal/requests')).json<{ Data: unknown[] }>().Data).toHaveLength(1);
    expect(other.docId).not.toBe(acme.docId);
    await context.close();
  });

  it("refuses form posts from another site or without the session's token", async () => {
    const { context, page } = await newPage();
    await signIn(page, a);
    const form = { 'Use case': 'x' };
    const noToken = await page.request.post(portal(a, `member/policies/${encodeURIComponent(acme.policyId)}/request/`), { form });
    expect(noToken.status()).toBe(403);
    const crossSite = await dashboard.anonymous('POST', `/portal/${a.id}/login/`, `email=${encodeURIComponent(email)}&password=x`, {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'https://evil.example',
    });
    expect(crossSite.status).toBe(403);
    expect((await a.call('GET', '/api/portal/requests')).json<{ Data: unknown[] }>().Data).toHaveLength(1);
    await context.close();
  });

  it('serves an organisation with a domain there, at /portal/, and not under /portal/<org>/; disable_signup, disable_login, catalogue_login_only and redirect_on_key_request hold', async () => {
    const c = await createOrg(dashboard, 'Domain Co');
    expect((await dashboard.admin('PUT', `/admin/organisations/${c.id}`, { cname: 'developers.domain-co.test' })).status).toBe(200);
    await publishCatalogue(c, { name: 'Domain API', listenPath: '/domain-api/', upstream: upstream.url, config: { disable_signup: true } });
    const onDomain = async (path: string): Promise<{ status: number; text: string; headers: Record<string, unknown> }> =>
      dashboard.anonymous('GET', path, undefined, { host: 'developers.domain-co.test' });
    const catalogue = await onDomain('/portal/apis/');
    expect(catalogue.status).toBe(200);
    expect(catalogue.text).toContain('Domain API');
    expect(catalogue.text).toContain('href="/portal/login/"');
    // disable_signup: no Register link, and the page says sign-up is closed.
    expect(catalogue.text).not.toContain('href="/portal/register/"');
    expect((await onDomain('/portal/register/')).status).toBe(404);
    // catalogue_login_only: anonymous visitors are sent to sign in, for the catalogue and the documents alike.
    expect((await c.call('PUT', '/api/portal/configuration', { catalogue_login_only: true })).status).toBe(200);
    const hidden = await onDomain('/portal/apis/');
    expect([hidden.status, hidden.headers.location]).toEqual([303, '/portal/login/?next=apis%2F']);
    // redirect_on_key_request: "Request an API key" hands off to redirect_to.
    expect(
      (
        await c.call('PUT', '/api/portal/configuration', {
          disable_signup: true,
          redirect_on_key_request: true,
          redirect_to: 'https://onboarding.domain-co.test/keys',
        })
      ).status,
    ).toBe(200);
    const [entry] = (await c.call('GET', '/api/portal/catalogue')).json<{ apis: { policy_id: string }[] }>().apis;
    const handedOff = await onDomain(`/portal/member/policies/${encodeURIComponent(entry!.policy_id)}/request/`);
    expect([handedOff.status, handedOff.headers.location]).toEqual([303, 'https://onboarding.domain-co.test/keys']);
    // disable_login: no Sign in link, and no sign-in page.
    expect((await c.call('PUT', '/api/portal/configuration', { disable_signup: true, disable_login: true })).status).toBe(200);
    const noLogin = await onDomain('/portal/apis/');
    expect(noLogin.text).not.toContain('href="/portal/login/"');
    expect((await onDomain('/portal/login/')).status).toBe(404);
    expect((await dashboard.anonymous('GET', `/portal/${c.id}/apis/`)).status).toBe(404);
    // On that domain, no other organisation's portal is reachable.
    expect((await dashboard.anonymous('GET', `/portal/${a.id}/apis/`, undefined, { host: 'developers.domain-co.test' })).status).toBe(404);
    expect((await dashboard.anonymous('GET', '/portal/apis/')).status).toBe(404);
  });
});
