import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Response } from 'playwright-core';
import { ForeignSite, launchBrowser, type TestBrowser } from '../harness/browser.js';
import { addPersonWithCli, authorizeFields, pkcePair } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

// A page of another site that posts the sign-in form to the gate, with a person's right
// email and password (a phished password, a password manager filling a lookalike), must not
// get a code. Each page here is real and its requests are Chromium's own.

const email = 'target@example.test';
const password = 'the target password';
let site: ForeignSite;
let browser: TestBrowser;

const { gate } = useGate({ kind: 'in-process' });
beforeAll(async () => {
  await addPersonWithCli(gate, email, password, 'reviewer');
  site = await ForeignSite.start();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** The sign-in form, as the gate's own page has it, filled in, on a page of another site. */
function formHtml(target = '_self'): string {
  const fields = { ...authorizeFields(gate, pkcePair().challenge), email, password };
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
    .join('');
  return `<form method="post" target="${target}" action="${gate.url}/oauth/authorize">${inputs}<button type="submit">Sign in</button></form>`;
}

const page = (head: string, body: string) => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

/** Submits the form on `url` (in its iframe, if it sits in one) and answers the gate's answer to the POST, in whichever tab it lands. */
async function submit(tab: Page, url: string, inFrame = false): Promise<Response> {
  await tab.goto(url);
  const target = inFrame ? tab.frameLocator('iframe') : tab;
  const [answer] = await Promise.all([
    tab.context().waitForEvent('response', (r) => r.request().method() === 'POST' && r.url() === `${gate.url}/oauth/authorize`),
    target.locator('button[type=submit]').click(),
  ]);
  return answer;
}

async function expectRefused(answer: Response): Promise<void> {
  expect(answer.status()).toBe(400);
  expect(await answer.headerValue('location')).toBeNull();
  expect(await answer.text()).toContain('the sign-in form was posted from another site');
}

describe('the sign-in form posted from a page of another site is refused, even with the right password', () => {
  it('a page on another port of the same loopback host (same site, another origin)', async () => {
    const tab = await browser.newPage();
    const answer = await submit(tab, site.page('/same-site', page('', formHtml())));
    expect(await answer.request().headerValue('origin')).toBe(site.origin);
    expect(await answer.request().headerValue('sec-fetch-site')).toBe('same-site');
    await expectRefused(answer);
    await tab.close();
  });

  it('a page of another site that withholds its origin (Origin: null)', async () => {
    const tab = await browser.newPage();
    const url = site.page('/no-referrer', page('<meta name="referrer" content="no-referrer">', formHtml())).replace('127.0.0.1', 'localhost');
    const answer = await submit(tab, url);
    expect(await answer.request().headerValue('origin')).toBe('null');
    expect(await answer.request().headerValue('sec-fetch-site')).toBe('cross-site');
    await expectRefused(answer);
    await tab.close();
  });

  it('a sandboxed frame (an opaque origin)', async () => {
    const tab = await browser.newPage();
    // The answer opens in a tab of its own (still sandboxed): the gate's pages refuse to be framed.
    const frame = formHtml('_blank').replace(/"/g, '&quot;');
    const url = site.page('/sandboxed', page('', `<iframe sandbox="allow-forms allow-popups" srcdoc="${frame}"></iframe>`));
    const answer = await submit(tab, url, true);
    expect(await answer.request().headerValue('origin')).toBe('null');
    expect(await answer.request().headerValue('sec-fetch-site')).toBe('cross-site');
    await expectRefused(answer);
    await tab.close();
  });

  it("while the same form on the gate's own page signs in", async () => {
    const tab = await browser.newPage();
    await tab.goto(`${gate.url}/oauth/authorize?${new URLSearchParams(authorizeFields(gate, pkcePair().challenge))}`);
    await tab.fill('#email', email);
    await tab.fill('#password', password);
    const [answer] = await Promise.all([
      tab.waitForResponse((r) => r.request().method() === 'POST' && r.url() === `${gate.url}/oauth/authorize`),
      tab.click('button[type=submit]'),
    ]);
    expect(answer.status()).toBe(303);
    expect(new URL((await answer.headerValue('location'))!).searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The answer sends the tab on to the console, which starts loading as the click returns: a
    // close in the middle of that load (page.close has no timeout) once held the test past its
    // own 60 s. The tab is closed once the console's page has loaded.
    await tab.waitForURL(/\/app\?code=/);
    await tab.waitForLoadState('load');
    await tab.close();
  });
});
