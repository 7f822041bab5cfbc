// The API page's Duplicate and Delete in Chromium on a real dashboard (issue 28 item 3): a duplicate gets a new id
// and a listen path that does not clash, and a second duplicate the next free one; Delete asks first (Escape keeps
// the API) and then removes it.
import { describe, expect, it } from 'vitest';
import { classicApi } from '../support/dashboard.ts';
import { useDashboardUi } from '../support/dashboard-ui.ts';

describe('API duplicate and delete in the web UI', () => {
  const ui = useDashboardUi('API Actions Org');

  it('duplicates an API twice with free listen paths, then deletes one after a confirmation', async () => {
    const original = (await ui.org.call('POST', '/api/apis', { api_definition: classicApi('Orders', '/orders/', { tags: ['team-a'] }) })).json<{
      Meta: string;
    }>().Meta;
    const page = await ui.signIn(`apis/${original}`);
    await page.getByRole('heading', { name: 'API: Orders' }).waitFor();

    await page.getByRole('button', { name: 'Duplicate API' }).click();
    await page.getByRole('heading', { name: 'API: Orders (copy)' }).waitFor();
    await page.goto(`${ui.dashboard.url}/#/apis/${original}`);
    await page.getByRole('heading', { name: 'API: Orders' }).waitFor();
    await page.getByRole('button', { name: 'Duplicate API' }).click();
    await page.getByRole('heading', { name: 'API: Orders (copy 2)' }).waitFor();
    const copyId = decodeURIComponent(new URL(page.url()).hash.split('/').pop()!);

    type Listed = { apis: { api_definition: { api_id: string; name: string; proxy: { listen_path: string }; tags?: string[] } }[] };
    const listed = (await ui.org.call('GET', '/api/apis')).json<Listed>().apis.map((a) => a.api_definition);
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
    expect((await ui.org.call('GET', `/api/apis/${copyId}`)).status).toBe(200);
    await page.getByRole('button', { name: 'Delete API' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('heading', { name: 'APIs' }).waitFor();
    expect((await ui.org.call('GET', `/api/apis/${copyId}`)).status).toBe(404);
  });
});
