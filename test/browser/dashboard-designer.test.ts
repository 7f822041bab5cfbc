// The API form's endpoint designer in Chromium on a real dashboard feeding a real gateway (issue 28 item 3): rules
// added from the keyboard with every control labelled (block GET /admin, a mock on /status), a refused rule input
// shown at its field, the saved rules in the default version's extended_paths, and the gateway enforcing them.
import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { classicApi, createOrg, NODE_SECRET, startDashboard, type RunningDashboard, type TestOrg } from '../support/dashboard.ts';
import { startGateway } from '../support/gateway.ts';
import { useDatabases } from '../support/postgres.ts';
import { startUpstream } from '../support/upstream.ts';
import { waitUntil } from '../support/wait.ts';

describe('endpoint designer in the web UI', () => {
  const db = useDatabases('pglite');
  let dashboard: RunningDashboard;
  let browser: Browser;
  let org: TestOrg;

  beforeAll(async () => {
    [dashboard, browser] = await Promise.all([startDashboard(db.config()), launchBrowser()]);
    org = await createOrg(dashboard, 'Designer Org');
  });

  it('adds a block and a mock rule, shows a refused input at its field, and a real gateway enforces the saved rules', async () => {
    const upstream = await startUpstream();
    const api = (
      await org.call('POST', '/api/apis', {
        api_definition: classicApi('Shop', '/shop/', { proxy: { listen_path: '/shop/', target_url: upstream.url, strip_listen_path: true } }),
      })
    ).json<{ Meta: string }>().Meta;
    const gateway = await startGateway({
      use_db_app_configs: true,
      db_app_conf_options: { connection_string: dashboard.url, node_secret: NODE_SECRET, poll_interval_seconds: 0.3 },
    });
    await waitUntil('the gateway to serve Shop', async () => (await gateway.call('/shop/admin')).status === 200);

    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('pageerror', (error) => process.stderr.write(`[page error] ${error.stack ?? error.message}\n`));
    await page.goto(`${dashboard.url}/#/apis/${api}`);
    await page.getByLabel('Access key', { exact: true }).fill(org.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'API: Shop' }).waitFor();
    const focusedLabel = (): Promise<string> => page.evaluate('document.activeElement.labels[0].textContent');

    // From the keyboard: the new rule takes the focus, Tab goes on through its controls.
    await page.getByRole('button', { name: 'Add an endpoint rule' }).focus();
    await page.keyboard.press('Enter');
    await page.getByLabel('Rule 1 kind', { exact: true }).waitFor();
    expect(await focusedLabel()).toBe('Rule 1 kind');
    await page.keyboard.press('Tab');
    expect(await focusedLabel()).toBe('Rule 1 path');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('/admin');
    await page.keyboard.press('Tab');
    expect(await focusedLabel()).toBe('Rule 1 method');

    await page.getByRole('button', { name: 'Add an endpoint rule' }).click();
    await page.getByLabel('Rule 2 kind', { exact: true }).selectOption('mock');
    await page.getByLabel('Rule 2 path', { exact: true }).fill('/status');
    await page.getByLabel('Rule 2 body', { exact: true }).fill('{"status":"ok"}');
    await page.getByLabel('Rule 2 headers', { exact: true }).fill('Content-Type: application/json');

    // A refused input, shown at its field.
    await page.getByRole('button', { name: 'Add an endpoint rule' }).click();
    await page.getByLabel('Rule 3 kind', { exact: true }).selectOption('timeout');
    await page.getByLabel('Rule 3 timeout (seconds)', { exact: true }).fill('soon');
    const unlabelled = await page.evaluate(
      `[...document.querySelectorAll('input, select, textarea')].filter((c) => c.labels.length === 0 && !c.getAttribute('aria-label')).length`,
    );
    expect(unlabelled).toBe(0);
    await page.getByRole('button', { name: 'Save API' }).click();
    await page.locator('#rule-3-timeout-note', { hasText: 'version_data.versions.Default.extended_paths.hard_timeouts[0].timeout' }).waitFor();
    expect(await page.getByLabel('Rule 3 timeout (seconds)', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await page.getByRole('button', { name: 'Remove rule 3' }).click();
    await page.getByRole('group', { name: 'Endpoint designer (default version)' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'ui-endpoint-designer', { scroll: false });
    await page.getByRole('button', { name: 'Save API' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();

    const stored = (await org.call('GET', `/api/apis/${api}`)).json<{ api_definition: { version_data: { versions: Record<string, unknown> } } }>();
    expect(stored.api_definition.version_data.versions.Default).toMatchObject({
      use_extended_paths: true,
      extended_paths: {
        black_list: [{ path: '/admin', method: 'GET' }],
        ignored: [
          {
            path: '/status',
            method: 'GET',
            method_actions: { GET: { action: 'reply', code: 200, data: '{"status":"ok"}', headers: { 'Content-Type': 'application/json' } } },
          },
        ],
      },
    });

    await waitUntil('the gateway to block GET /admin', async () => (await gateway.call('/shop/admin')).status === 403);
    const mocked = await gateway.call('/shop/status');
    expect([mocked.status, mocked.headers['content-type'], mocked.text]).toEqual([200, 'application/json', '{"status":"ok"}']);
    expect((await gateway.call('/shop/admin', { method: 'POST', body: '{}' })).status).toBe(200);
    expect(upstream.requests.some((r) => r.url.startsWith('/status'))).toBe(false);
    await page.context().close();
  });
});
