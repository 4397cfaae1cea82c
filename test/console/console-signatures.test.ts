import { createHash, createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import canonicalize from 'canonicalize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestBrowser } from '../harness/browser.js';
import { SHOTS, personInConsole } from '../harness/browser-sign-in.js';
import { useGate } from '../harness/use-gate.js';

// The row screen checks each event's signature in the page, against the deployment id of
// /identity, with the bytes gv.why hands over, and the link of each event to the row's event
// at the place before it. A journal altered on disk behind the gate's back is still served
// by it; the page says which event no longer holds, and loudly.

const reviewer = { email: 'signature-reviewer@example.test', password: 'a reviewer password for signatures' };
let browser: TestBrowser;
let page: Page;
let promoted: string;
let flagged: string;
let rewritten: string;

const { gate, keys: { agent, promoter }, ingestResult } = useGate({ kind: 'in-process', keys: { agent: 'agent', promoter: 'reviewer' } });
beforeAll(async () => {
  const ingest = (content: string) => ingestResult(agent, { content, workarea: 'tests/signatures', source_uri: 'https://example.org/signatures' });
  promoted = (await ingest(`The archive room key hangs by the door ${Date.now()}.`)).artifact_id;
  await gate.readBody(promoter.key, promoted);
  expect((await gate.rpc(promoter.key, 'gv.promote', { artifact_id: promoted })).result?.state).toBe('ACTIVE');
  expect((await gate.rpc(agent.key, 'gv.rank', { artifact_id: promoted, weight: 2 })).error).toBeUndefined();
  const held = await ingest(`deploy key: AKIA${'W3XV'.repeat(4)} ${Date.now()}`);
  expect(held.state).toBe('L1B_FLAGGED');
  flagged = held.artifact_id;
  rewritten = (await ingest(`The boiler room is checked every Monday ${Date.now()}.`)).artifact_id;
  ({ browser, page } = await personInConsole(gate, reviewer, 'reviewer'));
});
afterAll(async () => {
  await browser?.close();
});

const shot = (p: Page, name: string) => p.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

/** Each event of the row screen as checked in the page: its type and the check's outcome. */
async function checksOf(id: string): Promise<{ type: string; check: string; link: string; text: string }[]> {
  await page.goto(`${gate.url}/app#/row/${encodeURIComponent(id)}`);
  await page.locator('ol.events li').first().waitFor();
  await page.waitForFunction(() => [...document.querySelectorAll('ol.events li')].every((li) => li.getAttribute('data-link') !== 'checking'));
  return page.locator('ol.events li').evaluateAll((lis) =>
    lis.map((li) => ({
      type: li.querySelector('.type')!.textContent!,
      check: li.getAttribute('data-check')!,
      link: li.getAttribute('data-link')!,
      text: (li as HTMLElement).innerText,
    })),
  );
}

describe('signatures checked in the browser', () => {
  it("each event of a row says its signature was verified in the browser, against /identity's deployment id", async () => {
    const checks = await checksOf(promoted);
    expect(checks.map((c) => c.type)).toEqual(['ingest', 'scan', 'promote', 'rank']);
    for (const c of checks) {
      expect(c.check, c.type).toBe('verified');
      expect(c.text).toContain('signature verified in your browser');
    }
    expect(await page.locator('.sig-summary').innerText()).toBe(`4 of 4 signatures verified in your browser against deployment ${gate.deploymentId}.`);
    expect(await page.locator('.sig-alarm').count()).toBe(0);
    // The scan directly follows its ingest in the journal; the ingest follows another row's event.
    expect(checks[0]!.link).toBe('gap');
    expect(checks[0]!.text).toContain('not served here: link not checkable here');
    expect(checks[1]!.link).toBe('linked');
    expect(checks[1]!.text).toContain('directly (link checked in your browser)');
    expect(checks.map((c) => c.link)).not.toContain('broken');
    expect(await page.locator('.chain-summary').innerText()).toMatch(/^\d+ links? to the event just before checked in your browser; \d+ events? follows? an event not served here/);
    expect(await page.locator('.chain-alarm').count()).toBe(0);
    await shot(page, 'signatures-verified');
  });

  it("an event whose bytes the reviewer is not served (a scan's findings) is said to be not checkable, not verified", async () => {
    const checks = await checksOf(flagged);
    expect(checks.map((c) => [c.type, c.check, c.link])).toEqual([
      ['ingest', 'verified', 'gap'],
      ['scan', 'withheld', 'unchecked'],
    ]);
    expect(checks[1]!.text).toContain('not checkable here: it holds findings');
    expect(checks[1]!.text).toContain('link not checked');
    expect(await page.locator('.sig-alarm').count()).toBe(0);
    await shot(page, 'signature-withheld');
  });

  it('a journal row altered on disk is served by the gate and shown as failed; the other events stay verified', async () => {
    await gate.stop();
    const db = new Database(join(gate.home, 'gate.db'));
    const ingest = db.prepare("SELECT seq, body FROM journal WHERE artifact_id = ? AND type = 'ingest'").get(promoted) as { seq: number; body: string };
    const altered = ingest.body.replace(/"size_bytes":(\d+)/, (_, n: string) => `"size_bytes":${Number(n) + 1000}`);
    expect(altered).not.toBe(ingest.body);
    db.exec('DROP TRIGGER journal_no_update');
    db.prepare('UPDATE journal SET body = ? WHERE seq = ?').run(altered, ingest.seq);
    db.close();
    await gate.restart();

    // The gate still serves the altered event (its own check says so too, but the page decides for itself).
    const why = await gate.socket('gv.why', { artifact_id: promoted });
    const served = why.result.events.find((e: any) => e.type === 'ingest');
    expect(served.signed).toBe(altered);
    expect(served.verified).toBe(false);

    await page.reload();
    const checks = await checksOf(promoted);
    expect(checks.map((c) => [c.type, c.check])).toEqual([
      ['ingest', 'failed'],
      ['scan', 'verified'],
      ['promote', 'verified'],
      ['rank', 'verified'],
    ]);
    expect(checks[0]!.text).toContain("SIGNATURE CHECK FAILED: the signature does not hold for this deployment's key");
    expect(await page.locator('.sig-alarm').first().isVisible()).toBe(true);
    expect(await page.locator('ol.events li.sig-failed').count()).toBe(1);
    expect(await page.locator('ol.events .sig-alarm, .sig-alarm[role=alert]').innerText()).toContain(`#${ingest.seq} ingest`);
    await shot(page, 'signature-tampered');
  });

  it("a history re-signed with the deployment's own key: every signature holds, the broken link and the event outside the signed log are shown loudly", async () => {
    await gate.stop();
    const db = new Database(join(gate.home, 'gate.db'));
    const scan = db.prepare("SELECT seq, body FROM journal WHERE artifact_id = ? AND type = 'scan'").get(rewritten) as { seq: number; body: string };
    // Whoever holds the key can sign anything: here the scan no longer names the ingest before it.
    const envelope = { ...JSON.parse(scan.body), prev: '0'.repeat(64) };
    const body = canonicalize(envelope)!;
    const sig = sign(null, Buffer.from(body), createPrivateKey(readFileSync(join(gate.home, 'deployment.key')))).toString('base64url');
    const eventId = createHash('sha256').update(body).digest('hex');
    db.exec('DROP TRIGGER IF EXISTS journal_no_update');
    db.prepare('UPDATE journal SET body = ?, sig = ?, event_id = ?, prev = ? WHERE seq = ?').run(body, sig, eventId, envelope.prev, scan.seq);
    db.close();
    await gate.restart();
    expect((await gate.socket('gv.why', { artifact_id: rewritten })).result.events.find((e: any) => e.type === 'scan').verified).toBe(true);

    await page.reload();
    const checks = await checksOf(rewritten);
    expect(checks.map((c) => [c.type, c.check, c.link])).toEqual([
      ['ingest', 'verified', 'gap'],
      ['scan', 'verified', 'broken'],
    ]);
    expect(checks[1]!.text).toContain(`CHAIN BROKEN: its signed prev is not #${scan.seq - 1}, the event at the place before it`);
    expect(await page.locator('.chain-alarm').innerText()).toContain(`broken at #${scan.seq} scan`);
    // The log tree keeps its complete nodes as they were appended: the re-signed scan's new id
    // is no leaf of the signed tree. The ingest's proof passes through the scan's leaf (read
    // from the journal) only when the two are siblings, its leaf index (seq - 1) even.
    const inclusions = await page.locator('ol.events li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-inclusion')));
    const ingestSeq = scan.seq - 1;
    expect(inclusions).toEqual([ingestSeq % 2 === 1 ? 'failed' : 'included', 'failed']);
    expect(checks[1]!.text).toContain('NOT IN THE SIGNED LOG');
    expect(await page.locator('.proof-alarm').innerText()).toContain(`#${scan.seq} scan`);
    expect(await page.locator('ol.events li.sig-failed').count()).toBe(ingestSeq % 2 === 1 ? 2 : 1);
    expect(await page.locator('.sig-alarm').first().innerText()).toContain('a link between its events');
    await shot(page, 'chain-broken');

    // The row is held and this person may sign it: with its history failed, Approve (button and
    // key) waits for a deliberate "approve anyway"; Reject and Archive stay as they are.
    await page.locator('p.read-all').waitFor();
    const approve = page.locator('button.approve');
    expect(await approve.isDisabled()).toBe(true);
    expect(await approve.getAttribute('title')).toContain("this row's history failed the check in your browser");
    expect(await page.locator('.actions button', { hasText: 'Reject (r)' }).isEnabled()).toBe(true);
    // The key sends no signature: counted as the page sends them, not looked for after a wait
    // (test/README.md, "Waiting"). A sign the key had sent would go before the button's, whose
    // answer the notice below awaits, so it would be counted by then.
    const signsSent: string[] = [];
    const countSigns = (request: { method(): string; url(): string; postData(): string | null }) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/rpc' && request.postData()?.includes('"method":"gv.sign"')) signsSent.push(request.postData()!);
    };
    page.on('request', countSigns);
    await page.keyboard.press('a');
    expect((await gate.socket('gv.approval', { artifact_id: rewritten })).result.signers.filter((s: any) => s.decision === 'approve')).toEqual([]);
    await page.locator('.approve-anyway input[type=checkbox]').check();
    expect(await approve.isEnabled()).toBe(true);
    await shot(page, 'approve-anyway');
    await approve.click();
    await page.locator('#notice', { hasText: 'Approved' }).waitFor();
    page.off('request', countSigns);
    expect(signsSent, 'the key sent a signature before "approve anyway"').toHaveLength(1);
    const signers = (await gate.socket('gv.approval', { artifact_id: rewritten })).result.signers;
    // The person's signature, the only approval on the row (a person's identity is issuer|subject).
    expect(signers.filter((s: any) => s.decision === 'approve').map((s: any) => [s.class, s.identity.startsWith(`${gate.url}|`)])).toEqual([['human', true]]);
  });

  it('Approve waits for the history check: on a row whose history holds it is on once the body is read, with no "approve anyway"', async () => {
    const fine = await gate.rpc((await gate.key('agent')).key, 'gv.ingest', {
      content: `The loading dock closes at six ${Date.now()}.`,
      workarea: 'tests/signatures',
      kind: 'memory',
      source_uri: 'https://example.org/signatures',
    });
    const checks = await checksOf(fine.result.artifact_id);
    expect(checks.every((c) => c.check === 'verified')).toBe(true);
    await page.locator('p.read-all').waitFor();
    expect(await page.locator('button.approve').isEnabled()).toBe(true);
    expect(await page.locator('.approve-anyway').count()).toBe(0);
    expect(await page.locator('.sig-alarm').count()).toBe(0);
  });
});
