import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../harness/browser.js';
import { OrgProcess, PostgresCluster } from '../harness/org-process.js';
import { addPersonWithCli, freePort } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

/**
 * An organization that trusts several issuers: its console lets the person choose where to
 * sign in, calls only those issuers' token endpoints, and leaves out an issuer it cannot
 * read. A person with no role at the org is told how to get one.
 */
const SHOTS = 'test-results/org-console';
mkdirSync(SHOTS, { recursive: true });
const dir = mkdtempSync(join(tmpdir(), 'org-issuers-'));
chmodSync(dir, 0o755);
const orgPort = await freePort();
const orgOrigin = `http://127.0.0.1:${orgPort}`;
/** Nothing listens here: an issuer the org lists but cannot read. */
const unreachable = `http://127.0.0.1:${await freePort()}`;
const person = { email: 'second-issuer@example.test', password: 'a password at the second issuer' };
let cluster: PostgresCluster;
let org: OrgProcess;
let browser: Browser;

const { gate: first } = useGate({ ownIssuer: true, env: () => ({ GATE_AUTH_APP_ORIGINS: orgOrigin }) });
const { gate: second } = useGate({ ownIssuer: true, env: () => ({ GATE_AUTH_APP_ORIGINS: orgOrigin }) });
beforeAll(async () => {
  cluster = PostgresCluster.start(join(dir, 'pg'));
  org = await OrgProcess.start(join(dir, 'org'), { databaseUrl: cluster.url, port: orgPort, env: { GATE_AUTH_TRUSTED_ISSUERS: JSON.stringify([first.url, unreachable, second.url]) } });
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await org?.stop();
  cluster?.stop();
});

describe('several trusted issuers', () => {
  it('are offered to choose from; the person signs in at the one chosen; one that cannot be read is left out', async () => {
    const identity = await addPersonWithCli(second, person.email, person.password, 'reader');
    const res = await request(`${org.url}/app`);
    await res.body.dump();
    expect(res.headers['content-security-policy']).toContain(`connect-src 'self' ${first.url} ${second.url};`);
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${org.url}/app`);
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'Not signed in.');
    expect(await page.locator('#issuer option').allInnerTexts()).toEqual([first.url, second.url]);
    await page.selectOption('#issuer', second.url);
    await Promise.all([page.waitForURL((url) => url.pathname === '/oauth/authorize'), page.click('#sign-in')]);
    expect(new URL(page.url()).origin).toBe(second.url);
    await page.fill('#email', person.email);
    await page.fill('#password', person.password);
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    await page.waitForFunction(() => document.querySelector('#status')?.textContent?.startsWith('Signed in as') === true);
    expect(await page.locator('#status').innerText()).toBe(`Signed in as ${person.email} (${identity}), role reader.`);
    expect(identity.startsWith(`${second.url}|`)).toBe(true);
    // A reader at the org has no screen; the page says how a role is given.
    expect(await page.locator('nav a').count()).toBe(0);
    expect(await page.locator('.reader-note').innerText()).toBe(
      `Your role here is reader: an admin gives you one with gate org people assign --iss ${second.url} --sub ${identity.slice(identity.indexOf('|') + 1)} --role reviewer.`,
    );
    await page.screenshot({ path: `${SHOTS}/reader-at-second-issuer.png`, fullPage: true });
    // Signing out forgets the token: the page is back at the sign-in.
    await page.click('#sign-out');
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'Not signed in.');
  });
});
