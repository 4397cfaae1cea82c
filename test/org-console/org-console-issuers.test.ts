import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { launchBrowser, type TestBrowser } from '../harness/browser.js';
import { OrgProcess, PostgresCluster, orgCli, putSubmission } from '../harness/org-process.js';
import { SimulatedMember } from '../harness/member-submission.js';
import { addPersonWithCli, freePort } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

/**
 * An organization that trusts several issuers: its console lets the person choose where to
 * sign in, calls only those issuers' token endpoints, and leaves out an issuer it cannot
 * read. A person with no role at the org is told how to get one. A person of one issuer
 * deciding a row a person of the other signed at the member cannot be told apart from them:
 * the console says so before any button, and the decision stands once a second person's joins it.
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
let browser: TestBrowser;
let env: Record<string, string>;
const home = join(dir, 'org');

const { gate: first } = useGate({ kind: 'in-process', env: () => ({ GATE_AUTH_APP_ORIGINS: orgOrigin }) });
const { gate: second } = useGate({ kind: 'in-process', env: () => ({ GATE_AUTH_APP_ORIGINS: orgOrigin }) });
beforeAll(async () => {
  cluster = PostgresCluster.start(join(dir, 'pg'));
  env = { GATE_AUTH_TRUSTED_ISSUERS: JSON.stringify([first.url, unreachable, second.url]) };
  org = await OrgProcess.start(home, { databaseUrl: cluster.url, port: orgPort, env });
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

  it("a row signed at the member by a person of the other issuer: the decision waits for a second person's, who completes it", async () => {
    const cli = (...args: string[]) => orgCli([...args, '--home', home, '--database-url', cluster.url], env);
    const member = new SimulatedMember();
    const submitKey = JSON.parse(cli('member', 'add', `--deployment-id=${member.deploymentId}`, '--label', 'team gate', '--json')).key as string;
    const signer = `${first.url}|m-signer`;
    const claim = member.submission(`Signed at the member by someone of the first issuer ${Date.now()}.`, {
      over: { approval: { status: 'human_approved', approved_by: { model: 0, human: 1, authority: 0 }, signers: [{ identity: signer, class: 'human', decision: 'approve', counts: true }] } },
    });
    expect((await putSubmission(org, submitKey, claim)).status).toBe(202);
    const people = [
      { email: 'carol@second.example.test', password: 'carol signs in at the second issuer' },
      { email: 'dan@second.example.test', password: 'dan signs in at the second issuer' },
    ];
    const identities: string[] = [];
    for (const p of people) {
      const identity = await addPersonWithCli(second, p.email, p.password, 'reader');
      cli('people', 'assign', '--iss', second.url, '--sub', identity.slice(identity.indexOf('|') + 1), '--role', 'reviewer');
      identities.push(identity);
    }
    const decideAs = async (p: { email: string; password: string }) => {
      const page = await (await browser.newContext({ viewport: { width: 1300, height: 900 } })).newPage();
      await page.goto(`${org.url}/app#/submission/${encodeURIComponent(claim.artifactId)}?member=${member.deploymentId}`);
      await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'Not signed in.');
      await page.selectOption('#issuer', second.url);
      await Promise.all([page.waitForURL((url) => url.pathname === '/oauth/authorize'), page.click('#sign-in')]);
      await page.fill('#email', p.email);
      await page.fill('#password', p.password);
      await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
      await page.locator('.org-submission .sig-summary').waitFor();
      return page;
    };

    const carol = await decideAs(people[0]!);
    expect(await carol.locator('.standing').getAttribute('data-counts')).toBe('with_others');
    expect(await carol.locator('.standing').innerText()).toBe(
      `The organization cannot tell whether you are the member's ${signer} (approve): you signed in at another issuer, and no verified email both issuers assert tells you apart. Your decision is recorded and stands once a second person makes it too.`,
    );
    await carol.click('#countersign');
    await carol.waitForFunction(() => document.querySelector('#notice')?.textContent === 'Recorded: your countersign waits for one more person.');
    await carol.locator('.waiting-decision').waitFor();
    expect(await carol.locator('.waiting-decision').innerText()).toMatch(/^You decided countersign on .+: it waits for one more person to countersign too\.$/);
    expect(await carol.locator('.org-submission').getAttribute('data-state')).toBe('leased');
    expect(await carol.locator('#countersign').isDisabled()).toBe(true);
    await carol.screenshot({ path: `${SHOTS}/waits-for-a-second-person.png`, fullPage: true });
    await carol.context().close();

    const dan = await decideAs(people[1]!);
    expect(await dan.locator('.waiting-decision').getAttribute('data-by')).toBe(identities[0]);
    await dan.click('#countersign');
    await dan.waitForFunction(() => document.querySelector('.org-submission')?.getAttribute('data-state') === 'countersigned');
    expect(await dan.locator('.decision').innerText()).toContain(`Countersigned by ${identities[1]} with ${identities[0]}, who decided before as signer class human`);
    await dan.context().close();
  });
});
