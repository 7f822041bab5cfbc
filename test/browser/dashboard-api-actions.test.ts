// The API page's Duplicate and Delete in Chromium on a real dashboard (issue 28 item 3): a duplicate gets a new id
// and a listen path that does not clash, and a second duplicate the next free one; Delete asks first (Escape keeps
// the API) and then removes it.
import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { classicApi, createOrg, startDashboard, type RunningDashboard, type TestOrg } from '../support/dashboard.ts';
import { useDatabases } from '../support/postgres.ts';

describe('API duplicate and delete in the web UI', () => {
  const db = useDatabases('pglite');
  let dashboard: RunningDashboard;
  let browser: Browser;
  let org: TestOrg;

  beforeAll(async () => {
    [dashboard, browser] = await Promise.all([startDashboard(db.config()), launchBrowser()]);
    org = await createOrg(dashboard, 'API Actions Org');
  });

  it('duplicates an API twice with free listen paths, then deletes one after a confirmation', async () => {
    const original = (await org.call('POST', '/api/apis', { api_definition: classicApi('Orders', '/orders/', { tags: ['team-a'] }) })).json<{ Meta: string }>()
      .Meta;
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.on('pageerror', (error) => process.stderr.write(`[page error] ${error.stack ?? error.message}\n`));
    await page.goto(`${dashboard.url}/#/apis/${original}`);
    await page.getByLabel('Access key', { exact: true }).fill(org.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'API: Orders' }).waitFor();

    await page.getByRole('button', { name: 'Duplicate API' }).click();
    await page.getByRole('heading', { name: 'API: Orders (copy)' }).waitFor();
    await page.goto(`${dashboard.url}/#/apis/${original}`);
    await page.getByRole('heading', { name: 'API: Orders' }).waitFor();
    await page.getByRole('button', { name: 'Duplicate API' }).click();
    await page.getByRole('heading', { name: 'API: Orders (copy 2)' }).waitFor();
    const copyId = decodeURIComponent(new URL(page.url()).hash.split('/').pop()!);

    type Listed = { apis: { api_definition: { api_id: string; name: string; proxy: { listen_path: string }; tags?: string[] } }[] };
    const listed = (await org.call('GET', '/api/apis')).json<Listed>().apis.map((a) => a.api_definition);
    expect(listed.map((a) => [a.name, a.proxy.listen_path, a.tags])).toEqual([
      ['Orders', '/orders/', ['team-a']],
      ['Orders (copy)', '/orders-copy/', ['team-a']],
      ['Orders (copy 2)', '/orders-copy-2/', ['team-a']],
    ]);
    expect(new Set(listed.map((a) => a.api_id)).size).toBe(3);

    await page.getByRole('button', { name: 'Delete API' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the API Orders (copy 2)?' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect((await org.call('GET', `/api/apis/${copyId}`)).status).toBe(200);
    await page.getByRole('button', { name: 'Delete API' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('heading', { name: 'APIs' }).waitFor();
    expect((await org.call('GET', `/api/apis/${copyId}`)).status).toBe(404);
  });
});
