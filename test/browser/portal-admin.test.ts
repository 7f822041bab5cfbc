// The classic portal's administration in the web UI, in Chromium, on a real dashboard and a real gateway it feeds
// (issue 28 item 7): the admin publishes, orders (from the keyboard) and unpublishes catalogue entries and sets
// manual key approval with a key request field; a developer signs up on the portal and asks for two keys; the
// admin approves one (the key works at the gateway) and declines the other with a reason the developer reads on
// "My keys"; the admin finds the developer by e-mail, revokes the key (the gateway refuses it) and deactivates
// them; a read-only user sees every page without a button and the API refuses their writes; the admin creates a
// page, puts it in the menu and sets the portal's name and custom CSS (the portal shows the page at its slug and in
// its navigation, under the name, styled by the CSS); a developer who signs up under developer approval waits, is
// approved on the Developers page and signs in; closing sign-up shows on the portal. One dashboard, gateway and browser for the whole story: run the file, not one test.
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { classicApi, createOrg, NODE_SECRET, startDashboard, type RunningDashboard, type TestOrg } from '../support/dashboard.ts';
import { startGateway, type RunningGateway } from '../support/gateway.ts';
import { useDatabases } from '../support/postgres.ts';
import { startUpstream, type Upstream } from '../support/upstream.ts';
import { waitUntil } from '../support/wait.ts';

const UNLABELLED_CONTROLS = `[...document.querySelectorAll('input, select, textarea')].filter((c) => c.labels.length === 0 && !c.getAttribute('aria-label')).length`;

