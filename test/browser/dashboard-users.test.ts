// The web UI's people pages in Chromium on a real dashboard (issue 28 items 6, 9, 10): the Users page's "operator"
// and "you" badges and permissions shown whole; a user group created from the keyboard granting rights and a user
// put in it gaining them; a user unable to grant above their own rights (API and UI); the audit log of those
// changes; e-mail and password sign-in (a wrong password answered like an unknown e-mail, then locked out like an
// access key); a user manager setting another user's password from the Users page (their sessions end); the
// Portal section's link to the developer portal at the organisation's own domain when it has one; and a console
// without errors across every page when no governance hub is configured. One dashboard and one browser for all of it.
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { ALL_WRITE, classicApi, createOrg, startDashboard, type Call, type RunningDashboard, type TestOrg } from '../support/dashboard.ts';
import { useDatabases } from '../support/postgres.ts';

const UNLABELLED_CONTROLS = `[...document.querySelectorAll('input, select, textarea')].filter((c) => c.labels.length === 0 && !c.getAttribute('aria-label')).length`;

/** Each badge's word and whether it is drawn whole inside its table cell (not clipped by the cell's overflow). */
const BADGES = `[...document.querySelectorAll('table.list .badge')].map((el) => {
  const cell = el.closest('th, td');
  const box = el.getBoundingClientRect();
  const outer = cell.getBoundingClientRect();
  return [el.textContent, box.width > 0 && box.left >= outer.left - 0.5 && box.right <= outer.right + 0.5 && cell.scrollWidth <= cell.clientWidth];
})`;

/** Whether every Permissions cell of the users' table shows its whole content (nothing cut). */
const PERMISSIONS_WHOLE = `[...document.querySelectorAll('table.list tbody tr td:nth-of-type(3)')].map((c) => c.scrollWidth <= c.clientWidth)`;

const DANA = 'dana@example.test';
const DANA_PASSWORD = 'correct horse battery';

