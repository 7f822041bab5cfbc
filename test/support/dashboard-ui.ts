// The setup of a web UI test file: one real dashboard on PGlite and one Chromium, started together before the
// file's tests, with one organisation; signIn opens a new browser context (its own cookies: one signed-in user) at a
// route of the UI and signs in with an access key. The dashboard and the browser are stopped after the file
// (dashboard.ts, browser.ts).
import type { Browser, Page } from 'playwright-core';
import { beforeAll } from 'vitest';
import { launchBrowser } from './browser.ts';
import { createOrg, startDashboard, type RunningDashboard, type TestOrg } from './dashboard.ts';
import { useDatabases } from './postgres.ts';

export interface DashboardUi {
  readonly dashboard: RunningDashboard;
  readonly browser: Browser;
  readonly org: TestOrg;
  /** A new context at `#/<route>`, the sign-in form submitted with `key` (default: the organisation's); the caller waits for the page it expects. */
  signIn(route: string, key?: string): Promise<Page>;
}

/** In a describe block: the dashboard (with this configuration over the tests' defaults), the browser and an organisation named `orgName`. */
export function useDashboardUi(orgName: string, config: Record<string, unknown> = {}): DashboardUi {
  const db = useDatabases('pglite');
  let started: { dashboard: RunningDashboard; browser: Browser; org: TestOrg } | undefined;
  const get = (): NonNullable<typeof started> => {
    if (!started) throw new Error('useDashboardUi: used before its beforeAll ran');
    return started;
  };
  beforeAll(async () => {
    const [dashboard, browser] = await Promise.all([startDashboard(db.config(config)), launchBrowser()]);
    started = { dashboard, browser, org: await createOrg(dashboard, orgName) };
  });
  return {
    get dashboard() {
      return get().dashboard;
    },
    get browser() {
      return get().browser;
    },
    get org() {
      return get().org;
    },
    async signIn(route, key) {
      const { dashboard, browser, org } = get();
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      page.on('pageerror', (error) => process.stderr.write(`[page error] ${error.stack ?? error.message}\n`));
      await page.goto(`${dashboard.url}/#/${route}`);
      await page.getByLabel('Access key', { exact: true }).fill(key ?? org.key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      return page;
    },
  };
}
