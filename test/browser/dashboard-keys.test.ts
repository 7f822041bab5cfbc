// The web UI's key list in Chromium on a real dashboard feeding a real licensed gateway (issue 28 item 2): keys
// are listed a page at a time by the dashboard (alias, id, policy names, expiry), found by alias start and by the
// key itself, and revoked through a confirmation; the gateway then refuses the revoked key while another still
// passes. (The dashboard does not record a key's last use: the list has no such column.) A key's page, opened from
// the list: its limits and access rights shown, its rate limit lowered and the key made inactive, each enforced by the
// gateway, then revoked there.
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser.ts';
import { classicApi, NODE_SECRET } from '../support/dashboard.ts';
import { useDashboardUi } from '../support/dashboard-ui.ts';
import { startGateway, type RunningGateway } from '../support/gateway.ts';
import { startUpstream } from '../support/upstream.ts';
import { waitUntil } from '../support/wait.ts';

describe('key list in the web UI', () => {
  const ui = useDashboardUi('Keys Org', { page_size: 10 });
  let api: string;
  let gateway: RunningGateway;

  const answer = async (key: string): Promise<{ status: number; text: string }> => await gateway.call('/shop/anything', { headers: { authorization: key } });
  const status = async (key: string): Promise<number> => (await answer(key)).status;

  beforeAll(async () => {
    const { org, dashboard } = ui;
    const upstream = await startUpstream();
    api = (
      await org.call('POST', '/api/apis', {
        api_definition: classicApi('Shop', '/shop/', {
          use_keyless: false,
          use_standard_auth: true,
          proxy: { listen_path: '/shop/', target_url: upstream.url, strip_listen_path: true },
        }),
      })
    ).json<{ Meta: string }>().Meta;
    gateway = await startGateway({
      use_db_app_configs: true,
      policies: { policy_source: 'service' },
      db_app_conf_options: { connection_string: dashboard.url, node_secret: NODE_SECRET, poll_interval_seconds: 0.3 },
    });
  });

  it('finds a key by alias and by itself, revokes it, and a real gateway refuses it', async () => {
    const { org } = ui;
    const policy = (
      await org.call('POST', '/api/portal/policies', {
        name: 'Shop access',
        key_expires_in: 0,
        access_rights: { [api]: { api_id: api, api_name: 'Shop', versions: [] } },
      })
    ).json<{ Message: string }>().Message;
    const keyOf = async (alias: string): Promise<string> =>
      (await org.call('POST', '/api/keys', { alias, apply_policies: [policy] })).json<{ key: string }>().key;
    // 12 keys: two pages of 10.
    const keys = await Promise.all(Array.from({ length: 12 }, (_, i) => keyOf(`client-${String(i).padStart(2, '0')}`)));
    const [kept, revoked] = [keys[0]!, keys[11]!];

    await waitUntil('the gateway to serve Shop to the key about to be revoked', async () => (await status(revoked)) === 200);

    const page = await ui.signIn('keys');
    await page.getByRole('status').filter({ hasText: '12 keys' }).waitFor();
    expect(await page.getByRole('table', { name: 'Keys' }).locator('tbody tr').count()).toBe(10);
    // Policies by name once the page has them (the rows may come first, showing ids).
    await page
      .getByRole('row', { name: /client-00/ })
      .filter({ hasText: 'Shop access' })
      .first()
      .waitFor();
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText('Page 2 of 2').waitFor();
    expect(await page.getByRole('table', { name: 'Keys' }).locator('tbody tr').count()).toBe(2);

    // By alias start, from the keyboard; then by the key itself (the dashboard matches its hash).
    await page.getByLabel('Find a key', { exact: true }).fill('CLIENT-1');
    await page.keyboard.press('Enter');
    // Whole texts: a substring also matched "12 keys found for …" (the search text with the previous answer's count).
    await page
      .getByRole('status')
      .filter({ hasText: /^2 keys found for "CLIENT-1"$/ })
      .waitFor();
    await page.getByLabel('Find a key', { exact: true }).fill(revoked);
    await page.getByRole('button', { name: 'Search' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^1 key found$/ })
      .waitFor();
    expect(await page.getByRole('table', { name: 'Keys' }).locator('tbody tr').textContent()).toContain('client-11');
    await screenshot(page, 'ui-key-list');

    await page.getByRole('button', { name: 'Revoke key client-11' }).click();
    await page.getByRole('dialog', { name: 'Revoke the key client-11?' }).waitFor();
    await page.getByRole('button', { name: 'Revoke', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^0 keys found$/ })
      .waitFor();
    await waitUntil('the gateway to refuse the revoked key', async () => (await status(revoked)) === 403);
    expect(await status(kept)).toBe(200);
    await page.context().close();
  });

  it("opens a key's page from the list, lowers its rate limit and deactivates it (the gateway enforces both), then revokes it", async () => {
    const { org } = ui;
    const key = (
      await org.call('POST', '/api/keys', {
        alias: 'direct-client',
        access_rights: { [api]: { api_id: api, api_name: 'Shop', versions: [], allowed_urls: [{ url: '/anything', methods: ['GET'] }] } },
        rate: 1000,
        per: 60,
        quota_max: -1,
      })
    ).json<{ key: string }>().key;
    await waitUntil('the gateway to serve Shop to the direct key', async () => (await status(key)) === 200);

    const page = await ui.signIn('keys');
    await page.getByLabel('Find a key', { exact: true }).fill('direct');
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .filter({ hasText: /^1 key found for "direct"$/ })
      .waitFor();
    // From the keyboard: the alias is the row's link.
    await page.getByRole('link', { name: 'direct-client' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Key direct-client' }).waitFor();
    const access = page.getByRole('table', { name: 'Access rights' });
    expect(await access.locator('tbody tr').textContent()).toBe('Shopall/anything GETthe key’s');
    expect(await page.locator('dl.details').textContent()).toContain('Rate limit1000 per 60 s');
    const unlabelled = await page.evaluate(
      `[...document.querySelectorAll('input, select, textarea')].filter((c) => c.labels.length === 0 && !c.getAttribute('aria-label')).length`,
    );
    expect(unlabelled).toBe(0);

    await page.getByLabel('Rate (requests)', { exact: true }).fill('1');
    await page.getByRole('button', { name: 'Save key' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await waitUntil('the gateway to rate limit the key at 1 per 60 s', async () => (await answer(key)).text.includes('Rate Limit Exceeded'));

    await page.getByLabel('Inactive (gateways refuse the key)').check();
    await screenshot(page, 'ui-key');
    await page.getByRole('button', { name: 'Save key' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await waitUntil('the gateway to refuse the inactive key', async () => (await answer(key)).text.includes('Key is inactive, please renew'));

    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('dialog', { name: 'Revoke the key direct-client?' }).waitFor();
    await page.getByRole('button', { name: 'Revoke', exact: true }).click();
    await page.getByRole('heading', { name: 'Keys' }).waitFor();
    expect((await org.call('GET', `/api/keys/${key}`)).status).toBe(404);
    await waitUntil('the gateway to refuse the revoked key', async () => {
      const refused = await answer(key);
      return refused.status === 403 && refused.text.includes('Access to this API has been disallowed');
    });
    await page.context().close();
  });
});