describe('users, user groups, audit log and e-mail sign-in in the web UI', () => {
  const db = useDatabases('pglite');
  let dashboard: RunningDashboard;
  let browser: Browser;
  let org: TestOrg;
  let manager: Call;
  let managerKey: string;
  let dana: { id: string; key: string };

  beforeAll(async () => {
    [dashboard, browser] = await Promise.all([startDashboard(db.config({ sign_in_max_failures_per_account: 3 })), launchBrowser()]);
    org = await createOrg(dashboard, 'People Org');
    managerKey = await org.user({ ...ALL_WRITE, analytics: 'read', users: 'write', user_groups: 'write', audit_logs: 'read' });
    manager = dashboard.as(managerKey);
    await org.user({ apis: 'read' }, { system: true });
    expect((await org.call('POST', '/api/apis', { api_definition: classicApi('Orders', '/orders/') })).status).toBe(200);
    const created = await manager('POST', '/api/users', { email_address: DANA, first_name: 'Dana', last_name: 'Reyes' });
    expect(created.status).toBe(200);
    const meta = created.json<{ Meta: { id: string; access_key: string } }>().Meta;
    dana = { id: meta.id, key: meta.access_key };
  });

  /** A new page signed in with this access key, on the section named; console errors collected from then on. */
  const signIn = async (key: string, section: string): Promise<{ page: Page; errors: string[] }> => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.on('pageerror', (error) => process.stderr.write(`[page error] ${error.stack ?? error.message}\n`));
    await page.goto(`${dashboard.url}/`);
    await page.getByLabel('Access key', { exact: true }).fill(key);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const nav = page.getByRole('navigation', { name: 'Sections' });
    await nav.waitFor();
    const errors: string[] = [];
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() === 'error') errors.push(`${message.text()} ${message.location().url}`);
    });
    await nav.getByRole('link', { name: section, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: section === 'Account' ? 'Your account' : section, exact: true }).waitFor();
    return { page, errors };
  };

  it('shows the "operator" and "you" badges whole in the Name column and every permission unclipped', async () => {
    const { page } = await signIn(managerKey, 'Users');
    await page.getByRole('row', { name: /Dana Reyes/ }).waitFor();
    expect(await page.evaluate(BADGES)).toEqual(
      expect.arrayContaining([
        ['operator', true],
        ['you', true],
      ]),
    );
    expect(await page.evaluate(PERMISSIONS_WHOLE)).toEqual([true, true, true, true]);
    const own = page.getByRole('row', { name: /you/ }).getByRole('listitem');
    expect(await own.allTextContents()).toContain('Audit log: read');
    await page.context().close();
  });

  it('creates a user group from the keyboard and a user put in it gains its permissions', async () => {
    expect((await dashboard.as(dana.key)('GET', '/api/apis')).status).toBe(403);
    const { page } = await signIn(managerKey, 'User groups');
    await page.getByText('0 groups in this organisation').waitFor();
    await page.getByLabel('Group name', { exact: true }).focus();
    await page.keyboard.type('Operators');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Runs the APIs');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('new-group-permissions-apis');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(UNLABELLED_CONTROLS)).toBe(0);
    await page.getByRole('button', { name: 'Create group' }).focus();
    await page.keyboard.press('Enter');
    const row = page.getByRole('row', { name: /Operators/ });
    await row.waitFor();
    expect(await row.getByRole('listitem').allTextContents()).toEqual(['APIs: read and write', 'Policies: read']);
    await screenshot(page, 'ui-user-groups');

    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('button', { name: 'Permissions of Dana Reyes' }).click();
    await page.getByRole('form', { name: 'Permissions of Dana Reyes' }).getByLabel('User group', { exact: true }).selectOption({ label: 'Operators' });
    await page.getByRole('button', { name: 'Save permissions' }).click();
    await page.getByText('Permissions of Dana Reyes saved.').waitFor();
    const danaRow = page.getByRole('row', { name: /Dana Reyes/ }).filter({ hasText: 'Group: Operators' });
    await danaRow.waitFor();
    expect(await danaRow.getByRole('listitem').allTextContents()).toEqual(['APIs: read and write', 'Policies: read']);
    expect((await dashboard.as(dana.key)('GET', '/api/apis')).status).toBe(200);
    expect((await dashboard.as(dana.key)('GET', '/api/keys')).status).toBe(403);
    await page.context().close();
  });

  it('refuses a user granting above their own rights: a group, a member of a stronger group (API and UI)', async () => {
    const lee = (
      await manager('POST', '/api/users', {
        email_address: 'lee@example.test',
        first_name: 'Lee',
        user_permissions: { users: 'write', user_groups: 'write', apis: 'read' },
      })
    ).json<{ Meta: { access_key: string } }>().Meta.access_key;
    const asLee = dashboard.as(lee);
    const group = await asLee('POST', '/api/usergroups', { name: 'Admins', user_permissions: { apis: 'write' } });
    expect(group.status).toBe(403);
    expect(group.json()).toEqual({ Status: 'Error', Message: 'user_permissions.apis: you cannot grant write: your own permission is read' });
    const max = (await asLee('POST', '/api/users', { email_address: 'max@example.test', first_name: 'Max' })).json<{ Meta: { id: string } }>().Meta.id;
    const operators = (await manager('GET', '/api/usergroups')).json<{ groups: { id: string }[] }>().groups[0]!.id;
    const joined = await asLee('PUT', `/api/users/${max}`, { user_group_id: operators });
    expect(joined.status).toBe(403);
    expect(joined.json<{ Message: string }>().Message).toBe('user_group_id: the user group Operators grants apis write, above your own permission (read)');
    const edited = await asLee('PUT', `/api/usergroups/${operators}`, { description: 'taken over' });
    expect(edited.json<{ Message: string }>().Message).toBe(
      'you cannot manage a user group whose permissions exceed your own: they hold apis write, you hold read',
    );

    const { page } = await signIn(lee, 'Users');
    await page.getByRole('button', { name: 'Permissions of Max' }).click();
    await page.getByRole('form', { name: 'Permissions of Max' }).getByLabel('User group', { exact: true }).selectOption({ label: 'Operators' });
    await page.getByRole('button', { name: 'Save permissions' }).click();
    await page.getByRole('alert').filter({ hasText: 'the user group Operators grants apis write' }).waitFor();
    expect((await manager('GET', `/api/users/${max}`)).json<{ user_group_id: string }>().user_group_id).toBe('');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'User groups', exact: true }).click();
    await page.getByRole('heading', { name: 'New user group' }).waitFor();
    expect(await page.locator('#new-group-permissions-apis option[value="write"]').isDisabled()).toBe(true);
    await page.context().close();
  });

  it('shows who changed which user and group, when and from where, filtered by object type; only with audit_logs', async () => {
    const { page } = await signIn(managerKey, 'Audit log');
    await page
      .getByRole('row', { name: /user group/i })
      .first()
      .waitFor();
    const text = (await page.locator('table.list tbody').textContent()) ?? '';
    expect(text).toContain('User group');
    expect(text).toContain(`User ${dana.id}`);
    expect(text).toContain('lee@example.test');
    expect(text).toContain('(access key)');
    expect(text).toContain('(web session)');
    await page.getByLabel('Object type', { exact: true }).selectOption({ label: 'User group' });
    // The filtered answer replaces the list: one row, the group's creation.
    await expect
      .poll(() => page.locator('table.list tbody tr td:nth-of-type(4)').allTextContents())
      .toEqual([expect.stringMatching(/^User group [0-9a-f]{24}$/)]);
    await screenshot(page, 'ui-audit');
    await page.context().close();

    const entries = await manager('GET', `/api/audit?object_id=${dana.id}`);
    expect(entries.json<{ entries: { action: string; user_email: string; object_type: string }[] }>().entries.map((e) => [e.action, e.object_type])).toEqual([
      ['updated', 'user'],
      ['created', 'user'],
    ]);
    expect(entries.text).not.toContain(dana.key);
    expect((await dashboard.as(dana.key)('GET', '/api/audit')).status).toBe(403);
  });

  it('signs in with e-mail and password set on the Account page, to the organisation named when two hold the address; a wrong password is answered like an unknown e-mail and locked out', async () => {
    const { page } = await signIn(dana.key, 'Account');
    await page.getByLabel('New password', { exact: true }).fill(DANA_PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Password set').waitFor();
    await page.context().close();

    const signInPage = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await signInPage.goto(`${dashboard.url}/`);
    const byPassword = async (email: string, password: string): Promise<void> => {
      await signInPage.getByLabel('E-mail address', { exact: true }).fill(email);
      await signInPage.getByLabel('Password', { exact: true }).fill(password);
      await signInPage.getByRole('button', { name: 'Log in with password' }).click();
    };
    await byPassword(DANA, 'not the password');
    await signInPage.locator('#sign-in-password-note', { hasText: 'do not match an active user' }).waitFor();
    expect(await signInPage.evaluate(UNLABELLED_CONTROLS)).toBe(0);
    await screenshot(signInPage, 'ui-sign-in-password');
    await byPassword(DANA, DANA_PASSWORD);
    await signInPage.getByRole('navigation', { name: 'Sections' }).waitFor();
    expect(await signInPage.locator('.who').textContent()).toContain(DANA);
    await signInPage.context().close();

    // Dana's address in a second organisation, with a password of its own: the sign-in checks one password, the
    // oldest holder's, unless the person names the other organisation.
    const second = await createOrg(dashboard, 'Second Org');
    const secondManager = dashboard.as(await second.user({ users: 'write' }));
    const danaThere = (await secondManager('POST', '/api/users', { email_address: DANA, first_name: 'Dana' })).json<{ Meta: { id: string } }>().Meta;
    expect((await secondManager('POST', `/api/users/${danaThere.id}/actions/reset`, { new_password: 'the second organisation' })).status).toBe(200);
    const otherPage = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await otherPage.goto(`${dashboard.url}/`);
    await otherPage.getByLabel('E-mail address', { exact: true }).fill(DANA);
    await otherPage.getByLabel('Password', { exact: true }).fill('the second organisation');
    await otherPage.getByText('Signing in to another organisation?').click();
    await otherPage.getByLabel('Organisation ID', { exact: true }).fill(second.id);
    expect(await otherPage.evaluate(UNLABELLED_CONTROLS)).toBe(0);
    await otherPage.getByRole('button', { name: 'Log in with password' }).click();
    await otherPage.getByRole('navigation', { name: 'Sections' }).waitFor();
    expect(await otherPage.locator('.who').textContent()).toBe(`${DANA} · Second Org`);
    await otherPage.context().close();

    const wrong = await dashboard.anonymous('POST', '/session', { email_address: DANA, password: 'wrong password' });
    const unknown = await dashboard.anonymous('POST', '/session', { email_address: 'nobody@example.test', password: 'wrong password' });
    expect([wrong.status, wrong.text]).toEqual([401, unknown.text]);
    expect(unknown.status).toBe(401);
    let answer = wrong;
    for (let attempt = 0; attempt < 3 && answer.status === 401; attempt++) {
      answer = await dashboard.anonymous('POST', '/session', { email_address: DANA, password: 'wrong again' });
    }
    expect(answer.status).toBe(429);
    const right = await dashboard.anonymous('POST', '/session', { email_address: DANA, password: DANA_PASSWORD });
    expect(right.status).toBe(429);
    expect(right.headers['retry-after']).toBeDefined();
  });

  it("sets another user's password from the Users page: the user signs in with it and their earlier session has ended", async () => {
    const rio = (await manager('POST', '/api/users', { email_address: 'rio@example.test', first_name: 'Rio' })).json<{ Meta: { access_key: string } }>().Meta;
    const before = await dashboard.anonymous('POST', '/session', { access_key: rio.access_key });
    const rioCookie = String(before.headers['set-cookie']).split(';')[0]!;
    expect((await dashboard.anonymous('GET', '/session', undefined, { cookie: rioCookie })).status).toBe(200);

    const { page } = await signIn(managerKey, 'Users');
    await page.getByRole('button', { name: 'Set the password of Rio' }).click();
    const form = page.getByRole('form', { name: 'Password of Rio' });
    expect(await form.getByLabel('Current password').count()).toBe(0);
    expect(await page.evaluate('document.activeElement.id')).toBe('new-password');
    await form.getByLabel('New password', { exact: true }).fill('short');
    await form.getByRole('button', { name: 'Set password' }).click();
    await form.locator('.field-error', { hasText: 'must be at least 8 characters' }).waitFor();
    await form.getByLabel('New password', { exact: true }).fill('rio chose nothing');
    await form.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('status').filter({ hasText: 'Password of Rio set; their sessions have ended.' }).waitFor();
    expect(await form.count()).toBe(0);
    for (const badge of ['you', 'operator']) {
      expect(
        await page
          .getByRole('row', { name: new RegExp(badge) })
          .getByRole('button', { name: /^Set the password of/ })
          .count(),
      ).toBe(0);
    }
    await page.context().close();

    expect((await dashboard.anonymous('GET', '/session', undefined, { cookie: rioCookie })).status).toBe(401);
    expect((await dashboard.anonymous('POST', '/session', { email_address: 'rio@example.test', password: 'rio chose nothing' })).status).toBe(200);
  });

  it("links the Portal section to the organisation's developer portal: on the dashboard, or at the organisation's own domain", async () => {
    const portalLink = async (key: string): Promise<string | null> => {
      const { page } = await signIn(key, 'APIs');
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Portal', exact: true }).click();
      const link = page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Open the developer portal' });
      const target = await link.getAttribute('href');
      await page.context().close();
      return target;
    };
    expect(await portalLink(managerKey)).toBe(`/portal/${org.id}/`);
    const branded = await createOrg(dashboard, 'Branded');
    expect((await dashboard.admin('PUT', `/admin/organisations/${branded.id}`, { cname: 'developers.branded.test' })).status).toBe(200);
    expect(await portalLink(branded.key)).toBe('https://developers.branded.test/portal/');
  });

  it('logs no console error on any page without a governance hub (labels asked once, no 404)', async () => {
    const { page, errors } = await signIn(managerKey, 'APIs');
    const nav = page.getByRole('navigation', { name: 'Sections' });
    const sections = await nav.getByRole('link').allTextContents();
    expect(sections).toEqual(expect.arrayContaining(['User groups', 'Audit log']));
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    /** Every page says "Loading …" until its requests are answered. */
    const loaded = (): Promise<void> => page.locator('main', { hasText: 'Loading' }).waitFor({ state: 'detached' });
    for (const section of sections) {
      await nav.getByRole('link', { name: section, exact: true }).click();
      await page.locator(`nav a[aria-current="page"]`, { hasText: section }).waitFor();
      await loaded();
    }
    await nav.getByRole('link', { name: 'APIs', exact: true }).click();
    await page.getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('heading', { name: 'API: Orders' }).waitFor();
    await loaded();
    expect(failed).toEqual([]);
    expect(await page.getByRole('heading', { name: 'Governance labels' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
