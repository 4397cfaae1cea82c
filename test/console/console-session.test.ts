import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type TestBrowser } from '../harness/browser.js';
import { SHOTS, signInThroughTheBrowser } from '../harness/browser-sign-in.js';
import { addPersonWithCli } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

// The console's session: it signs in with PKCE S256 (the challenge it sends is the hash of the
// verifier it later redeems), keeps the tokens in memory only, comes back after a reload
// through the gate_refresh cookie, and signing out ends it for good.

const person = { email: 'session-reviewer@example.test', password: 'a session password for the console' };
let browser: TestBrowser;

const { gate } = useGate({ kind: 'in-process' });
beforeAll(async () => {
  await addPersonWithCli(gate, person.email, person.password, 'reviewer');
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const b64url = (bytes: Buffer) => bytes.toString('base64url');
const statusOf = async (p: Page) => {
  await p.waitForFunction(() => !['', 'Loading…'].includes(document.querySelector('#status')?.textContent ?? ''));
  return p.locator('#status').textContent();
};

describe('the console session', () => {
  it('signs in with PKCE S256, keeps its tokens out of storage, resumes after a reload, and signs out', async () => {
    const page = await (await browser.newContext()).newPage();
    let authorize: URL | undefined;
    let codeGrant: URLSearchParams | undefined;
    let accessToken: string | undefined;
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (r.method() === 'GET' && url.pathname === '/oauth/authorize') authorize = url;
      if (url.pathname === '/oauth/token' && r.postData()?.includes('grant_type=authorization_code')) codeGrant = new URLSearchParams(r.postData()!);
    });
    page.on('response', (res) => {
      if (new URL(res.url()).pathname !== '/oauth/token') return;
      void res.json().then((b) => (accessToken ??= b.access_token), () => undefined);
    });
    await signInThroughTheBrowser(page, gate.url, person.email, person.password);

    expect(authorize!.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize!.searchParams.get('response_type')).toBe('code');
    const verifier = codeGrant!.get('code_verifier')!;
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(authorize!.searchParams.get('code_challenge')).toBe(b64url(createHash('sha256').update(verifier).digest()));
    expect(codeGrant!.get('redirect_uri')).toBe(`${gate.url}/app`);

    // Tokens live in the page's memory only: no storage holds them, the cookie is not the script's.
    await page.waitForFunction(() => document.querySelector('#status')?.textContent?.startsWith('Signed in as') === true);
    await expect.poll(() => accessToken).toBeDefined();
    const stored = await page.evaluate(() => ({
      local: Object.entries(localStorage),
      session: Object.entries(sessionStorage),
      cookie: document.cookie,
    }));
    expect(stored).toEqual({ local: [], session: [], cookie: '' });
    await page.screenshot({ path: `${SHOTS}/session-signed-in.png`, fullPage: true });

    await page.reload();
    expect(await statusOf(page)).toMatch(/^Signed in as session-reviewer@example\.test \(.+\), role reviewer\.$/);

    await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === '/oauth/logout'), page.click('#sign-out')]);
    expect(await statusOf(page)).toBe('Not signed in.');
    await page.reload();
    expect(await statusOf(page)).toBe('Not signed in.');
    expect(await page.locator('#sign-in').isVisible()).toBe(true);
    // The access token from before still names a person until it expires (docs/protocol.md#the-sign-in-provider); the session itself is over.
    expect((await gate.rpc(accessToken!, 'gv.describe')).result.you.role).toBe('reviewer');
    await page.screenshot({ path: `${SHOTS}/session-signed-out.png`, fullPage: true });
    await page.context().close();
  });
});