describe('portal administration in the web UI', () => {
  const db = useDatabases('pglite');
  let dashboard: RunningDashboard;
  let browser: Browser;
  let upstream: Upstream;
  let gateway: RunningGateway;
  let org: TestOrg;
  let admin: Page;
  let developer: Page;
  let developerKey: string;
  const email = `builder-${process.pid}@example.test`;
  const password = 'correct horse battery';
  const portal = (path = ''): string => `${dashboard.url}/portal/${org.id}/${path}`;

  /** An authToken API proxying to the upstream and a policy granting it, as the publish form offers them. */
  const plan = async (name: string): Promise<void> => {
    const listenPath = `/${name.toLowerCase()}/`;
    const api = await org.call(
      'POST',
      '/api/apis',
      classicApi(name, listenPath, {
        use_keyless: false,
        use_standard_auth: true,
        proxy: { listen_path: listenPath, target_url: upstream.url, strip_listen_path: true },
      }),
    );
    expect(api.status, api.text).toBe(200);
    const apiId = api.json<{ Meta: string }>().Meta;
    const policy = await org.call('POST', '/api/portal/policies', {
      name: `${name} plan`,
      access_rights: { [apiId]: { api_id: apiId, versions: ['Default'] } },
    });
    expect(policy.status, policy.text).toBe(200);
  };

  const signedIn = async (key: string, section: string): Promise<Page> => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.on('pageerror', (error) => process.stderr.write(`[page error] ${error.stack ?? error.message}\n`));
    await page.goto(`${dashboard.url}/#/portal/${section}`);
    await page.getByLabel('Access key', { exact: true }).fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Portal' }).waitFor();
    return page;
  };
  const openPart = async (page: Page, link: string, heading: string): Promise<void> => {
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: link }).click();
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  };
  const catalogueOrder = async (): Promise<string[]> =>
    (await org.call('GET', '/api/portal/catalogue')).json<{ apis: { name: string }[] }>().apis.map((entry) => entry.name);

  beforeAll(async () => {
    [dashboard, browser, upstream] = await Promise.all([startDashboard(db.config()), launchBrowser(), startUpstream()]);
    org = await createOrg(dashboard, 'Portal Admin Org');
    // The gateway starts while the plans are written and then the admin signs in (the publish form lists the plans).
    [gateway, admin] = await Promise.all([
      startGateway({
        use_db_app_configs: true,
        policies: { policy_source: 'service' },
        db_app_conf_options: { connection_string: dashboard.url, node_secret: NODE_SECRET, poll_interval_seconds: 0.3 },
      }),
      (async () => {
        for (const name of ['Weather', 'Maps', 'Traffic']) await plan(name);
        return signedIn(org.key, 'catalogue');
      })(),
    ]);
    developer = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  });

  it('publishes three entries, moves one up from the keyboard and unpublishes it; the portal lists what is published, in order', async () => {
    await admin.getByText('Nothing is published yet.').waitFor();
    for (const name of ['Weather', 'Maps', 'Traffic']) {
      await admin.getByLabel('Policy', { exact: true }).selectOption({ label: `${name} plan` });
      await admin.getByLabel('Name', { exact: true }).fill(name);
      await admin.getByLabel('Short description', { exact: true }).fill(`${name} for any city`);
      await admin.getByLabel('Long description', { exact: true }).fill(`${name} data, hour by hour.`);
      await admin.getByRole('button', { name: 'Publish', exact: true }).click();
      await admin.getByRole('row', { name: new RegExp(`${name} plan`) }).waitFor();
    }
    expect(await catalogueOrder()).toEqual(['Weather', 'Maps', 'Traffic']);
    expect(await admin.evaluate(UNLABELLED_CONTROLS)).toBe(0);

    // Keyboard only: Enter on "Move Traffic up" twice; the focus follows the entry.
    await admin.getByRole('button', { name: 'Move Traffic up' }).focus();
    await admin.keyboard.press('Enter');
    await waitUntil('Traffic to move to the second place', async () => (await catalogueOrder())[1] === 'Traffic');
    await admin.getByRole('row', { name: /^2 Traffic/ }).waitFor();
    await admin.waitForFunction('document.activeElement?.getAttribute("aria-label") === "Move Traffic up"');
    await admin.keyboard.press('Enter');
    await waitUntil('Traffic to move to the top', async () => (await catalogueOrder())[0] === 'Traffic');
    await admin.getByRole('row', { name: /^1 Traffic/ }).waitFor();
    // At the top "Move up" is disabled: the focus went to "Move down".
    await admin.waitForFunction('document.activeElement?.getAttribute("aria-label") === "Move Traffic down"');
    await screenshot(admin, 'ui-portal-catalogue');

    await developer.goto(portal('apis/'));
    expect(await developer.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['Traffic', 'Weather', 'Maps']);

    await admin.getByRole('button', { name: 'Unpublish Traffic' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Unpublish Traffic?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Unpublish' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await waitUntil('Traffic to leave the catalogue', async () => !(await catalogueOrder()).includes('Traffic'));
    await developer.reload();
    expect(await developer.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['Weather', 'Maps']);
  });

  it('sets manual key approval and a key request field; the portal asks for the field', async () => {
    await openPart(admin, 'Settings', 'Portal settings');
    await admin.getByLabel(/Manual approval/).check();
    await admin.getByLabel('Extra key request fields', { exact: true }).fill('Use case');
    expect(await admin.evaluate(UNLABELLED_CONTROLS)).toBe(0);
    await screenshot(admin, 'ui-portal-settings');
    await admin.getByRole('button', { name: 'Save settings' }).click();
    await admin.getByText('Saved: the portal applies these settings').waitFor();
    expect((await org.call('GET', '/api/portal/configuration')).json()).toMatchObject({ require_key_approval: true, key_request_fields: ['Use case'] });

    // A developer signs up and asks for Weather and Maps keys: both wait for approval.
    await developer.goto(portal('register/'));
    await developer.getByLabel('E-mail', { exact: true }).fill(email);
    await developer.getByLabel('Password', { exact: true }).fill(password);
    await developer.getByRole('button', { name: 'Register' }).click();
    await developer.getByRole('heading', { name: 'My keys' }).waitFor();
    for (const [name, useCase] of [
      ['Weather', 'A forecast widget'],
      ['Maps', 'Store locator'],
    ]) {
      await developer.goto(portal('apis/'));
      await developer.getByRole('link', { name: `Request an API key for ${name}` }).click();
      await developer.getByLabel('Use case', { exact: true }).fill(useCase!);
      await developer.getByRole('button', { name: 'Request key' }).click();
      await developer.getByRole('list', { name: 'Requests waiting for approval' }).getByText(name!).waitFor();
    }
  });

  it('approves one request from the keyboard (its key works at the gateway) and declines the other with a reason the developer sees', async () => {
    await openPart(admin, 'Key requests', 'Key requests');
    const pending = admin.getByRole('table', { name: 'Pending key requests' });
    await pending.getByRole('row', { name: /Store locator/ }).waitFor();
    expect(await pending.getByRole('row', { name: /A forecast widget/ }).textContent()).toContain(email);
    expect(await admin.evaluate(UNLABELLED_CONTROLS)).toBe(0);
    await screenshot(admin, 'ui-portal-requests');

    await admin.getByRole('button', { name: `Approve the request of ${email} for Weather` }).focus();
    await admin.keyboard.press('Enter');
    await admin
      .getByRole('status')
      .filter({ hasText: `Approved the request of ${email} for Weather` })
      .waitFor();

    await admin.getByRole('button', { name: `Decline the request of ${email} for Maps` }).click();
    const dialog = admin.getByRole('dialog', { name: `Decline the request of ${email} for Maps?` });
    await dialog.getByLabel('Reason (shown to the developer)', { exact: true }).fill('Maps is in private beta until June');
    await dialog.getByRole('button', { name: 'Decline request' }).click();
    await admin
      .getByRole('status')
      .filter({ hasText: `Declined the request of ${email} for Maps` })
      .waitFor();
    expect(await pending.getByRole('row').count()).toBe(1); // the header row only
    await admin.getByLabel('Show requests', { exact: true }).selectOption('declined');
    await admin
      .getByRole('table', { name: 'Declined key requests' })
      .getByRole('row', { name: /Maps is in private beta until June/ })
      .waitFor();

    // The developer reads the reason, and picks the approved key up once.
    await developer.goto(portal('member/'));
    await developer.getByRole('list', { name: 'Declined requests' }).getByText('Reason: Maps is in private beta until June').waitFor();
    expect(await developer.getByText('No requests are waiting.').count()).toBe(1);
    await developer.getByRole('button', { name: 'Show my new key' }).click();
    developerKey = (await developer.getByLabel('Your new API key').textContent())!;

    const asDeveloper = { headers: { authorization: developerKey } };
    await waitUntil("the gateway to serve Weather with the developer's key", async () => (await gateway.call('/weather/now', asDeveloper)).status === 200);
    expect((await gateway.call('/maps/now', asDeveloper)).status).toBe(403);
  });

  it('finds the developer by e-mail, revokes their key (the gateway refuses it) and deactivates them', async () => {
    await openPart(admin, 'Developers', 'Developers');
    await admin.getByLabel('Find a developer by e-mail', { exact: true }).fill(email.slice(0, 12).toUpperCase());
    await admin.getByLabel('Find a developer by e-mail', { exact: true }).press('Enter');
    await admin.getByRole('status').filter({ hasText: '1 developer found' }).waitFor();
    await admin.getByRole('button', { name: `Show the keys of ${email} (1)` }).click();
    const keys = admin.getByRole('list', { name: `Keys of ${email}` });
    await keys.getByText('for Weather plan').waitFor();
    expect(await admin.evaluate(UNLABELLED_CONTROLS)).toBe(0);
    await screenshot(admin, 'ui-portal-developers');
    await keys.getByRole('button', { name: /^Revoke key/ }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await admin.getByRole('button', { name: `Hide the keys of ${email} (0)` }).waitFor();
    await waitUntil(
      'the gateway to refuse the revoked key',
      async () => (await gateway.call('/weather/now', { headers: { authorization: developerKey } })).status !== 200,
    );

    await admin.getByRole('button', { name: `Deactivate ${email}` }).click();
    await admin.getByRole('button', { name: `Activate ${email}`, exact: true }).waitFor();
    expect(
      await admin
        .getByRole('row', { name: new RegExp(email) })
        .first()
        .textContent(),
    ).toContain('Inactive');
    const verify = await org.call('POST', '/api/portal/developers/verify_credentials', { username: email, password });
    expect(verify.status).toBe(401);
  });

  it('shows every portal page to a read-only user without a button, and the API refuses their writes', async () => {
    const reader = await org.user({ portal: 'read', policies: 'read' });
    const page = await signedIn(reader, 'catalogue');
    await page.getByRole('heading', { name: 'Portal catalogue' }).waitFor();
    await page.getByRole('row', { name: /Weather plan/ }).waitFor();
    expect(await page.getByRole('button', { name: /Move|Unpublish|Publish/ }).count()).toBe(0);
    await openPart(page, 'Key requests', 'Key requests');
    await page.getByLabel('Show requests', { exact: true }).selectOption('declined');
    await page.getByRole('row', { name: /private beta/ }).waitFor();
    expect(await page.getByRole('button', { name: /Approve|Decline/ }).count()).toBe(0);
    await openPart(page, 'Developers', 'Developers');
    await page.getByRole('row', { name: new RegExp(email) }).waitFor();
    expect(await page.getByRole('button', { name: /Activate|Deactivate/ }).count()).toBe(0);
    await openPart(page, 'Settings', 'Portal settings');
    expect(await page.getByRole('button', { name: 'Save settings' }).count()).toBe(0);
    expect(await page.getByLabel(/Close sign-up/).isDisabled()).toBe(true);
    const asReader = dashboard.as(reader);
    for (const [method, path, body] of [
      ['PUT', '/api/portal/catalogue', { apis: [] }],
      ['PUT', '/api/portal/configuration', { disable_signup: true }],
      ['PUT', '/api/portal/requests/decline/anything', { reason: 'no' }],
    ] as const) {
      expect((await asReader(method, path, body)).status, `${method} ${path}`).toBe(403);
    }
    await page.context().close();
  });

  it('creates a page and puts it in the menu, names the portal and styles it: the portal shows the page at its slug, in the menu, under the name, with the CSS', async () => {
    await openPart(admin, 'Pages and menu', 'Portal pages');
    await admin.getByLabel('Title', { exact: true }).fill('Getting started');
    await admin.getByLabel('Slug', { exact: true }).fill('getting-started');
    await admin
      .getByLabel('Content (Markdown)', { exact: true })
      .fill('## First steps\n\nRequest a **key**, then call the API.\n\n<script>window.injected = true</script>');
    await admin.getByRole('button', { name: 'Create the page' }).click();
    await admin.getByRole('row', { name: /Getting started/ }).waitFor();
    await admin.getByRole('button', { name: 'Add "Getting started"' }).click();
    await admin.getByLabel('Label of item 1', { exact: true }).waitFor();
    expect(await admin.evaluate('document.activeElement?.id')).toBe('menu-title-0');
    await admin.getByRole('button', { name: 'Save the menu' }).click();
    await admin.getByText('Saved: the portal shows this menu').waitFor();
    expect(await admin.evaluate(UNLABELLED_CONTROLS)).toBe(0);
    await screenshot(admin, 'ui-portal-pages');

    await openPart(admin, 'Settings', 'Portal settings');
    await admin.getByLabel('Portal name', { exact: true }).fill('Weather Hub');
    await admin.getByLabel('Custom CSS', { exact: true }).fill('header.site { background: rgb(10, 80, 40); }');
    await admin.getByRole('button', { name: 'Save settings' }).click();
    await admin.getByText('Saved: the portal applies these settings').waitFor();

    await developer.goto(portal('apis/'));
    await developer.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Getting started' }).click();
    await developer.getByRole('heading', { name: 'Getting started', level: 1 }).waitFor();
    expect(developer.url()).toBe(portal('getting-started/'));
    expect(await developer.getByRole('heading', { name: 'First steps' }).count()).toBe(1);
    expect(await developer.getByText('<script>window.injected = true</script>').count()).toBe(1);
    expect(await developer.evaluate('window.injected === undefined')).toBe(true);
    expect(await developer.title()).toBe('Getting started · Weather Hub');
    expect(await developer.evaluate(`getComputedStyle(document.querySelector('header.site')).backgroundColor`)).toBe('rgb(10, 80, 40)');
    await screenshot(developer, 'portal-page');
  });

  it('keeps a developer who signs up under developer approval waiting; approved on the Developers page, they sign in', async () => {
    await openPart(admin, 'Settings', 'Portal settings');
    await admin.getByLabel(/New developers wait for an administrator/).check();
    await admin.getByRole('button', { name: 'Save settings' }).click();
    await admin.getByText('Saved: the portal applies these settings').waitFor();

    const newcomer = `newcomer-${process.pid}@example.test`;
    const page = await (await browser.newContext()).newPage();
    await page.goto(portal('register/'));
    await page.getByLabel('E-mail', { exact: true }).fill(newcomer);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText('An administrator approves new accounts').waitFor();
    const signIn = async (): Promise<void> => {
      await page.goto(portal('login/'));
      await page.getByLabel('E-mail', { exact: true }).fill(newcomer);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
    };
    await signIn();
    await page.getByRole('alert').filter({ hasText: 'waiting for an administrator’s approval' }).waitFor();

    await openPart(admin, 'Developers', 'Developers');
    expect(await admin.getByRole('row', { name: new RegExp(newcomer) }).textContent()).toContain('Awaiting approval');
    await admin.getByRole('button', { name: `Approve ${newcomer}` }).click();
    await admin.getByRole('button', { name: `Deactivate ${newcomer}` }).waitFor();
    await signIn();
    await page.getByRole('heading', { name: 'My keys' }).waitFor();
    await page.context().close();
  });

  it('closes sign-up from the settings: the portal no longer offers Register', async () => {
    await openPart(admin, 'Settings', 'Portal settings');
    await admin.getByLabel('Extra key request fields', { exact: true }).waitFor();
    expect(await admin.getByLabel('Extra key request fields', { exact: true }).inputValue()).toBe('Use case');
    await admin.getByLabel(/Close sign-up/).check();
    await admin.getByRole('button', { name: 'Save settings' }).click();
    await admin.getByText('Saved: the portal applies these settings').waitFor();
    await developer.goto(portal('apis/'));
    await developer.getByRole('heading', { name: 'API catalogue' }).waitFor();
    expect(await developer.getByRole('link', { name: 'Register' }).count()).toBe(0);
    expect((await dashboard.anonymous('GET', `/portal/${org.id}/register/`)).status).toBe(404);
    // The other settings were kept.
    expect((await org.call('GET', '/api/portal/configuration')).json()).toMatchObject({
      disable_signup: true,
      require_key_approval: true,
      key_request_fields: ['Use case'],
    });
  });
});
