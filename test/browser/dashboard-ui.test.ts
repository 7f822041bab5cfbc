// The dashboard's web UI in a real browser (Debian's Chromium through playwright-core) against a real `gw dashboard`
// process on PostgreSQL: sign in with an access key (an HttpOnly, SameSite=Strict session cookie), create an API
// with the form and by each of the four import sources, edit one in the JSON editor with the dashboard's
// validation error shown at the field, find it in the list; policies with gw's documented state labels and a required
// key expiry; a key shown once; another organisation's APIs never visible; a read-only user's denials shown as
// pages; cookie writes refused without the CSRF token; sign-out ends the session on the server. The list of
// 1 000 APIs is timed and printed (not asserted), with the page's cumulative layout shift. The tests tell one story
// in order (a later one finds the API an earlier one created), as a user would: run the file, not one test.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/up/paths.ts';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { ALL_WRITE, classicApi, createOrg, NODE_SECRET, startDashboard, type RunningDashboard, type TestOrg } from '../support/dashboard.ts';
import { startGateway } from '../support/gateway.ts';
import { useDatabases } from '../support/postgres.ts';
import { startUpstream } from '../support/upstream.ts';
import { waitUntil } from '../support/wait.ts';
import { ADMIN_TOKEN, startHub, type RunningHub } from '../integration/governance/hub-process.ts';

const LAYOUT_SHIFT_OBSERVER = `window.__layoutShift = 0;
new PerformanceObserver((list) => { for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__layoutShift += entry.value; })
  .observe({ type: 'layout-shift', buffered: true });`;

const testdata = (name: string): string => readFileSync(join(REPO_ROOT, 'test', 'integration', 'testdata', 'import', name), 'utf8');

