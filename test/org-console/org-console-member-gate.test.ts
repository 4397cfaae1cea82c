import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, type TestBrowser } from '../harness/browser.js';
import { signInThroughTheBrowser } from '../harness/browser-sign-in.js';
import { uniqueText } from '../harness/gate-process.js';
import { OrgProcess, PostgresCluster, orgCli } from '../harness/org-process.js';
import { addPersonWithCli, freePort, signIn } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';
import { DeploymentKey } from '../../src/credentials/deployment-key.js';

/**
 * The loop through the org's console with a real member gate: the member (also the issuer the
 * org trusts) has a claim promoted by a person and submits it. That person, a reviewer at the
 * organization too, opens it in the org's console and is told, with no decision offered, that
 * a person who signed a row at the member never counts at the organization for it. A second
 * person signs in to the org's console at that member's provider, finds the submission's real
 * signed events verified in the browser, and countersigns; the member pulls the outcome and
 * the claim is no longer provisional.
 */
const SHOTS = 'test-results/org-console';
mkdirSync(SHOTS, { recursive: true });
const dir = mkdtempSync(join(tmpdir(), 'org-console-member-'));
chmodSync(dir, 0o755);
const orgHome = join(dir, 'org');
const gateHome = join(dir, 'gate');
const orgPort = await freePort();
const orgOrigin = `http://127.0.0.1:${orgPort}`;
const reviewer = { email: 'org-side@example.test', password: 'an org-side password here' };
let cluster: PostgresCluster;
let org: OrgProcess;
let submitKey: string;
let memberId: string;
let browser: TestBrowser;
let page: Page;
let trust: Record<string, string>;

beforeAll(() => {
  cluster = PostgresCluster.start(join(dir, 'pg'));
  // The member's key exists before its first start, so the org can issue its submit key first.
  mkdirSync(gateHome, { mode: 0o700 });
  memberId = DeploymentKey.openOrCreate(join(gateHome, 'deployment.key')).deploymentId;
  submitKey = JSON.parse(orgCli(['member', 'add', `--deployment-id=${memberId}`, '--label', 'team gate', '--json', '--home', orgHome, '--database-url', cluster.url])).key;
}, 120_000);
const { gate, keys: { agent }, ingestId } = useGate({
  kind: 'in-process',
  home: gateHome,
  keys: { agent: 'agent' },
  env: () => ({
    GATE_AUTH_APP_ORIGINS: orgOrigin,
    GATE_ORG_URL: orgOrigin,
    GATE_ORG_ALLOW_PLAIN_HTTP_LOOPBACK: 'true',
    GATE_ORG_API_KEY_ENV: 'TEST_ORG_KEY',
    TEST_ORG_KEY: submitKey,
    GATE_ORG_POLL_EVERY_MS: '0',
  }),
});
beforeAll(async () => {
  trust = { GATE_AUTH_TRUSTED_ISSUERS: JSON.stringify([gate.url]) };
  org = await OrgProcess.start(orgHome, { databaseUrl: cluster.url, env: trust, port: orgPort });
  const identity = await addPersonWithCli(gate, reviewer.email, reviewer.password, 'reader');
  const cut = identity.indexOf('|');
  orgCli(['people', 'assign', '--iss', identity.slice(0, cut), '--sub', identity.slice(cut + 1), '--role', 'reviewer', '--home', orgHome, '--database-url', cluster.url], trust);
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1300, height: 900 } })).newPage();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await org?.stop();
  cluster?.stop();
});

const ok = (answer: any) => {
  expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  return answer.result;
};

