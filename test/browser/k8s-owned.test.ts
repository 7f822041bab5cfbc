// The web UI's API page for an API the operator wrote from a Kubernetes object (issue 28 item 4), in Chromium on a
// real dashboard: a badge names the object (`ApiDefinition <namespace>/<name>`), the fields are read-only with the
// `kubectl edit` to use instead; in an organisation with allow_hand_edits the page stays editable with the badge.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { classicApi, createOrg, startDashboard, type RunningDashboard, type TestOrg } from '../support/dashboard.ts';
import { useDatabases } from '../support/postgres.ts';

describe('Kubernetes-owned APIs in the web UI', () => {
  const db = useDatabases('pglite');
  let dashboard: RunningDashboard;
  let browser: Browser;
  beforeAll(async () => {
    [dashboard, browser] = await Promise.all([startDashboard(db.config()), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** An organisation whose operator wrote one API from ApiDefinition team-a/<name>; the human signed in. */
  const ownedApiPage = async (org: TestOrg, name: string): Promise<Page> => {
    const operator = dashboard.as(await org.user({ apis: 'write' }, { system: true }));
    expect(
      (await operator('POST', '/api/apis', { api_definition: classicApi(name, `/${name}/`) }, { 'x-gw-k8s-object': `ApiDefinition team-a/${name}` })).status,
    ).toBe(200);
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${dashboard.url}/`);
    await page.getByLabel('Access key', { exact: true }).fill(org.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name }).click();
    await page.getByText(`From Kubernetes: ApiDefinition team-a/${name}`).waitFor();
    return page;
  };

  it('shows the owner, the fields read-only and the kubectl edit to use instead', async () => {
    const page = await ownedApiPage(await createOrg(dashboard, 'Owned'), 'httpbin');
    const note = page.getByRole('note').filter({ hasText: 'From Kubernetes' });
    expect(await note.textContent()).toContain('kubectl edit apidefinition -n team-a httpbin');
    expect(await page.getByLabel('Listen path', { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save API' }).count()).toBe(0);
    await page.context().close();
  });

  it('keeps the page editable, with the badge, where the organisation allows hand edits', async () => {
    const org = await createOrg(dashboard, 'Relaxed');
    expect((await dashboard.admin('PUT', `/admin/organisations/${org.id}`, { allow_hand_edits: true })).status).toBe(200);
    const page = await ownedApiPage(org, 'relaxed');
    expect(await page.getByLabel('Listen path', { exact: true }).isDisabled()).toBe(false);
    expect(await page.getByRole('button', { name: 'Save API' }).count()).toBe(1);
    await page.context().close();
  });
});