describe('dashboard web UI in Chromium', () => {
  const db = useDatabases('postgres');
  let dashboard: RunningDashboard;
  let hub: RunningHub;
  let browser: Browser;
  let a: TestOrg;
  let b: TestOrg;
  /** Made in the UI by one test, used at the gateway by the next. */
  let ordersId: string;
  let uiKey: string;

  beforeAll(async () => {
    // A governance hub beside the dashboard: the API page shows and applies its labels.
    [hub, browser] = await Promise.all([startHub(db.config()), launchBrowser()]);
    dashboard = await startDashboard(db.config({ page_size: 100, governance_url: hub.url, governance_token: ADMIN_TOKEN }));
    a = await createOrg(dashboard, 'Acme');
    b = await createOrg(dashboard, 'Other Org');
    expect((await b.call('POST', '/api/apis', classicApi('Other org secret API', '/other-secret/'))).status).toBe(200);
  });

  const signIn = async (key: string): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // Cumulative layout shift over the page's life (Chromium's layout-shift entries), read by the measurements.
    await context.addInitScript(LAYOUT_SHIFT_OBSERVER);
    const page = await context.newPage();
    page.on('pageerror', (error) => process.stderr.write(`[page error] ${error.stack ?? error.message}\n`));
    await page.goto(`${dashboard.url}/`);
    await page.getByLabel('Access key', { exact: true }).fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Sections' }).waitFor();
    return { context, page };
  };

  const setEditorText = async (page: Page, text: string): Promise<void> => {
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(text);
  };

  it('signs in with an access key into an HttpOnly SameSite=Strict session; a wrong key is refused at the field', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${dashboard.url}/`);
    await page.getByLabel('Access key', { exact: true }).fill('not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('That access key is not valid').waitFor();
    expect(await page.getByLabel('Access key', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'ui-sign-in');
    await page.getByLabel('Access key', { exact: true }).fill(a.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'APIs' }).waitFor();
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'gw_session', httpOnly: true, sameSite: 'Strict', secure: false });
    expect(cookie!.value).not.toContain(a.key);
    await context.close();
  });

  it('works from the keyboard alone: sign in, skip link, navigation, form controls', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${dashboard.url}/`);
    await page.getByLabel('Access key', { exact: true }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('access-key');
    await page.keyboard.type(a.key);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'APIs' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement.id')).toBe('main');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Create API');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Create API' }).waitFor();
    // Every control of the form has a label.
    const unlabelled = await page.evaluate(
      `[...document.querySelectorAll('input, select, textarea')].filter((c) => c.labels.length === 0 && !c.getAttribute('aria-label')).length`,
    );
    expect(unlabelled).toBe(0);
    await context.close();
  });

  it('creates an API with the form, then edits it in the JSON editor with the refused field marked in the text', async () => {
    const { context, page } = await signIn(a.key);
    await page.getByRole('link', { name: 'Create API' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Orders');
    await page.getByLabel('Listen path', { exact: true }).fill('/orders/');
    await page.getByLabel('Upstream URL', { exact: true }).fill('http://orders.internal:8080/');
    await page.getByLabel('Authentication', { exact: true }).selectOption('token');
    await page.getByLabel('Versions', { exact: true }).fill('v1, v2');
    await page.getByLabel('Default version', { exact: true }).fill('v1');
    await page.getByLabel('Rate limit (requests)', { exact: true }).fill('100');
    await page.getByLabel('Per (seconds)', { exact: true }).fill('60');
    await page.getByLabel('Labels (tags)', { exact: true }).fill('team-orders, tier-1');
    await page.getByRole('button', { name: 'Add an endpoint rule' }).click();
    await page.getByLabel('Rule 1 kind', { exact: true }).selectOption('timeout');
    await page.getByLabel('Rule 1 path', { exact: true }).fill('/reports/{id}');
    await page.getByLabel('Rule 1 method', { exact: true }).selectOption('POST');
    await page.getByLabel('Rule 1 timeout (seconds)', { exact: true }).fill('5');
    await screenshot(page, 'ui-api-form');
    await page.getByRole('button', { name: 'Create API' }).click();
    await page.getByRole('heading', { name: 'API: Orders' }).waitFor();
    const id = decodeURIComponent(new URL(page.url()).hash.split('/').pop()!);
    ordersId = id;
    const stored = (await a.call('GET', `/api/apis/${id}`)).json<{ api_definition: Record<string, unknown> }>().api_definition;
    expect(stored).toMatchObject({
      name: 'Orders',
      use_standard_auth: true,
      proxy: { listen_path: '/orders/', target_url: 'http://orders.internal:8080/' },
      version_data: {
        default_version: 'v1',
        versions: {
          v1: { name: 'v1', use_extended_paths: true, extended_paths: { hard_timeouts: [{ path: '/reports/{id}', method: 'POST', timeout: 5 }] } },
          v2: { name: 'v2' },
        },
      },
      global_rate_limit: { rate: 100, per: 60 },
      tags: ['team-orders', 'tier-1'],
    });

    // The form's refused field, beside its input.
    await page.getByLabel('Rate limit (requests)', { exact: true }).fill('lots');
    await page.getByRole('button', { name: 'Save API' }).click();
    await page.locator('#api-rate-note', { hasText: 'global_rate_limit.rate' }).waitFor();
    expect(await page.getByLabel('Rate limit (requests)', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Rate limit (requests)', { exact: true }).fill('100');

    await page.getByRole('tab', { name: 'JSON' }).click();
    const text = JSON.stringify({ ...stored, proxy: { ...(stored.proxy as object), listen_path: 42 } }, null, 2);
    await setEditorText(page, text);

    await page.getByRole('button', { name: 'Save API' }).click();
    await page.getByRole('list', { name: 'Problems' }).getByText('proxy.listen_path').waitFor();
    const marked = page.locator('.cm-lintRange-error').first();
    await marked.waitFor();
    expect(await marked.textContent()).toBe('"listen_path"');
    await screenshot(page, 'ui-api-editor-error');

    await setEditorText(page, JSON.stringify({ ...stored, name: 'Orders (edited)' }, null, 2));
    await page.getByRole('button', { name: 'Save API' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await a.call('GET', `/api/apis/${id}`)).json<{ api_definition: { name: string } }>().api_definition.name).toBe('Orders (edited)');

    await page.getByRole('tab', { name: 'YAML' }).click();
    expect(await page.locator('.cm-content').textContent()).toContain('name: Orders (edited)');
    await context.close();
  });

  it('imports an API from each of the four sources', async () => {
    const { context, page } = await signIn(a.key);
    const countApis = async (): Promise<number> => (await a.call('GET', '/api/apis?p=-2')).json<{ apis: unknown[] }>().apis.length;
    const before = await countApis();
    const imports: { source: string; document: string; fill?: Record<string, string> }[] = [
      { source: 'Existing API definition', document: JSON.stringify(classicApi('Copied definition', '/copied/')) },
      { source: 'API Blueprint (JSON)', document: testdata('machines-blueprint-ast.json'), fill: { 'Upstream URL': 'http://machines.internal/' } },
      {
        source: 'Swagger / OpenAPI (JSON)',
        document: testdata('petstore-swagger-2.0.json'),
        fill: { 'Upstream URL': 'http://petstore.internal:8080/', 'Version name': 'v2' },
      },
      {
        source: 'WSDL',
        document: testdata('calculator.wsdl'),
        fill: { 'Upstream URL': 'http://calculator.internal/', 'Service name': 'Calculator', 'Port name': 'CalculatorSoap' },
      },
    ];
    for (const { source, document, fill = {} } of imports) {
      await page.goto(`${dashboard.url}/#/apis/import`);
      await page.getByRole('radio', { name: source }).check();
      await page.getByLabel('Document', { exact: true }).fill(document);
      for (const [label, value] of Object.entries(fill)) await page.getByLabel(label, { exact: true }).fill(value);
      if (source === 'WSDL') await screenshot(page, 'ui-import');
      await page.getByRole('button', { name: 'Import' }).click();
      await page.getByRole('heading', { name: /^API: / }).waitFor();
      // The importer's notes (Warning headers) are shown on the API it created.
      if (source.startsWith('Swagger')) await page.getByRole('heading', { name: 'Imported, with notes' }).waitFor();
    }
    const names = (await a.call('GET', '/api/apis?p=-2')).json<{ apis: { api_definition: { name: string } }[] }>().apis.map((x) => x.api_definition.name);
    expect(names).toEqual(expect.arrayContaining(['Copied definition', 'Swagger Petstore']));
    expect(await countApis()).toBe(before + 4);

    // A refused import names the field: Swagger 2.0 without an upstream.
    await page.goto(`${dashboard.url}/#/apis/import`);
    await page.getByRole('radio', { name: 'Swagger / OpenAPI (JSON)' }).check();
    await page.getByLabel('Document', { exact: true }).fill(testdata('petstore-swagger-2.0.json'));
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByRole('alert').filter({ hasText: 'upstream_url' }).first().waitFor();
    await context.close();
  });

  it("lists the organisation's APIs with search and label filter; another organisation's never appear", async () => {
    const { context, page } = await signIn(a.key);
    await page.getByRole('cell', { name: 'Orders (edited)' }).waitFor();
    expect(await page.getByText('Other org secret API').count()).toBe(0);
    // Every authentication method's name is shown whole (none cut to "Authentication t…").
    const cutAuthCells = `[...document.querySelectorAll('tbody tr td:nth-child(4)')].filter((td) => td.scrollWidth > td.clientWidth).map((td) => td.textContent)`;
    expect(await page.evaluate(cutAuthCells)).toEqual([]);
    await screenshot(page, 'ui-apis');
    await page.getByLabel('Search', { exact: true }).fill('petstore');
    await page
      .getByRole('status')
      .filter({ hasText: /^1 API of \d+$/ })
      .waitFor();
    await page.getByLabel('Search', { exact: true }).fill('');
    await page.getByLabel('Label', { exact: true }).selectOption('tier-1');
    await page
      .getByRole('status')
      .filter({ hasText: /^1 API of/ })
      .waitFor();
    expect(await page.locator('tbody tr').count()).toBe(1);
    // Nor by its id, directly.
    const otherId = (await b.call('GET', '/api/apis')).json<{ apis: { api_definition: { api_id: string } }[] }>().apis[0]!.api_definition.api_id;
    await page.goto(`${dashboard.url}/#/apis/${otherId}`);
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    await context.close();
  });

  it("shows and applies the governance hub's labels on an API, and filters the API list by them", async () => {
    const { context, page } = await signIn(a.key);
    await page.goto(`${dashboard.url}/#/apis/${ordersId}`);
    const labels = page.getByRole('group', { name: 'Labels from the governance hub' });
    await labels.getByLabel('API Criticality', { exact: true }).locator('option', { hasText: 'Tier 1' }).waitFor({ state: 'attached' });
    expect(await labels.getByLabel('API Criticality', { exact: true }).locator('option').allTextContents()).toEqual(['(none)', 'Tier 1', 'Tier 2', 'Tier 3']);
    await labels.getByLabel('API Criticality', { exact: true }).selectOption('Tier 1');
    await labels.getByLabel('Business Domain', { exact: true }).fill('Sales');
    await page.getByRole('button', { name: 'Apply labels' }).click();
    await page.getByRole('status').filter({ hasText: 'Labels applied.' }).waitFor();
    expect((await hub.admin('GET', `/api/${ordersId}/labels`)).json()).toEqual({
      api_id: ordersId,
      labels: { 'API Criticality': 'Tier 1', 'Business Domain': 'Sales' },
    });
    await page.getByRole('heading', { name: 'Governance labels' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'ui-governance-labels', { scroll: false });
    // Read back on a fresh page.
    await page.reload();
    expect(await page.getByRole('group', { name: 'Labels from the governance hub' }).getByLabel('Business Domain', { exact: true }).inputValue()).toBe('Sales');
    // The API list filters by it (the other organisation's API carries the same label at the hub, and stays out).
    const otherId = (await b.call('GET', '/api/apis')).json<{ apis: { api_definition: { api_id: string } }[] }>().apis[0]!.api_definition.api_id;
    expect((await hub.admin('PUT', `/api/${otherId}/labels`, { labels: { 'API Criticality': 'Tier 1' } })).status).toBe(200);
    await page.getByRole('link', { name: 'APIs', exact: true }).click();
    await page.getByLabel('Governance label', { exact: true }).selectOption({ label: 'API Criticality: Tier 1' });
    await page
      .getByRole('status')
      .filter({ hasText: /^1 API of \d+$/ })
      .waitFor();
    expect(await page.locator('tbody tr').allTextContents()).toEqual([expect.stringContaining('Orders (edited)')]);
    await context.close();
  });

  it('creates a policy with a required key expiry and the documented state labels, then a key shown once', async () => {
    const { context, page } = await signIn(a.key);
    await page.getByRole('link', { name: 'Policies' }).click();
    await page.getByRole('link', { name: 'Create policy' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Gold');
    await page.getByRole('button', { name: 'Create policy' }).click();
    await page.locator('#policy-expiry-note', { hasText: 'key_expires_in' }).waitFor();
    expect(await page.getByLabel('State', { exact: true }).locator('option').allTextContents()).toEqual(['Active', 'Draft', 'Access Denied']);
    await page.getByLabel('Key expiry (required)', { exact: true }).selectOption({ label: '30 days' });
    await page.getByLabel('Rate (requests)', { exact: true }).fill('10');
    await page.getByLabel('Per (seconds)', { exact: true }).fill('1');
    await page.getByRole('checkbox', { name: 'Orders (edited)' }).check();
    await page.getByRole('button', { name: 'Create policy' }).click();
    await page.getByRole('cell', { name: 'Gold' }).waitFor();
    await page.getByRole('link', { name: 'Create policy' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Frozen');
    await page.getByLabel('State', { exact: true }).selectOption({ label: 'Draft' });
    await page.getByLabel('Key expiry (required)', { exact: true }).selectOption({ label: 'Never' });
    await page.getByRole('button', { name: 'Create policy' }).click();
    await page.getByRole('row', { name: /Frozen\s*Draft/ }).waitFor();
    await screenshot(page, 'ui-policies');

    await page.getByRole('link', { name: 'Keys' }).click();
    await page.getByLabel('Policy', { exact: true }).selectOption({ label: 'Gold (Active)' });
    expect(await page.getByLabel('Policy', { exact: true }).locator('option', { hasText: 'Frozen' }).isDisabled()).toBe(true);
    await page.getByLabel('Alias', { exact: true }).fill('mobile-app');
    await page.getByRole('checkbox', { name: /Detailed logging/ }).check();
    await page.getByLabel('Tags', { exact: true }).fill('mobile, beta');
    await page.getByLabel('Metadata (JSON object)', { exact: true }).fill('{"team": "apps"}');
    const formHeading = page.getByRole('heading', { name: 'New key', exact: true });
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.locator('#new-key').textContent())!;
    uiKey = key;
    // The key list above the form gains the new key's row (the form moves down by that row, once); then the key is
    // shown in a modal dialog over the form: the form does not move when the dialog goes.
    await page.getByRole('cell', { name: 'mobile-app', exact: true }).waitFor();
    const formTop = (await formHeading.boundingBox())!.y;
    expect(await page.getByRole('dialog', { name: 'Your new key' }).isVisible()).toBe(true);
    await screenshot(page, 'ui-keys');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    expect((await formHeading.boundingBox())!.y).toBe(formTop);
    const session = (await a.call('GET', `/api/keys/${key}`)).json<{ data: Record<string, unknown> }>().data;
    expect(session).toMatchObject({ alias: 'mobile-app', enable_detailed_recording: true, tags: ['mobile', 'beta'], meta_data: { team: 'apps' } });
    await page.reload();
    await page.getByRole('heading', { name: 'Keys' }).waitFor();
    expect(await page.getByText(key).count()).toBe(0);
    await context.close();
  });

  it('calls a gateway fed by the dashboard with the key made in the UI and sees the call in the analytics; another organisation sees none of it', async () => {
    // The API made with the form points at a real upstream now, and a licensed gateway loads it from the dashboard.
    const upstream = await startUpstream();
    // It also tracks one endpoint (per version), for the per-endpoint view.
    type Versions = Record<string, { extended_paths?: Record<string, unknown> }>;
    const stored = (await a.call('GET', `/api/apis/${ordersId}`)).json<{
      api_definition: { proxy: Record<string, unknown>; version_data: { versions: Versions } };
    }>().api_definition;
    const tracked = Object.fromEntries(
      Object.entries(stored.version_data.versions).map(([name, v]) => [
        name,
        { ...v, use_extended_paths: true, extended_paths: { ...v.extended_paths, track_endpoints: [{ path: '/items/{id}', method: 'GET' }] } },
      ]),
    );
    const updated = await a.call('PUT', `/api/apis/${ordersId}`, {
      ...stored,
      proxy: { ...stored.proxy, target_url: upstream.url, strip_listen_path: true },
      version_data: { ...stored.version_data, versions: tracked },
    });
    expect(updated.status, updated.text).toBe(200);
    const gateway = await startGateway({
      use_db_app_configs: true,
      policies: { policy_source: 'service' },
      db_app_conf_options: { connection_string: dashboard.url, node_secret: NODE_SECRET, poll_interval_seconds: 0.3 },
      analytics_config: { flush_interval: 100 },
    });
    const asKey = { headers: { authorization: uiKey } };
    // Until the gateway has loaded the API it answers 404 and records nothing; anything else but 200 is a failure.
    await waitUntil('the gateway to serve the Orders API with its upstream', async () => {
      const { status, text } = await gateway.call('/orders/items/0', asKey);
      if (status !== 200 && status !== 404) throw new Error(`the gateway answered ${status}: ${text}`);
      return status === 200;
    });
    for (let i = 1; i <= 3; i++) expect((await gateway.call(`/orders/items/${i}`, asKey)).status).toBe(200);
    expect((await gateway.call('/orders/items', { method: 'POST', ...asKey, body: 'order-from-the-browser-test' })).status).toBe(200);
    expect((await gateway.call('/orders/status/500', asKey)).status).toBe(500);
    // 6 calls: the one that found the API served, three reads, the POST and the upstream's 500.
    const analyst = await a.user({ ...ALL_WRITE, analytics: 'read' });
    const hour = (offset: number): number => Math.floor((Date.now() + offset) / 1000);
    const hits = async (): Promise<number> =>
      (await dashboard.as(analyst)('GET', `/api/activity/apis/${hour(-3_600_000)}/${hour(3_600_000)}`))
        .json<{ data: { id: { api_id: string }; hits: number }[] }>()
        .data.find((e) => e.id.api_id === ordersId)?.hits ?? 0;
    await waitUntil("the gateway's records of the 6 calls in the dashboard", async () => (await hits()) === 6);

    // Without the analytics permission, the page says what is missing.
    const denied = await signIn(a.key);
    await denied.page.getByRole('link', { name: 'Analytics' }).click();
    await denied.page.getByRole('heading', { name: 'Access denied' }).waitFor();
    expect(await denied.page.getByRole('alert').textContent()).toContain('requires analytics read');
    await denied.context.close();

    const { context, page } = await signIn(analyst);
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.getByLabel('Range', { exact: true }).selectOption({ label: 'Last hour' });
    expect(await page.getByLabel('Resolution', { exact: true }).inputValue()).toBe('minute');
    await page
      .getByRole('status')
      .filter({ hasText: /^6 requests, 1 error from/ })
      .waitFor();
    const row = (name: string) => page.getByRole('table', { name: /^Totals per/ }).getByRole('row', { name: new RegExp(`^${name}`) });
    expect(await row('Orders \\(edited\\)').locator('td').allTextContents()).toEqual(['6', '1', expect.stringMatching(/ ms$/), expect.stringMatching(/ ms$/)]);
    // Each chart is an image with a name and its numbers as a table.
    for (const title of ['Requests per API', 'Errors per API', 'Latency per API'])
      await page.getByRole('img', { name: new RegExp(`^${title}: 1 API lines`) }).waitFor();
    expect(await page.locator('figure.chart canvas').count()).toBe(3);
    await page.getByText('Requests per API as a table').click();
    const requestsTable = page.getByRole('table', { name: /^Requests per API per bucket/ });
    expect(await requestsTable.getByRole('columnheader').allTextContents()).toEqual(['Time', 'Orders (edited)']);
    const perMinute = (await requestsTable.locator('tbody td').allTextContents()).map(Number);
    expect(perMinute.reduce((sum, n) => sum + n, 0)).toBe(6);
    // The request log of the key with detailed logging: the POST, with its body.
    const posted = page.locator('.log-row', { hasText: 'POST' });
    await posted.getByText('/items', { exact: true }).click();
    await posted.getByText('order-from-the-browser-test').first().waitFor();
    expect(await page.locator('.log-row').count()).toBe(6);
    await screenshot(page, 'ui-analytics');
    process.stderr.write(`[measure] analytics page: cumulative layout shift since sign-in ${Number(await page.evaluate('window.__layoutShift')).toFixed(4)}\n`);

    await page.getByLabel('Per', { exact: true }).selectOption({ label: 'Key (alias)' });
    expect(await row('mobile-app').locator('td').first().textContent()).toBe('6');
    await page.getByLabel('Per', { exact: true }).selectOption({ label: 'Tag' });
    expect(await row('mobile').locator('td').first().textContent()).toBe('6');
    expect(await row('beta').locator('td').first().textContent()).toBe('6');
    // Per endpoint of the Orders API: its tracked GET /items/{id} took the four reads (the POST and /status are not tracked).
    await page.getByLabel('Per', { exact: true }).selectOption({ label: 'Endpoint of an API' });
    await page.getByLabel('API', { exact: true }).selectOption({ label: 'Orders (edited)' });
    await page.getByRole('img', { name: /^Requests per endpoint: 1 endpoint lines/ }).waitFor();
    expect(await row('GET /items/\\{id\\}').locator('td').allTextContents()).toEqual(['4', '0', expect.stringMatching(/ ms$/), expect.stringMatching(/ ms$/)]);
    await screenshot(page, 'ui-analytics-endpoints');
    await context.close();

    // Another organisation's analyst sees nothing of it.
    const other = await signIn(await b.user({ apis: 'read', analytics: 'read' }));
    await other.page.getByRole('link', { name: 'Analytics' }).click();
    await other.page.getByLabel('Range', { exact: true }).selectOption({ label: 'Last hour' });
    await other.page
      .getByRole('status')
      .filter({ hasText: /^0 requests, 0 errors from/ })
      .waitFor();
    await other.page.getByText('No requests recorded in detail in this range').waitFor();
    expect(await other.page.getByText('Orders (edited)').count()).toBe(0);
    expect(await other.page.getByText('mobile-app').count()).toBe(0);
    await other.context.close();
  });

  it("manages the organisation's users: create with permissions, change them, reset the key, deactivate; never above one's own", async () => {
    const denied = await signIn(a.key);
    await denied.page.getByRole('link', { name: 'Users' }).click();
    await denied.page.getByRole('heading', { name: 'Access denied' }).waitFor();
    expect(await denied.page.getByRole('alert').textContent()).toContain('requires users read');
    await denied.context.close();

    const manager = await a.user({ ...ALL_WRITE, portal: 'read', users: 'write' });
    const otherUserEmail = (await dashboard.admin('GET', `/admin/users?org_id=${b.id}`)).json<{ users: { email_address: string }[] }>().users[0]!.email_address;
    const { context, page } = await signIn(manager);
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    await page.getByRole('row', { name: /you/ }).waitFor();
    expect(await page.getByText(otherUserEmail).count()).toBe(0);

    const grid = page.getByRole('group', { name: 'Permissions of the new user' });
    await page.getByLabel('E-mail address', { exact: true }).fill('dana@acme.test');
    await page.getByLabel('First name', { exact: true }).fill('Dana');
    await grid.getByLabel('APIs', { exact: true }).selectOption({ label: 'Read and write' });
    // Above the manager's own permission (portal: read): offered disabled.
    expect(await grid.getByLabel('Portal', { exact: true }).locator('option', { hasText: 'Read and write' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Create user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Access key of Dana' });
    await dialog.waitFor();
    const danaKey = (await dialog.locator('code').textContent())!;
    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect((await dashboard.as(danaKey)('POST', '/api/apis', classicApi('By Dana', '/by-dana/'))).status).toBe(200);
    expect((await dashboard.as(danaKey)('GET', '/api/portal/policies')).status).toBe(403);

    await page.getByRole('button', { name: 'Permissions of Dana' }).click();
    await page.getByRole('group', { name: 'What Dana may do' }).getByLabel('Policies', { exact: true }).selectOption({ label: 'Read' });
    await page.getByRole('button', { name: 'Save permissions' }).click();
    await page.getByRole('status').filter({ hasText: 'Permissions of Dana saved.' }).waitFor();
    expect((await dashboard.as(danaKey)('GET', '/api/portal/policies')).status).toBe(200);
    await page.getByRole('row', { name: /Dana/ }).getByText('Policies: read').waitFor();
    await screenshot(page, 'ui-users');

    await page.getByRole('button', { name: 'Reset the key of Dana' }).click();
    const resetDialog = page.getByRole('dialog', { name: 'New access key of Dana' });
    await resetDialog.waitFor();
    const newKey = (await resetDialog.locator('code').textContent())!;
    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect((await dashboard.as(danaKey)('GET', '/api/apis')).status).toBe(401);
    expect((await dashboard.as(newKey)('GET', '/api/apis')).status).toBe(200);

    await page.getByRole('button', { name: 'Deactivate Dana' }).click();
    await page.getByRole('row', { name: /Dana.*Inactive/ }).waitFor();
    expect((await dashboard.as(newKey)('GET', '/api/apis')).status).toBe(401);
    await context.close();
  });

  it("shows a read-only user's denials as pages and refuses cookie writes without the CSRF token", async () => {
    const readOnly = await a.user({ apis: 'read' });
    const { context, page } = await signIn(readOnly);
    await page.getByRole('cell', { name: 'Orders (edited)' }).waitFor();
    expect(await page.getByRole('link', { name: 'Create API' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Orders (edited)' }).click();
    await page.getByRole('heading', { name: 'API: Orders (edited)' }).waitFor();
    expect(await page.getByLabel('Name', { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save API' }).count()).toBe(0);
    const labels = page.getByRole('group', { name: 'Labels from the governance hub' });
    await waitUntil('the labels read', async () => (await labels.getByLabel('Business Domain', { exact: true }).inputValue()) === 'Sales');
    expect(await labels.getByLabel('Business Domain', { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Apply labels' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Policies' }).click();
    await page.getByRole('heading', { name: 'Access denied' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('requires policies read');
    await screenshot(page, 'ui-access-denied');
    await page.getByRole('link', { name: 'Account' }).click();
    expect(await page.getByRole('row', { name: /^APIs/ }).textContent()).toBe('APIsRead');
    expect(await page.getByRole('row', { name: /^Policies/ }).textContent()).toBe('PoliciesNo access');

    // The cookie is a way in through the same permission checks, and its writes need the session's CSRF token.
    const csrf = (await page.request.get(`${dashboard.url}/session`).then((r) => r.json())) as { csrf_token: string };
    const noToken = await page.request.post(`${dashboard.url}/api/apis`, { data: classicApi('Sneaky', '/sneaky/') });
    expect(noToken.status()).toBe(403);
    expect(await noToken.text()).toContain('x-csrf-token');
    const withToken = await page.request.post(`${dashboard.url}/api/apis`, {
      data: classicApi('Sneaky', '/sneaky/'),
      headers: { 'x-csrf-token': csrf.csrf_token },
    });
    expect(withToken.status()).toBe(403);
    expect(await withToken.text()).toContain('requires apis write');
    await context.close();
  });

  it("shows an operator-managed organisation's APIs read-only, with a note, to its human users", async () => {
    const org = (await dashboard.admin('POST', '/admin/organisations', { owner_name: 'Managed', operator_managed: true })).json<{ Meta: string }>().Meta;
    const user = async (system: boolean): Promise<string> =>
      (
        await dashboard.admin('POST', '/admin/users', {
          org_id: org,
          email_address: `${system ? 'operator' : 'human'}-${process.pid}@managed.test`,
          user_permissions: ALL_WRITE,
          system,
        })
      ).json<{ Meta: { access_key: string } }>().Meta.access_key;
    const [operator, human] = [await user(true), await user(false)];
    expect((await dashboard.as(operator)('POST', '/api/apis', classicApi('Operator-owned API', '/operator-owned/'))).status).toBe(200);
    const { context, page } = await signIn(human);
    await page.getByRole('note').filter({ hasText: 'managed by the operator' }).waitFor();
    expect(await page.getByRole('link', { name: 'Create API' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Operator-owned API' }).click();
    await page.getByRole('note').filter({ hasText: 'Managed by the operator' }).waitFor();
    expect(await page.getByLabel('Listen path', { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save API' }).count()).toBe(0);
    await page.getByRole('tab', { name: 'YAML' }).click();
    expect(await page.locator('.cm-content').getAttribute('contenteditable')).toBe('false');
    await screenshot(page, 'ui-operator-managed');
    await context.close();
  });

  it('signs out: the session ends on the server, the old cookie opens nothing', async () => {
    const { context, page } = await signIn(a.key);
    const [cookie] = await context.cookies();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();
    expect((await dashboard.anonymous('GET', '/api/apis', undefined, { cookie: `gw_session=${cookie!.value}` })).status).toBe(401);
    await context.close();
  });

  it('renders a list of 1 000 APIs (time printed, not asserted)', async () => {
    const big = await createOrg(dashboard, 'Big');
    for (let start = 0; start < 1000; start += 25) {
      await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          big.call('POST', '/api/apis', classicApi(`API ${String(start + i).padStart(4, '0')}`, `/api-${start + i}/`, { tags: [`team-${(start + i) % 7}`] })),
        ),
      );
    }
    const { context, page } = await signIn(big.key);
    await page.getByRole('link', { name: 'Policies' }).click();
    await page.getByRole('heading', { name: 'Policies' }).waitFor();
    const started = Date.now();
    await page.getByRole('link', { name: 'APIs' }).click();
    await page.getByRole('status').filter({ hasText: '1000 APIs' }).waitFor();
    await page.getByRole('cell', { name: 'API 0000' }).waitFor();
    const listMs = Date.now() - started;
    const searchStarted = Date.now();
    await page.getByLabel('Search', { exact: true }).fill('API 0999');
    await page.getByRole('cell', { name: 'API 0999' }).waitFor();
    const searchMs = Date.now() - searchStarted;
    const layoutShift = Number(await page.evaluate('window.__layoutShift'));
    process.stderr.write(
      `[measure] 1000 APIs: list shown ${listMs} ms after the click (fetch + render), search ${searchMs} ms; cumulative layout shift since sign-in ${layoutShift.toFixed(4)}\n`,
    );
    expect(await page.locator('tbody tr').count()).toBe(1);
    await context.close();
  });
});