describe("a real member gate's submission in the org's console", () => {
  it('is verified in the browser from its real signed events, refused to the person who promoted it, countersigned by another, and the member pulls it', async () => {
    const signer = await signIn(gate, { role: 'reviewer' });
    const claim = await ingestId(agent, { content: uniqueText('Releases are cut on Thursdays.'), source_uri: 'chat://1', workarea: 'notes' });
    await gate.readBody(signer.accessToken, claim);
    expect(ok(await gate.rpc(signer.accessToken, 'gv.sign', { artifact_id: claim, decision: 'approve', promote: true })).state).toBe('ACTIVE');
    expect(ok(await gate.rpc(signer.accessToken, 'gv.submit', { artifact_id: claim })).state).toBe('queued');
    expect(ok(await gate.socket('gv.submit_drain', {}))).toMatchObject({ sent: 1, accepted: 1 });

    // The person who approved and promoted it at the member is a reviewer at the organization too: the console tells
    // them, before any button, that this row is another reviewer's, and offers them no decision.
    orgCli(['people', 'assign', '--iss', signer.iss, '--sub', signer.sub, '--role', 'reviewer', '--home', orgHome, '--database-url', cluster.url], trust);
    const own = await (await browser.newContext({ viewport: { width: 1300, height: 900 } })).newPage();
    await signInThroughTheBrowser(own, org.url, signer.email, signer.password);
    await own.locator(`.org-item[data-artifact="${claim}"] .standing`).waitFor();
    expect(await own.locator(`.org-item[data-artifact="${claim}"] .standing`).getAttribute('data-counts')).toBe('not');
    await own.goto(`${org.url}/app#/submission/${encodeURIComponent(claim)}?member=${memberId}`);
    await own.locator('.org-submission .sig-summary').waitFor();
    const why = await own.locator('.org-submission .standing').innerText();
    expect(why).toMatch(new RegExp(`^You acted on this row at the member \\(.*approve.*\\) as ${signer.identity.replace(/[.|]/g, '\\$&')}: a person who signed a row at the member never counts at the organization for it\\. Another reviewer decides it\\.$`));
    expect(await own.locator('#countersign, #refuse, #take').count()).toBe(0);
    await own.screenshot({ path: `${SHOTS}/member-gate-own-row.png`, fullPage: true });
    await own.context().close();

    // The gate console's sign-in steps hold for the org's console (its page is the issuer's, on another origin).
    await signInThroughTheBrowser(page, org.url, reviewer.email, reviewer.password, `#/submission/${encodeURIComponent(claim)}?member=${memberId}`);
    // Back from the provider on the screen the person left from.
    await page.locator('.org-submission .sig-summary').waitFor();
    const checks = await page.locator('.sig-checks li').evaluateAll((lis) => lis.map((li) => [li.getAttribute('data-check'), (li as HTMLElement).innerText]));
    expect(checks.map((c) => c[0]).every((c) => c === 'verified')).toBe(true);
    expect(checks.map((c) => c[1])).toEqual(expect.arrayContaining([expect.stringMatching(/^The ingest event: verified in your browser/), expect.stringMatching(/^The promote event [0-9a-f]{12}: verified in your browser/)]));
    // The member's people by the email the submission states for them, the identity on hover.
    expect(await page.locator('.local-decisions li').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining(`manual-sign by ${signer.email}`)]));
    const signedBy = page.locator('ul.signers li .who.person').first();
    expect(await signedBy.textContent()).toBe(signer.email);
    expect(await signedBy.getAttribute('title')).toBe(signer.identity);
    expect(await page.locator('pre.body').innerText()).toContain('Releases are cut on Thursdays.');
    await page.screenshot({ path: `${SHOTS}/member-gate-submission.png`, fullPage: true });
    await page.click('#countersign');
    await page.waitForFunction(() => document.querySelector('.org-submission')?.getAttribute('data-state') === 'countersigned');

    expect(ok(await gate.socket('gv.outcomes_pull', {}))).toMatchObject({ pulled: 1, countersigned: 1 });
    expect(ok(await gate.rpc(signer.accessToken, 'gv.countersign_status', { artifact_id: claim }))).toMatchObject({ provisional: false, countersigned: true });
    const approval = ok(await gate.rpc(signer.accessToken, 'gv.approval', { artifact_id: claim }));
    expect(approval.signers.find((s: any) => s.class === 'authority')).toMatchObject({ decision: 'countersign' });
  });
});
