// The web UI's policy pages in Chromium on a real dashboard (issue 28 item 1): a policy created from the list's
// button with quota, throttling, a per-API limit and path permissions (Tyk's allowed_urls), opened from its row,
// edited and deleted through a confirmation that says how many keys apply it and what happens to them; the page
// used from the keyboard alone with every control labelled; a policy written from a Kubernetes object shown
// read-only with its badge and the `kubectl edit` to use.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser.ts';
import { classicApi } from '../support/dashboard.ts';
import { useDashboardUi } from '../support/dashboard-ui.ts';

const UNLABELLED_CONTROLS = `[...document.querySelectorAll('input, select, textarea')].filter((c) => c.labels.length === 0 && !c.getAttribute('aria-label')).length`;

describe('policy pages in the web UI', () => {
  const ui = useDashboardUi('Policies Org');
  let silverId: string;

  beforeAll(async () => {
    expect((await ui.org.call('POST', '/api/apis', { api_definition: classicApi('Orders', '/orders/') })).status).toBe(200);
  });

  const signIn = async (key: string): Promise<Page> => {
    const page = await ui.signIn('policies', key);
    await page.getByRole('heading', { name: 'Policies' }).waitFor();
    return page;
  };

  it('creates a policy with quota, throttling, a per-API limit and allowed paths from the list button', async () => {
    const page = await signIn(ui.org.key);
    await page.getByText('No policies yet').waitFor();
    expect(await page.getByLabel('Name', { exact: true }).count()).toBe(0);
    await page.getByRole('link', { name: 'Create policy' }).click();
    await page.getByRole('heading', { name: 'New policy' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Silver');
    await page.getByLabel('Key expiry (required)', { exact: true }).selectOption({ label: '7 days' });
    await page.getByLabel('Rate (requests)', { exact: true }).fill('20');
    await page.getByLabel('Per (seconds)', { exact: true }).fill('1');
    await page.getByLabel('Quota (requests)', { exact: true }).fill('1000');
    await page.getByLabel('Quota renews every (seconds)', { exact: true }).fill('3600');
    await page.getByLabel('Throttle retry interval (seconds)', { exact: true }).fill('2');
    await page.getByLabel('Throttle retry limit', { exact: true }).fill('3');
    await page.getByRole('checkbox', { name: 'Orders' }).check();
    await page.getByLabel('Orders: Rate (requests)', { exact: true }).fill('5');
    await page.getByLabel('Orders: Per (seconds)', { exact: true }).fill('1');
    await page.getByLabel('Orders: allowed paths', { exact: true }).fill('/users/{id} GET,PUT\n/health');
    expect(await page.evaluate(UNLABELLED_CONTROLS)).toBe(0);
    await screenshot(page, 'ui-policy-form');
    await page.getByRole('button', { name: 'Create policy' }).click();
    await page.getByRole('link', { name: 'Silver' }).waitFor();
    expect(await page.getByRole('row', { name: /Silver/ }).textContent()).toContain('1000 per 3600 s');

    const listed = (await ui.org.call('GET', '/api/portal/policies')).json<{ Data: Record<string, unknown>[] }>().Data;
    const [silver] = listed;
    silverId = String(silver!.id);
    const apiId = Object.keys(silver!.access_rights as object)[0]!;
    expect(silver).toMatchObject({
      name: 'Silver',
      key_expires_in: 7 * 86_400,
      rate: 20,
      per: 1,
      quota_max: 1000,
      quota_renewal_rate: 3600,
      throttle_interval: 2,
      throttle_retry_limit: 3,
      access_rights: {
        [apiId]: {
          api_name: 'Orders',
          limit: { rate: 5, per: 1 },
          allowed_urls: [
            { url: '/users/{id}', methods: ['GET', 'PUT'] },
            { url: '/health', methods: [] },
          ],
        },
      },
    });
    await page.context().close();
  });

  it('edits the quota from the policy page, with a refused value shown at its field', async () => {
    const page = await signIn(ui.org.key);
    await page.getByRole('link', { name: 'Silver' }).click();
    await page.getByRole('heading', { name: 'Policy: Silver' }).waitFor();
    expect(await page.getByLabel('Orders: allowed paths', { exact: true }).inputValue()).toBe('/users/{id} GET,PUT\n/health');
    await page.getByLabel('Quota (requests)', { exact: true }).fill('0');
    await page.getByRole('button', { name: 'Save policy' }).click();
    await page.locator('#policy-quota-max-note', { hasText: 'quota_max' }).waitFor();
    expect(await page.getByLabel('Quota (requests)', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Quota (requests)', { exact: true }).fill('5000');
    await page.getByRole('button', { name: 'Save policy' }).click();
    await page
      .getByRole('row', { name: /Silver/ })
      .filter({ hasText: '5000 per 3600 s' })
      .waitFor();
    expect((await ui.org.call('GET', `/api/portal/policies/${silverId}`)).json<{ quota_max: number }>().quota_max).toBe(5000);
    await page.context().close();
  });

  it('deletes from the keyboard after a confirmation naming the keys that apply the policy and what happens to them', async () => {
    const other = (await ui.org.call('POST', '/api/portal/policies', { name: 'Other', key_expires_in: 0, access_rights: {} })).json<{ Message: string }>()
      .Message;
    for (const apply_policies of [[silverId], [silverId, other]]) {
      expect((await ui.org.call('POST', '/api/keys', { apply_policies })).status).toBe(200);
    }
    const page = await signIn(ui.org.key);
    await page.getByRole('link', { name: 'Silver' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Policy: Silver' }).waitFor();
    await page.getByRole('button', { name: 'Delete policy' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete the policy Silver?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(
      '2 keys apply this policy. 1 of them apply no other policy: a gateway refuses it (403) once the policy is deleted',
    );
    // Focus starts on Cancel: Escape and Enter there keep the policy.
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Cancel');
    await screenshot(page, 'ui-policy-delete', { scroll: false });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect((await ui.org.call('GET', `/api/portal/policies/${silverId}`)).status).toBe(200);
    await page.getByRole('button', { name: 'Delete policy' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('link', { name: 'Other' }).waitFor();
    expect(await page.getByRole('link', { name: 'Silver' }).count()).toBe(0);
    expect((await ui.org.call('GET', `/api/portal/policies/${silverId}`)).status).toBe(404);
    await page.context().close();
  });

  it('shows a policy written from a Kubernetes object read-only, with its badge and the kubectl edit to use', async () => {
    const operator = ui.dashboard.as(await ui.org.user({ policies: 'write', apis: 'write' }, { system: true }));
    const created = await operator(
      'POST',
      '/api/portal/policies',
      { name: 'From cluster', key_expires_in: 0 },
      { 'x-gw-k8s-object': 'SecurityPolicy team-a/gold' },
    );
    expect(created.status).toBe(200);
    const page = await signIn(ui.org.key);
    await page.getByRole('link', { name: 'From cluster' }).click();
    const note = page.getByRole('note').filter({ hasText: 'From Kubernetes: SecurityPolicy team-a/gold' });
    await note.waitFor();
    expect(await note.textContent()).toContain('kubectl edit securitypolicy -n team-a gold');
    expect(await page.getByLabel('Quota (requests)', { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save policy' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete policy' }).count()).toBe(0);
    // The API refuses the human's write as well.
    const id = created.json<{ Message: string }>().Message;
    expect((await ui.org.call('DELETE', `/api/portal/policies/${id}`)).status).toBe(409);
    await page.context().close();
  });
});
