// A developer's account in the portal, in a real browser (Debian's Chromium through playwright-core) against a real
// `gw dashboard` on PostgreSQL that sends its e-mails over SMTP (STARTTLS with a test certificate) to the tests'
// SMTP server: signing up with the e-mail verification link received and followed, asking for a password reset
// (the same answer for an unknown e-mail), the reset link received, the new password set and used, the link
// refused the second time; the catalogue entry's Markdown description rendered (a <script> in it shown as text),
// the API page's base URL, and the configured fields' labels. The tests tell one story in order: run the file.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/up/ports.ts';
import { launchBrowser } from '../support/browser.ts';
import { createOrg, startDashboard, type RunningDashboard, type TestOrg } from '../support/dashboard.ts';
import { pemMaterial } from '../support/pem-material.ts';
import { useDatabases } from '../support/postgres.ts';
import { mailBody, startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';
import { publishCatalogue, type Published } from './portal-fixtures.ts';

const DESCRIPTION = [
  '## Getting started',
  '',
  'Forecasts for **any city**, see [the guide](https://example.test/guide).',
  '',
  '<script>window.injected = true</script>',
  '',
  '[tricky](javascript:window.injected=true)',
].join('\n');

describe('developer portal accounts in Chromium', () => {
  const db = useDatabases('postgres');
  let dashboard: RunningDashboard;
  let smtp: TestSmtpServer;
  let browser: Browser;
  let page: Page;
  let org: TestOrg;
  let published: Published;
  const email = `account-${process.pid}@example.test`;
  const password = 'first password 1';
  const newPassword = 'second password 2';
  let resetLink: string;

  const portal = (path = ''): string => `${dashboard.url}/portal/${org.id}/${path}`;
  const linkIn = async (to: string): Promise<string> => {
    const body = mailBody(await smtp.nextMessage(to));
    const link = /^https?:\/\/\S+$/m.exec(body)?.[0];
    if (!link) throw new Error(`no link in the e-mail: ${body}`);
    return link;
  };
  const unlabelledInputs = (): Promise<number> =>
    page.evaluate(`[...document.querySelectorAll('input:not([type=hidden]), select, textarea')].filter((c) => c.labels.length === 0).length`);

  beforeAll(async () => {
    const pem = pemMaterial('localhost');
    const dir = mkdtempSync(join(tmpdir(), 'gw-portal-account-'));
    writeFileSync(join(dir, 'smtp-ca.pem'), pem.cert);
    const port = await freePort();
    [browser, smtp] = await Promise.all([
      launchBrowser(),
      startSmtpServer({ tls: { cert: pem.cert, key: pem.key }, credentials: { user: 'portal', password: 'smtp-pass' } }),
    ]);
    dashboard = await startDashboard(
      {
        ...db.config(),
        listen_port: port,
        portal_public_url: `http://127.0.0.1:${port}`,
        gateway_public_url: 'https://api.example.test',
        smtp_host: 'localhost',
        smtp_port: smtp.port,
        smtp_starttls: 'required',
        smtp_ca_file: join(dir, 'smtp-ca.pem'),
        smtp_user: 'portal',
        smtp_from: 'portal@example.test',
      },
      { GW_DASHBOARD_SMTP_PASSWORD: 'smtp-pass' },
    );
    org = await createOrg(dashboard, 'Acme');
    published = await publishCatalogue(org, {
      name: 'Weather',
      listenPath: '/weather/',
      upstream: 'http://127.0.0.1:9',
      longDescription: DESCRIPTION,
      config: { require_email_verification: true, signup_fields: ['company'], key_request_fields: ['use_case'] },
    });
    page = await (await browser.newContext()).newPage();
  });

  it('signs up with labelled fields; the account waits for the e-mailed link, which activates it', async () => {
    await page.goto(portal('register/'));
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Company', { exact: true }).fill('Acme Widgets');
    expect(await unlabelledInputs()).toBe(0);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('heading', { name: 'Confirm your e-mail' }).waitFor();
    const link = await linkIn(email);
    expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/portal/${org.id}/register/verify/\\?token=[\\w-]+\\.[\\w-]+$`));
    // Before the link is followed the account cannot sign in.
    expect((await org.call('POST', '/api/portal/developers/verify_credentials', { username: email, password })).status).toBe(401);
    await page.goto(link);
    await page.getByText('Your e-mail is confirmed').waitFor();
    expect(smtp.messages[0]).toMatchObject({ tls: true, user: 'portal' });
  });

  it('answers a forgotten password the same for an unknown e-mail, and mails a reset link, from the keyboard', async () => {
    await page.goto(portal('login/'));
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('E-mail', { exact: true }).focus();
    await page.keyboard.type(`nobody-${process.pid}@example.test`);
    await page.keyboard.press('Enter');
    const unknownAnswer = await page.getByRole('status').textContent();
    expect(await unlabelledInputs()).toBe(0);
    await page.getByLabel('E-mail', { exact: true }).focus();
    await page.keyboard.type(email);
    await page.keyboard.press('Enter');
    await page.getByRole('status').waitFor();
    expect(await page.getByRole('status').textContent()).toBe(unknownAnswer);
    resetLink = await linkIn(email);
    expect(resetLink).toContain(`/portal/${org.id}/password/reset/?token=`);
  });

  it('sets the new password through the link; the new password signs in, the link works only once', async () => {
    await page.goto(resetLink);
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    expect(await unlabelledInputs()).toBe(0);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Your password is changed').waitFor();
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'My keys' }).waitFor();
    const again = await page.goto(resetLink);
    expect(again?.status()).toBe(400);
    await page.getByText('unknown, expired or already used').waitFor();
  });

  it("shows the description's Markdown rendered (a script as text), the base URL and the key request's labels", async () => {
    await page.goto(portal('apis/'));
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Weather' }) });
    await card.getByRole('heading', { name: 'Getting started', level: 4 }).waitFor();
    expect(await card.locator('.description strong').textContent()).toBe('any city');
    expect(await card.getByRole('link', { name: 'the guide' }).getAttribute('href')).toBe('https://example.test/guide');
    await card.getByText('<script>window.injected = true</script>').waitFor();
    await card.getByText('tricky').waitFor();
    expect(await card.locator('a', { hasText: 'tricky' }).count()).toBe(0);
    expect(await page.evaluate('window.injected')).toBeUndefined();

    await page.goto(portal(`apis/${published.docId}/documentation/`));
    await page.getByRole('heading', { name: 'Base URL' }).waitFor();
    expect(await page.locator('.base-urls code').textContent()).toBe('https://api.example.test/weather/');

    await page.goto(portal(`member/policies/${published.policyId}/request/`));
    await page.getByLabel('Use case', { exact: true }).waitFor();
    expect(await unlabelledInputs()).toBe(0);
  });

  it('counts forgot-password posts and refused reset links against the client: 429 with Retry-After once over the limit', async () => {
    // Last in the file: it locks this client's sign-ins out. sign_in_max_failures_per_client is 20 by default.
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const forgot = (): ReturnType<RunningDashboard['anonymous']> =>
      dashboard.anonymous('POST', `/portal/${org.id}/password/forgot/`, `email=${encodeURIComponent(`nobody-${process.pid}@example.test`)}`, form);
    const statuses: number[] = [];
    for (let i = 0; i < 25 && !statuses.includes(429); i++) statuses.push((await forgot()).status);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
    const reset = await dashboard.anonymous(
      'POST',
      `/portal/${org.id}/password/reset/`,
      `token=${resetLink.split('token=')[1]!}&password=another+password+3`,
      form,
    );
    expect(reset.status).toBe(429);
    expect(reset.headers['retry-after']).toMatch(/^\d+$/);
  });
});
