import { afterAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '../harness/browser.js';
import { personInConsole, signInThroughTheBrowser } from '../harness/browser-sign-in.js';
import { authorizeFields, form, pkcePair } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

// A person changes their own password in the console's Password screen (Chromium): a wrong
// current password is said, two new ones that differ are said, and a change is told; the
// person signs in with the new password afterwards, as the same identity.

const person = { email: 'console-password@example.test', password: 'the first console password' };
const { gate } = useGate({ kind: 'in-process' });
let browser: TestBrowser | undefined;
afterAll(async () => {
  await browser?.close();
});

describe("the console's Password screen", () => {
  it('changes the signed-in person\'s own password', async () => {
    const opened = await personInConsole(gate, person, 'reader');
    browser = opened.browser;
    const { page } = opened;
    const identity = (await page.locator('#status').textContent())!;
    await page.click('nav a[href="#/password"]');
    const fill = async (current: string, next: string, again: string) => {
      await page.fill('input[name=current]', current);
      await page.fill('input[name=password]', next);
      await page.fill('input[name=again]', again);
      await page.click('button:has-text("Change password")');
    };

    await fill(person.password, 'the second console password', 'not the same one');
    await page.waitForSelector('text=The two new passwords differ.');
    await fill('a wrong current password', 'the second console password', 'the second console password');
    await page.waitForSelector('.problem:has-text("the current password is not right")');
    await fill(person.password, 'the second console password', 'the second console password');
    await page.waitForFunction(() => document.querySelector('#notice')?.textContent === 'Password changed. Your other sign-in sessions have ended.');
    // The session goes on; the form is empty again.
    expect(await page.inputValue('input[name=current]')).toBe('');
    await page.click('nav a[href="#/mine"]');
    await page.waitForSelector('section[aria-label]');

    const status = (password: string) => gate.http('POST', '/oauth/authorize', form({ ...authorizeFields(gate, pkcePair().challenge), email: person.email, password })).then((r) => r.status);
    expect(await status(person.password)).toBe(200);
    expect(await status('the second console password')).toBe(303);
    const again = await (await browser.newContext()).newPage();
    await signInThroughTheBrowser(again, gate.url, person.email, 'the second console password');
    expect(await again.locator('#status').textContent()).toBe(identity);
  });
});
