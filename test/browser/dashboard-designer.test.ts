// The API form's endpoint designer in Chromium on a real dashboard feeding a real gateway (issue 28 item 3), for a
// Classic API and for an OAS API: rules added from the keyboard with every control labelled (block GET /admin, a
// mock on /status), a refused rule input shown at its field, the saved rules in the default version's
// extended_paths (OAS: the operations' middleware, an operation added to paths with Tyk's generated operationId),
// and one gateway, shared by both, enforcing them.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser.ts';
import { classicApi, NODE_SECRET } from '../support/dashboard.ts';
import { useDashboardUi } from '../support/dashboard-ui.ts';
import { startGateway, type RunningGateway } from '../support/gateway.ts';
import { startUpstream, type Upstream } from '../support/upstream.ts';
import { waitUntil } from '../support/wait.ts';

describe('endpoint designer in the web UI', () => {
  const ui = useDashboardUi('Designer Org');
  let upstream: Upstream;
  let gateway: RunningGateway;

  beforeAll(async () => {
    upstream = await startUpstream();
    gateway = await startGateway({
      use_db_app_configs: true,
      db_app_conf_options: { connection_string: ui.dashboard.url, node_secret: NODE_SECRET, poll_interval_seconds: 0.3 },
    });
  });

  /** A page signed in at the API's page (`apis/<id>` or `apis/oas/<id>`). */
  async function openApi(route: string, heading: string): Promise<Page> {
    const page = await ui.signIn(route);
    await page.getByRole('heading', { name: heading }).waitFor();
    return page;
  }

  const focusedLabel = (page: Page): Promise<string> => page.evaluate('document.activeElement.labels[0].textContent');
  const unlabelledControls = (page: Page): Promise<number> =>
    page.evaluate(`[...document.querySelectorAll('input, select, textarea')].filter((c) => c.labels.length === 0 && !c.getAttribute('aria-label')).length`);

  /** From the keyboard: the new rule takes the focus, Tab goes on through its controls; rule 1 blocks GET /admin. */
  async function addAdminBlockFromKeyboard(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Add an endpoint rule' }).focus();
    await page.keyboard.press('Enter');
    await page.getByLabel('Rule 1 kind', { exact: true }).waitFor();
    expect(await focusedLabel(page)).toBe('Rule 1 kind');
    await page.keyboard.press('Tab');
    expect(await focusedLabel(page)).toBe('Rule 1 path');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('/admin');
    await page.keyboard.press('Tab');
    expect(await focusedLabel(page)).toBe('Rule 1 method');
  }

  /** Rule 2: a JSON mock on GET /status. */
  async function addStatusMock(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Add an endpoint rule' }).click();
    await page.getByLabel('Rule 2 kind', { exact: true }).selectOption('mock');
    await page.getByLabel('Rule 2 path', { exact: true }).fill('/status');
    await page.getByLabel('Rule 2 body', { exact: true }).fill('{"status":"ok"}');
    await page.getByLabel('Rule 2 headers', { exact: true }).fill('Content-Type: application/json');
  }

  /** Rule 3, a timeout of `soon`: saved, refused, shown at its input as the dashboard names it; then removed. */
  async function showRefusedTimeout(page: Page, path: string, field: string): Promise<void> {
    await page.getByRole('button', { name: 'Add an endpoint rule' }).click();
    await page.getByLabel('Rule 3 kind', { exact: true }).selectOption('timeout');
    await page.getByLabel('Rule 3 path', { exact: true }).fill(path);
    await page.getByLabel('Rule 3 timeout (seconds)', { exact: true }).fill('soon');
    expect(await unlabelledControls(page)).toBe(0);
    await page.getByRole('button', { name: 'Save API' }).click();
    await page.locator('#rule-3-timeout-note', { hasText: field }).waitFor();
    expect(await page.getByLabel('Rule 3 timeout (seconds)', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await page.getByRole('button', { name: 'Remove rule 3' }).click();
  }

  /** The designer (its legend) photographed with the rules as they are, then saved. */
  async function saveWithScreenshot(page: Page, legend: string, name: string): Promise<void> {
    await page.getByRole('group', { name: legend }).scrollIntoViewIfNeeded();
    await screenshot(page, name, { scroll: false });
    await page.getByRole('button', { name: 'Save API' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  }

  /** The gateway blocks GET /admin (not POST), answers /other, and mocks /status without calling the upstream. */
  async function expectEnforced(listenPath: string): Promise<void> {
    await waitUntil(`the gateway to block GET ${listenPath}admin`, async () => (await gateway.call(`${listenPath}admin`)).status === 403);
    const mocked = await gateway.call(`${listenPath}status`);
    expect([mocked.status, mocked.headers['content-type'], mocked.text]).toEqual([200, 'application/json', '{"status":"ok"}']);
    expect((await gateway.call(`${listenPath}other`)).status).toBe(200);
    expect(upstream.requests.some((r) => r.url.startsWith('/status'))).toBe(false);
  }

  it('adds a block and a mock rule, shows a refused input at its field, and a real gateway enforces the saved rules', async () => {
    const api = (
      await ui.org.call('POST', '/api/apis', {
        api_definition: classicApi('Shop', '/shop/', { proxy: { listen_path: '/shop/', target_url: upstream.url, strip_listen_path: true } }),
      })
    ).json<{ Meta: string }>().Meta;
    await waitUntil('the gateway to serve Shop', async () => (await gateway.call('/shop/admin')).status === 200);
    const page = await openApi(`apis/${api}`, 'API: Shop');

    await addAdminBlockFromKeyboard(page);
    await addStatusMock(page);
    await showRefusedTimeout(page, '/', 'version_data.versions.Default.extended_paths.hard_timeouts[0].timeout');
    await saveWithScreenshot(page, 'Endpoint designer (default version)', 'ui-endpoint-designer');

    const stored = (await ui.org.call('GET', `/api/apis/${api}`)).json<{ api_definition: { version_data: { versions: Record<string, unknown> } } }>();
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

    await expectEnforced('/shop/');
    expect((await gateway.call('/shop/admin', { method: 'POST', body: '{}' })).status).toBe(200);
    await page.context().close();
  });

  it("edits an OAS API's operations in the same designer, and a real gateway enforces them", async () => {
    const document = {
      openapi: '3.0.3',
      info: { title: 'Orders', version: '1' },
      // GET /admin has no operationId (the designer gives it Tyk's); GET /status is not in the document at all.
      paths: { '/admin': { get: { responses: { '200': { description: 'the admin page' } } } }, '/other': { get: { operationId: 'other', responses: {} } } },
      'x-gw-api-gateway': {
        info: { name: 'Orders', state: { active: true } },
        upstream: { url: upstream.url },
        server: { listenPath: { value: '/orders/', strip: true } },
      },
    };
    const api = (await ui.org.call('POST', '/api/apis/oas', document)).json<{ Meta: string }>().Meta;
    await waitUntil('the gateway to serve Orders', async () => (await gateway.call('/orders/admin')).status === 200);
    const page = await openApi(`apis/oas/${api}`, 'API: Orders');
    await page.getByRole('tab', { name: 'Endpoints' }).click();
    await page.getByRole('group', { name: 'Endpoint designer (operations)' }).waitFor();
    // An OAS operation has one method: no "Any method", and no Classic settings beside the designer.
    expect(await page.getByRole('group', { name: 'Common settings' }).count()).toBe(0);

    await addAdminBlockFromKeyboard(page);
    expect(await page.getByLabel('Rule 1 method', { exact: true }).locator('option', { hasText: 'Any method' }).count()).toBe(0);
    await addStatusMock(page);
    await showRefusedTimeout(page, '/slow', 'x-gw-api-gateway.middleware.operations.slowGET.enforceTimeout.value');
    await saveWithScreenshot(page, 'Endpoint designer (operations)', 'ui-oas-endpoint-designer');

    const stored = (await ui.org.call('GET', `/api/apis/oas/${api}`)).json<typeof document & { 'x-gw-api-gateway': { middleware?: unknown } }>();
    expect(stored.paths).toEqual({
      '/admin': { get: { operationId: 'adminGET', responses: { '200': { description: 'the admin page' } } } },
      '/other': document.paths['/other'],
      '/status': { get: { operationId: 'statusGET', responses: {} } },
    });
    expect(stored['x-gw-api-gateway'].middleware).toEqual({
      operations: {
        adminGET: { block: { enabled: true } },
        statusGET: { mockResponse: { enabled: true, code: 200, body: '{"status":"ok"}', headers: [{ name: 'Content-Type', value: 'application/json' }] } },
      },
    });
    await expectEnforced('/orders/');
    await page.context().close();
  });

  it('keeps an OAS API the operator wrote read-only in the designer', async () => {
    const operator = ui.dashboard.as(await ui.org.user({ apis: 'write' }, { system: true }));
    const document = {
      openapi: '3.0.3',
      info: { title: 'Owned', version: '1' },
      paths: { '/admin': { get: { operationId: 'admin', responses: {} } } },
      'x-gw-api-gateway': {
        info: { name: 'Owned', state: { active: true } },
        upstream: { url: upstream.url },
        server: { listenPath: { value: '/owned/', strip: true } },
        middleware: { operations: { admin: { block: { enabled: true } } } },
      },
    };
    const created = await operator('POST', '/api/apis/oas', document, { 'x-gw-k8s-object': 'GwOasApiDefinition team-a/owned' });
    const page = await openApi(`apis/oas/${created.json<{ Meta: string }>().Meta}`, 'API: Owned');
    await page.getByRole('tab', { name: 'Endpoints' }).click();
    expect(await page.getByLabel('Rule 1 path', { exact: true }).inputValue()).toBe('/admin');
    expect(await page.getByLabel('Rule 1 kind', { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Add an endpoint rule' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save API' }).count()).toBe(0);
    await page.context().close();
  });
});
