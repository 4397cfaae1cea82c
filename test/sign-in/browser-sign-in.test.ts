import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { launchBrowser, type TestBrowser } from '../harness/browser.js';
import { addPersonWithCli, CLIENT_ID, form } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

const SHOTS = 'test-results/sign-in';

// A person signs in from a real browser: /app, the provider's page, back to /app, a reload
// that resumes through the gate_refresh cookie, and sign-out. Everything the browser does
// here (the Origin it sends, the cookie it keeps) is the browser's own, not a test's guess.

const email = 'reviewer@example.test';
const password = 'a browser sign-in password';
let identity: string;
let browser: TestBrowser;

const { gate } = useGate({ kind: 'in-process' });
beforeAll(async () => {
  identity = await addPersonWithCli(gate, email, password, 'reviewer');
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const statusOf = (page: Page) => page.locator('#status').textContent();
const signedInLine = () => `Signed in as ${email} (${identity}), role reviewer.`;

/** Waits until the shell has said something other than Loading… and answers it. */
async function settled(page: Page): Promise<string> {
  await page.waitForFunction(() => document.querySelector('#status')?.textContent !== 'Loading…');
  return (await statusOf(page))!;
}

/** From /app at `base`: Sign in, the provider's page, email and password, back on /app. */
async function signInThroughTheBrowser(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/app`);
  expect(await settled(page)).toBe('Not signed in.');
  await Promise.all([page.waitForURL((url) => url.pathname === '/oauth/authorize'), page.click('#sign-in')]);
  expect(await page.locator('h1').textContent()).toBe('Sign in to Gate');
  await page.fill('#email', email);
  await page.fill('#password', password);
  await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
  // A refusal is a page of its own: say what it said rather than time out.
  if (new URL(page.url()).pathname !== '/app') throw new Error(`signing in ended on ${page.url()}: ${await page.locator('body').innerText()}`);
}

const refreshCookie = async (page: Page) => (await page.context().cookies()).find((c) => c.name === 'gate_refresh');

describe('signing in from a real browser', () => {
  it('/app → Sign in → the provider page → back on /app signed in; a reload stays signed in through the cookie; sign-out ends it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const posted: Request[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/oauth/authorize') posted.push(r);
    });
    await signInThroughTheBrowser(page, gate.url);
    expect(await settled(page)).toBe(signedInLine());
    // The browser sent its page's real origin, which the gate accepted as its own.
    expect(posted).toHaveLength(1);
    expect(await posted[0]!.headerValue('origin')).toBe(gate.url);
    expect(await posted[0]!.headerValue('sec-fetch-site')).toBe('same-origin');
    // The code and state left the address bar.
    expect(page.url()).toBe(`${gate.url}/app`);

    // The refresh token is a cookie the page's script cannot read, sent only to the token endpoint.
    const cookie = await refreshCookie(page);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/oauth/token', domain: '127.0.0.1', secure: false });
    expect(cookie!.value).toMatch(/^grt_[A-Za-z0-9_-]{43}$/);
    expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(29 * 24 * 3600);
    expect(await page.evaluate(() => document.cookie)).toBe('');

    // A reload forgets the in-memory access token; the cookie brings the session back, rotated.
    const refreshes: Request[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/oauth/token') refreshes.push(r);
    });
    await page.reload();
    expect(await settled(page)).toBe(signedInLine());
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]!.postData()).toContain('grant_type=refresh_token');
    expect(await refreshes[0]!.headerValue('cookie')).toBe(`gate_refresh=${cookie!.value}`);
    const rotated = await refreshCookie(page);
    expect(rotated!.value).not.toBe(cookie!.value);

    // Under the git-ignored test-results/, beside the console tests' screenshots.
    await page.screenshot({ path: `${SHOTS}/signed-in.png` });

    // Sign out: the session ends at the gate and the cookie is gone from the browser.
    await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === '/oauth/logout'), page.click('#sign-out')]);
    expect(await statusOf(page)).toBe('Not signed in.');
    expect(await refreshCookie(page)).toBeUndefined();
    await page.reload();
    expect(await settled(page)).toBe('Not signed in.');
    const stale = await gate.http('POST', '/oauth/token', form({ grant_type: 'refresh_token', client_id: CLIENT_ID, refresh_token: rotated!.value }));
    expect(stale.status).toBe(400);
    expect(stale.json.error).toBe('invalid_grant');
    await context.close();
  });

  it('from /app at http://localhost:<port>: another origin of the same gate, and a redirect_uri of its own', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const base = gate.url.replace('127.0.0.1', 'localhost');
    await signInThroughTheBrowser(page, base);
    expect(await settled(page)).toBe(signedInLine());
    expect(page.url()).toBe(`${base}/app`);
    expect(await refreshCookie(page)).toMatchObject({ domain: 'localhost', path: '/oauth/token' });
    await page.reload();
    expect(await settled(page)).toBe(signedInLine());
    await context.close();
  });
});
