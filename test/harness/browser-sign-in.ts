import type { Page } from 'playwright-core';
import { launchBrowser, type TestBrowser } from './browser.js';
import type { GateProcess } from './gate-process.js';
import { addPersonWithCli, type PersonRole } from './sign-in.js';

/**
 * From /app at `base`: Sign in, the provider's page, email and password, back on /app with
 * the console showing who is signed in. `hash` opens a screen after signing in.
 */
export async function signInThroughTheBrowser(page: Page, base: string, email: string, password: string, hash = ''): Promise<void> {
  await page.goto(`${base}/app${hash}`);
  await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'Not signed in.');
  await Promise.all([page.waitForURL((url) => url.pathname === '/oauth/authorize'), page.click('#sign-in')]);
  await page.fill('#email', email);
  await page.fill('#password', password);
  await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
  if (new URL(page.url()).pathname !== '/app') throw new Error(`signing in ended on ${page.url()}: ${await page.locator('body').innerText()}`);
  await page.waitForFunction(() => document.querySelector('#status')?.textContent?.startsWith('Signed in as') === true);
}

/**
 * What most console tests start from: a person added by `gate people add` with `role`, and
 * a fresh browser whose page (`width` x 900) that person has signed in to the console with.
 * The caller closes the browser; it is closed here when signing in fails.
 */
export async function personInConsole(gate: Pick<GateProcess, 'url' | 'home'>, person: { email: string; password: string }, role: PersonRole, width = 1300): Promise<{ browser: TestBrowser; page: Page }> {
  await addPersonWithCli(gate, person.email, person.password, role);
  const browser = await launchBrowser();
  try {
    const page = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage();
    await signInThroughTheBrowser(page, gate.url, person.email, person.password);
    return { browser, page };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** Where a test's screenshots go (git-ignored). */
export const SHOTS = 'test-results/console';
