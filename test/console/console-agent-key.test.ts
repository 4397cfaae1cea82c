import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type TestBrowser } from '../harness/browser.js';
import { SHOTS } from '../harness/browser-sign-in.js';
import { CLIENT_ID, addPersonWithCli, pkcePair } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

// An agent's API key opens no console session by any path a person could try in a browser:
// the sign-in page asks an email and a password only, the key pasted into it, into the
// token endpoint (as a refresh token, a code, a subject token, a cookie or a bearer), or sent
// as the bearer of /app, gives no token and no cookie, and the console stays signed out.

const ANSWER_ORIGIN = 'https://answers.example.test';
const person = { email: 'key-holder@example.test', password: 'a password that is not the key' };
let browser: TestBrowser;
let agentKey: string;

// With an answer origin, token exchange is served: the key is tried there too.
const { gate } = useGate({ kind: 'in-process', env: { GATE_AUTH_ANSWER_ORIGIN: ANSWER_ORIGIN } });
beforeAll(async () => {
  await addPersonWithCli(gate, person.email, person.password, 'reviewer');
  agentKey = (await gate.key('agent')).key;
  expect((await gate.rpc(agentKey, 'gv.describe')).result.you).toMatchObject({ role: 'agent', kind: 'program' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const shot = (p: Page, name: string) => p.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

/** The console's own line about who is signed in, once it has settled. */
async function consoleStatus(p: Page): Promise<string> {
  await p.waitForFunction(() => {
    const t = document.querySelector('#status')?.textContent ?? '';
    return t !== '' && t !== 'Loading…';
  });
  return (await p.locator('#status').textContent())!;
}

describe('an agent key cannot sign in to the console', () => {
  it('the sign-in page asks an email and a password only, and the key as a password is refused like any wrong one', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${gate.url}/app`);
    expect(await consoleStatus(page)).toBe('Not signed in.');
    await Promise.all([page.waitForURL((u) => u.pathname === '/oauth/authorize'), page.click('#sign-in')]);
    const visible = await page.locator('form input:not([type=hidden]), form textarea, form select').evaluateAll((els) => els.map((e) => `${e.getAttribute('name')}:${e.getAttribute('type')}`));
    expect(visible).toEqual(['email:email', 'password:password']);
    expect(await page.locator('input[type=file]').count()).toBe(0);
    for (const email of [person.email, 'an-agent@example.test']) {
      await page.fill('#email', email);
      await page.fill('#password', agentKey);
      await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
      expect(new URL(page.url()).pathname).toBe('/oauth/authorize');
      expect(await page.locator('body').innerText()).toContain('The email or password is not right.');
    }
    await shot(page, 'agent-key-sign-in-page');
    await page.context().close();
  });

  it('the key sent to the token endpoint in any field, with itself as the bearer, gives no token and sets no cookie', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${gate.url}/app`);
    expect(await consoleStatus(page)).toBe('Not signed in.');
    const { verifier } = pkcePair();
    const attempts: Record<string, string>[] = [
      { grant_type: 'refresh_token', refresh_token: agentKey },
      { grant_type: 'authorization_code', code: agentKey, code_verifier: verifier, redirect_uri: `${gate.url}/app` },
      {
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        subject_token: agentKey,
        subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
        resource: ANSWER_ORIGIN,
      },
      { grant_type: 'client_credentials', client_secret: agentKey },
      { grant_type: 'password', username: 'agent', password: agentKey },
    ];
    const answers = await page.evaluate(
      async ({ attempts, key, clientId }) => {
        const out: { status: number; body: any }[] = [];
        for (const fields of attempts) {
          const res = await fetch('/oauth/token', {
            method: 'POST',
            credentials: 'same-origin',
            headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${key}` },
            body: new URLSearchParams({ client_id: clientId, ...fields }),
          });
          out.push({ status: res.status, body: await res.json() });
        }
        return out;
      },
      { attempts, key: agentKey, clientId: CLIENT_ID },
    );
    expect(answers.map((a) => [a.status, a.body.error])).toEqual([
      [400, 'invalid_grant'],
      [400, 'invalid_grant'],
      [400, 'invalid_grant'],
      [400, 'unsupported_grant_type'],
      [400, 'unsupported_grant_type'],
    ]);
    for (const a of answers) expect(a.body.access_token).toBeUndefined();
    expect((await page.context().cookies()).filter((c) => c.name === 'gate_refresh')).toEqual([]);
    // The bearer key alone on a refresh is no session either.
    const bare = await page.evaluate(async (key) => {
      const res = await fetch('/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${key}` }, body: 'grant_type=refresh_token' });
      return res.json();
    }, agentKey);
    expect(bare).toEqual({ session: false });
    expect(await consoleStatus(page)).toBe('Not signed in.');
    await shot(page, 'agent-key-token-endpoint');
    await page.context().close();
  });

  it('the key as the bearer of /app, or as the refresh cookie, leaves the console signed out with the sign-in offered', async () => {
    const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${agentKey}` } });
    const url = new URL(gate.url);
    await context.addCookies([{ name: 'gate_refresh', value: agentKey, domain: url.hostname, path: '/oauth/token', httpOnly: true, sameSite: 'Lax' }]);
    const page = await context.newPage();
    const rpcCalls: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/rpc') rpcCalls.push(r.postDataJSON()?.method);
    });
    const shell = await page.goto(`${gate.url}/app#/queue`);
    expect(shell!.status()).toBe(200);
    expect(await shell!.headerValue('set-cookie')).toBeNull();
    expect(await consoleStatus(page)).toBe('Not signed in.');
    expect(await page.locator('#sign-in').isVisible()).toBe(true);
    expect(await page.locator('nav a').count()).toBe(0);
    expect(await page.locator('table.queue, section[aria-label="Review queue"], section[aria-label="My rows"]').count()).toBe(0);
    expect(rpcCalls).toEqual([]);
    // The gate cleared the cookie it never issued.
    expect((await context.cookies()).filter((c) => c.name === 'gate_refresh')).toEqual([]);
    await shot(page, 'agent-key-no-session');
    await context.close();
  });
});
