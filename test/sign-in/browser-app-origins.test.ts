import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { ForeignSite, launchBrowser, type TestBrowser } from '../harness/browser.js';
import { addPersonWithCli, authorizeFields, CLIENT_ID, pkcePair } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

// A console served from a listed app origin calls the gate from the browser: its preflights
// are answered, its answers readable, the refresh cookie set and sent. A page of any other
// origin gets nothing it can read and cannot use the person's session. The browser decides
// all of it from the gate's headers, as it would for a person.

const email = 'console@example.test';
const password = 'a console elsewhere password';
let listed: ForeignSite;
let unlisted: ForeignSite;
let browser: TestBrowser;
let identity: string;

beforeAll(async () => {
  listed = await ForeignSite.start();
  unlisted = await ForeignSite.start();
});
afterAll(async () => {
  await listed?.close();
  await unlisted?.close();
});
const { gate } = useGate({ kind: 'in-process', env: () => ({ GATE_AUTH_APP_ORIGINS: listed.origin }) });
beforeAll(async () => {
  identity = await addPersonWithCli(gate, email, password, 'reviewer');
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

interface Outcome {
  status?: number;
  body?: any;
  failed?: string;
}

/** One fetch from `page`'s own origin, as its script would make it; a refused one answers `failed`. */
function fetchFrom(page: Page, url: string, init: { method?: string; headers?: Record<string, string>; body?: string; credentials?: RequestCredentials }): Promise<Outcome> {
  return page.evaluate(
    async ({ url, init }) => {
      try {
        const res = await fetch(url, init);
        return { status: res.status, body: await res.json() };
      } catch (error) {
        return { failed: String(error) };
      }
    },
    { url, init },
  );
}

const tokenForm = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ client_id: CLIENT_ID, ...fields }).toString(),
  credentials: 'include' as const,
});
const rpcCall = (accessToken: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'gv.describe' }),
});
const refreshCookie = async (context: BrowserContext) => (await context.cookies()).find((c) => c.name === 'gate_refresh');

/** Signs in at the gate's page with redirect_uri the listed console's /app, and exchanges the code from there. */
async function signInFromListedConsole(context: BrowserContext): Promise<{ console: Page; accessToken: string }> {
  const console = await context.newPage();
  const { verifier, challenge } = pkcePair();
  const fields = authorizeFields(gate, challenge, { redirect_uri: `${listed.origin}/app` });
  listed.page('/app', '<!doctype html><title>a console elsewhere</title><p>console</p>');
  await console.goto(`${gate.url}/oauth/authorize?${new URLSearchParams(fields)}`);
  await console.fill('#email', email);
  await console.fill('#password', password);
  await Promise.all([console.waitForURL((url) => url.origin === listed.origin), console.click('button[type=submit]')]);
  const code = new URL(console.url()).searchParams.get('code')!;
  const exchanged = await fetchFrom(console, `${gate.url}/oauth/token`, tokenForm({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: fields['redirect_uri']! }));
  expect(exchanged.status).toBe(200);
  return { console, accessToken: exchanged.body.access_token };
}

describe('a console on a listed app origin calls the gate from the browser', () => {
  it('/identity, /rpc (preflighted: it sends Authorization) and /oauth/token with the refresh cookie all answer it', async () => {
    const context = await browser.newContext();
    const { console, accessToken } = await signInFromListedConsole(context);
    expect(console.url()).toMatch(new RegExp(`^${listed.origin}/app\\?`));

    // The cookie the cross-origin token answer set is the gate's, kept from every script.
    const cookie = await refreshCookie(context);
    expect(cookie).toMatchObject({ domain: '127.0.0.1', path: '/oauth/token', httpOnly: true, sameSite: 'Lax' });

    const described = await fetchFrom(console, `${gate.url}/identity`, {});
    expect(described.body.deployment_id).toBe(gate.deploymentId);
    const rpc = await fetchFrom(console, `${gate.url}/rpc`, rpcCall(accessToken));
    expect(rpc.status).toBe(200);
    expect(rpc.body.result.you).toMatchObject({ identity, role: 'reviewer', kind: 'person' });

    // The console resumes a session the way the shell does: the cookie, no field.
    const resumed = await fetchFrom(console, `${gate.url}/oauth/token`, tokenForm({ grant_type: 'refresh_token' }));
    expect(resumed.status).toBe(200);
    expect(resumed.body.access_token).toMatch(/^ey/);
    expect((await refreshCookie(context))!.value).not.toBe(cookie!.value);
    await context.close();
  });
});

describe('a page of an unlisted origin cannot use the gate or the session', () => {
  // Another port of the same host (same site: the SameSite=Lax cookie still travels) and another site.
  const origins = () => [unlisted.origin, unlisted.origin.replace('127.0.0.1', 'localhost')];

  it('reads nothing: /identity and /rpc fail in the page', async () => {
    const context = await browser.newContext();
    const { accessToken } = await signInFromListedConsole(context);
    for (const origin of origins()) {
      const page = await context.newPage();
      await page.goto(`${origin}${new URL(unlisted.page('/reader', '<!doctype html><p>elsewhere</p>')).pathname}`);
      expect((await fetchFrom(page, `${gate.url}/identity`, {})).failed, origin).toMatch(/Failed to fetch/);
      expect((await fetchFrom(page, `${gate.url}/rpc`, rpcCall(accessToken))).failed, origin).toMatch(/Failed to fetch/);
      await page.close();
    }
    await context.close();
  });

  it('cannot spend or end the session: /oauth/token and /oauth/logout refuse it before the cookie is touched', async () => {
    const context = await browser.newContext();
    const { console } = await signInFromListedConsole(context);
    const before = (await refreshCookie(context))!.value;
    for (const origin of origins()) {
      const page = await context.newPage();
      await page.goto(`${origin}${new URL(unlisted.page('/session', '<!doctype html><p>elsewhere</p>')).pathname}`);
      // Sent as simple requests (no preflight), so the gate itself must refuse them: a rotation
      // or a cleared cookie would show in the browser's cookie jar (it keeps a Set-Cookie even
      // from an answer its page may not read).
      expect((await fetchFrom(page, `${gate.url}/oauth/token`, tokenForm({ grant_type: 'refresh_token' }))).failed).toMatch(/Failed to fetch/);
      expect((await refreshCookie(context))!.value, origin).toBe(before);
      const logout = await page.evaluate((url) => fetch(url, { method: 'POST', mode: 'no-cors', credentials: 'include' }).then((r) => r.type), `${gate.url}/oauth/logout`);
      expect(logout).toBe('opaque');
      expect((await refreshCookie(context))?.value, origin).toBe(before);
      await page.close();
    }
    // The session is whole: the listed console resumes it with the very same cookie.
    const resumed = await fetchFrom(console, `${gate.url}/oauth/token`, tokenForm({ grant_type: 'refresh_token' }));
    expect(resumed.status).toBe(200);
    await context.close();
  });
});
