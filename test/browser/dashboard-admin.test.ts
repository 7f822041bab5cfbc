// The web UI's administration in a real browser (Debian's Chromium through playwright-core) against a real
// `gw dashboard` on PostgreSQL: an administrator signs in with the admin secret, which is posted once and
// exchanged for an HttpOnly, SameSite=Strict administrator session (the secret appears in no response, cookie,
// storage or page); creates, edits and deletes organisations and creates a user of one, whose access key is shown
// once; that user signs in and sees only their organisation; a signed-in user never reaches the administration
// (a denial page in the UI, 401 from /admin); a user is put in one of the organisation's groups, at creation or
// later; sign-out ends the administrator session on the server. One story in order: run the file, not one test.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { ADMIN_SECRET, classicApi, createOrg, startDashboard, type RunningDashboard, type TestOrg } from '../support/dashboard.ts';
import { useDatabases } from '../support/postgres.ts';

describe('dashboard administration in Chromium', () => {
  const db = useDatabases('postgres');
  let dashboard: RunningDashboard;
  let browser: Browser;
  let other: TestOrg;
  /** The administrator's browser, kept across the story. */
  let admin: { context: BrowserContext; page: Page };
  /** Every response body, request header set and request body the administrator's page saw. */
  const seen = { responses: [] as string[], requestHeaders: [] as string[], requestBodies: [] as string[] };
  let globexId: string;
  let globexKey: string;

  beforeAll(async () => {
    [dashboard, browser] = await Promise.all([startDashboard(db.config({ page_size: 100 })), launchBrowser()]);
    other = await createOrg(dashboard, 'Initech');
    expect((await other.call('POST', '/api/apis', classicApi('Initech internal API', '/initech/'))).status).toBe(200);
  });

  const newPage = async (): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.on('pageerror', (error) => process.stderr.write(`[page error] ${error.stack ?? error.message}\n`));
    return { context, page };
  };

  it('signs an administrator in with the admin secret into an HttpOnly SameSite=Strict session; the secret is kept nowhere', async () => {
    admin = await newPage();
    const { context, page } = admin;
    page.on('request', (request) => {
      seen.requestHeaders.push(JSON.stringify(request.headers()));
      seen.requestBodies.push(request.postData() ?? '');
    });
    page.on('response', (response) => {
      seen.responses.push(JSON.stringify(response.headers()));
      void response.text().then(
        (text) => seen.responses.push(text),
        () => undefined,
      );
    });
    await page.goto(`${dashboard.url}/`);
    await page.getByRole('link', { name: 'Administrator sign-in' }).click();
    await page.getByLabel('Admin secret', { exact: true }).fill('not-the-secret');
    await page.getByRole('button', { name: 'Sign in as administrator' }).click();
    await page.getByText('That is not the admin secret.').waitFor();
    expect(await page.getByLabel('Admin secret', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Admin secret', { exact: true }).fill(ADMIN_SECRET);
    await page.getByRole('button', { name: 'Sign in as administrator' }).click();
    await page.getByRole('heading', { name: 'Organisations' }).waitFor();
    await page.getByRole('link', { name: 'Initech' }).waitFor();

    const cookies = await context.cookies();
    expect(cookies).toEqual([expect.objectContaining({ name: 'gw_admin_session', httpOnly: true, sameSite: 'Strict' })]);
    expect(cookies[0]!.value).not.toContain(ADMIN_SECRET);
    // Nothing a script can read holds it: storage, the page's own cookies, the document, the input.
    const readable = await page.evaluate(
      'JSON.stringify([document.cookie, {...localStorage}, {...sessionStorage}, document.documentElement.outerHTML, location.href])',
    );
    expect(readable).not.toContain(ADMIN_SECRET);
    expect(await page.evaluate('document.cookie')).toBe('');
  });

  it('creates an organisation and a user of it (key shown once), edits and deletes organisations', async () => {
    const { page } = admin;
    await page.getByLabel('Owner name', { exact: true }).fill('Globex');
    await page.getByLabel('CNAME', { exact: true }).fill('globex.portal.test');
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await page.getByRole('heading', { name: 'Organisation: Globex' }).waitFor();
    globexId = decodeURIComponent(new URL(page.url()).hash.split('/').pop()!);
    expect((await dashboard.admin('GET', `/admin/organisations/${globexId}`)).json()).toMatchObject({
      id: globexId,
      owner_name: 'Globex',
      cname: 'globex.portal.test',
      operator_managed: false,
    });

    // A cname another organisation holds is refused, with the dashboard's words.
    await page.getByRole('link', { name: 'Organisations' }).click();
    await page.getByLabel('Owner name', { exact: true }).fill('Globex again');
    await page.getByLabel('CNAME', { exact: true }).fill('globex.portal.test');
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await page.getByRole('alert').filter({ hasText: 'cname globex.portal.test is taken' }).waitFor();
    await page.getByRole('row', { name: /Globex/ }).waitFor();
    await screenshot(page, 'ui-admin-organisations');

    await page.getByRole('link', { name: 'Globex' }).click();
    await page.getByLabel('Owner name', { exact: true }).fill('Globex Corporation');
    await page.getByLabel('CNAME', { exact: true }).fill('Globex.Portal.TEST');
    await page.getByRole('button', { name: 'Save organisation' }).click();
    await page.getByRole('status').filter({ hasText: 'Organisation saved.' }).waitFor();
    await page.getByRole('heading', { name: 'Organisation: Globex Corporation' }).waitFor();
    // The page shows the domain as stored: lowercase (the portal matches hosts without case).
    expect(await page.getByLabel('CNAME', { exact: true }).inputValue()).toBe('globex.portal.test');

    await page.getByLabel('E-mail address', { exact: true }).fill('hank@globex.test');
    await page.getByLabel('First name', { exact: true }).fill('Hank');
    const grid = page.getByRole('group', { name: 'Permissions of the new user' });
    await grid.getByLabel('APIs', { exact: true }).selectOption({ label: 'Read and write' });
    await grid.getByLabel('Analytics', { exact: true }).selectOption({ label: 'Read' });
    await page.getByRole('button', { name: 'Create user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Access key of hank@globex.test' });
    await dialog.waitFor();
    globexKey = (await dialog.locator('code').textContent())!;
    await screenshot(page, 'ui-admin-organisation');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('row', { name: /hank@globex\.test.*Active.*APIs: read and write, Analytics: read/ }).waitFor();

    // Delete: asked to confirm, naming what goes.
    const temp = (await dashboard.admin('POST', '/admin/organisations', { owner_name: 'Short-lived' })).json<{ Meta: string }>().Meta;
    await page.goto(`${dashboard.url}/#/admin/organisations/${temp}`);
    await page.getByRole('button', { name: 'Delete organisation' }).click();
    await page.getByRole('alert').filter({ hasText: 'Delete Short-lived with all its APIs' }).waitFor();
    await page.getByRole('button', { name: 'Delete Short-lived for good' }).click();
    await page.getByRole('heading', { name: 'Organisations' }).waitFor();
    await page.getByRole('link', { name: 'Globex Corporation' }).waitFor();
    expect(await page.getByRole('link', { name: 'Short-lived' }).count()).toBe(0);
    expect((await dashboard.admin('GET', `/admin/organisations/${temp}`)).status).toBe(404);
  });

  it('lets the new user sign in to their organisation only, and never into the administration', async () => {
    const { context, page } = await newPage();
    await page.goto(`${dashboard.url}/`);
    await page.getByLabel('Access key', { exact: true }).fill(globexKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('hank@globex.test · Globex Corporation').waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /^0 APIs/ })
      .waitFor();
    expect(await page.getByText('Initech internal API').count()).toBe(0);
    expect((await page.request.get(`${dashboard.url}/api/apis`)).status()).toBe(200);

    await page.goto(`${dashboard.url}/#/admin/organisations`);
    await page.getByRole('heading', { name: 'Access denied' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toContain("for the dashboard's administrators");
    expect(await page.getByText('Initech').count()).toBe(0);
    await screenshot(page, 'ui-admin-denied');
    // The server refuses their session there, whatever the page shows.
    expect((await page.request.get(`${dashboard.url}/admin/organisations`)).status()).toBe(401);
    expect((await page.request.get(`${dashboard.url}/session/admin`)).status()).toBe(401);
    await context.close();
  });

  it("puts a new user in one of the organisation's groups and moves another into it; the admin API reads both back", async () => {
    const { page } = admin;
    // A group of Globex, made by one of its users with the user_groups permission (groups are the organisation's).
    const ops = (
      await dashboard.admin('POST', '/admin/users', {
        org_id: globexId,
        email_address: 'ops@globex.test',
        user_permissions: { user_groups: 'write', apis: 'read' },
      })
    ).json<{ Meta: { id: string; access_key: string } }>().Meta;
    const created = await dashboard.as(ops.access_key)('POST', '/api/usergroups', { name: 'Support', user_permissions: { apis: 'read' } });
    expect(created.status).toBe(200);
    const support = created.json<{ Meta: { id: string } }>().Meta.id;
    // Initech's groups are not Globex's: never offered.
    const initechManager = dashboard.as(await other.user({ user_groups: 'write' }));
    expect((await initechManager('POST', '/api/usergroups', { name: 'Initech staff' })).status).toBe(200);

    await page.goto(`${dashboard.url}/#/admin/organisations/${globexId}`);
    await page.getByRole('heading', { name: 'Organisation: Globex Corporation' }).waitFor();
    const picker = page.getByRole('form', { name: 'New user of Globex Corporation' }).getByLabel('User group', { exact: true });
    // The groups arrive after the heading: read until they are there.
    await expect.poll(() => picker.locator('option').allTextContents()).toEqual(['No group (own permissions)', 'Support']);
    await page.getByLabel('E-mail address', { exact: true }).fill('iris@globex.test');
    await picker.selectOption({ label: 'Support' });
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.getByRole('dialog', { name: 'Access key of iris@globex.test' }).waitFor();
    await page.getByRole('button', { name: 'I have copied it' }).click();
    // A member's permissions are the group's.
    await page.getByRole('row', { name: /iris@globex\.test.*Active.*Support.*APIs: read/ }).waitFor();

    await page.getByRole('button', { name: 'Change the group of ops@globex.test' }).click();
    const regroup = page.getByRole('form', { name: 'Group of ops@globex.test' });
    await regroup.getByLabel('User group', { exact: true }).selectOption({ label: 'Support' });
    await regroup.getByRole('button', { name: 'Save group' }).click();
    await page.getByRole('status').filter({ hasText: 'ops@globex.test is in Support.' }).waitFor();
    await page.getByRole('row', { name: /ops@globex\.test.*Support/ }).waitFor();

    const { users } = (await dashboard.admin('GET', `/admin/users?org_id=${globexId}`)).json<{ users: { email_address: string; user_group_id: string }[] }>();
    const groupOf = Object.fromEntries(users.map((u) => [u.email_address, u.user_group_id]));
    expect(groupOf).toEqual({ 'hank@globex.test': '', 'ops@globex.test': support, 'iris@globex.test': support });
  });

  it('signs the administrator out on the server; the secret never crossed the wire but once, in the sign-in', async () => {
    const { context, page } = admin;
    const [cookie] = await context.cookies();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out of the administration.').waitFor();
    expect((await dashboard.anonymous('GET', '/admin/organisations', undefined, { cookie: `gw_admin_session=${cookie!.value}` })).status).toBe(401);
    await context.close();

    expect(seen.responses.length).toBeGreaterThan(10);
    expect(seen.responses.filter((text) => text.includes(ADMIN_SECRET))).toEqual([]);
    expect(seen.requestHeaders.filter((text) => text.includes(ADMIN_SECRET))).toEqual([]);
    // The wrong secret once, the right one once: each only in the body of POST /session/admin.
    expect(seen.requestBodies.filter((body) => body.includes(ADMIN_SECRET))).toEqual([JSON.stringify({ admin_secret: ADMIN_SECRET })]);
  });
});
