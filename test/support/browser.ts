// A real browser for the web UI's tests: Debian's Chromium (package `chromium`, .ci/apt-packages.txt) driven by
// playwright-core, which never downloads a browser of its own. GW_TEST_CHROMIUM names another executable. One
// browser per test file, closed after it; each test opens its own context (its own cookies: one signed-in user).
// Screenshots for the README are written to docs/ only when UPDATE_SCREENSHOTS=1 (so a test run never dirties the
// tree).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll } from 'vitest';
import { REPO_ROOT } from '../../src/up/paths.ts';

export const CHROMIUM = process.env.GW_TEST_CHROMIUM ?? '/usr/bin/chromium';

const browsers = new Set<Browser>();
afterAll(async () => {
  await Promise.all([...browsers].map((b) => b.close()));
  browsers.clear();
});

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (or set GW_TEST_CHROMIUM)`);
  // --no-sandbox: tests may run as root in a container, where Chromium's sandbox cannot start.
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  browsers.add(browser);
  return browser;
}

/** Saves a screenshot of the page as docs/<name>.png when UPDATE_SCREENSHOTS=1: from the top, unless `scroll` is false (then where the page is scrolled to). */
export async function screenshot(page: Page, name: string, { scroll = true }: { scroll?: boolean } = {}): Promise<void> {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  if (scroll) await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: join(REPO_ROOT, 'docs', `${name}.png`), fullPage: false });
}
