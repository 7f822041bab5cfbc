// The web UI's certificate pages in Chromium on a real dashboard (issue 28 item 5): an empty list says so in a
// sentence, an uploaded certificate opens from its row with subject, SANs, issuer, validity, SHA-256 fingerprint
// and the APIs using it; its deletion is refused while an API uses it (the dialog shows the dashboard's refusal
// naming the API) and goes through once none does.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/up/paths.ts';
import { screenshot } from '../support/browser.ts';
import { classicApi } from '../support/dashboard.ts';
import { useDashboardUi } from '../support/dashboard-ui.ts';

const FIXTURE = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'gw.test.crt'), 'utf8');

describe('certificate pages in the web UI', () => {
  const ui = useDashboardUi('Certificates Org');

  it('shows details and the APIs using a certificate; deletes it only once none does', async () => {
    const page = await ui.signIn('certificates');
    await page.getByText('No certificates yet.').waitFor();
    expect(await page.getByRole('table').count()).toBe(0);

    await page.getByLabel('PEM', { exact: true }).fill(FIXTURE);
    await page.getByRole('button', { name: 'Add certificate' }).click();
    const x509 = new X509Certificate(FIXTURE);
    const link = page.getByRole('link', { name: 'CN=gw.test' });
    await link.waitFor();
    const certId = `${ui.org.id}${x509.fingerprint256.replaceAll(':', '').toLowerCase()}`;
    const created = await ui.org.call('POST', '/api/apis', { api_definition: classicApi('Secure orders', '/secure/', { certificates: [certId] }) });
    expect(created.status).toBe(200);

    // From the keyboard: the row's link opens the page.
    await link.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Certificate CN=gw.test' }).waitFor();
    const details = (await page.locator('dl.details').textContent())!;
    expect(details).toContain(`SHA-256 fingerprint${x509.fingerprint256.replaceAll(':', '').toLowerCase()}`);
    expect(details).toContain(`IssuerCN=gw.test`);
    expect(details).toContain('Names (SANs)gw.test');
    expect(details).toContain(`Valid until${new Date(x509.validTo).toISOString()}`);
    expect(await page.getByRole('link', { name: 'Secure orders' }).getAttribute('href')).toBe(`#/apis/${created.json<{ Meta: string }>().Meta}`);
    await screenshot(page, 'ui-certificate');

    await page.getByRole('button', { name: 'Delete certificate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this certificate?' });
    expect(await dialog.textContent()).toContain('An API uses it (Secure orders)');
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog
      .getByRole('alert')
      .filter({ hasText: `Certificate ${certId} is used by Secure orders` })
      .waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await ui.org.call('DELETE', `/api/apis/${created.json<{ Meta: string }>().Meta}`);
    await page.reload();
    await page.getByText('No API uses this certificate.').waitFor();
    await page.getByRole('button', { name: 'Delete certificate' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('No certificates yet.').waitFor();
    expect((await ui.org.call('GET', `/api/certs/${certId}`)).status).toBe(404);
  });
});
