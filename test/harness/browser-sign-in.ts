import type { Page } from 'playwright-core';

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

/** Where a test's screenshots go (git-ignored). */
export const SHOTS = 'test-results/console';
