import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestBrowser } from '../harness/browser.js';
import { SHOTS, personInConsole } from '../harness/browser-sign-in.js';
import { useGate } from '../harness/use-gate.js';

// The row screen checks gv.why's signed checkpoint against /identity's deployment id and
// each event's inclusion proof in it, in the page, with the client library's verifier. A
// gate that serves an altered proof or checkpoint (here: the answer altered on its way to
// the page) is shown failing, loudly, on the event and above the list.

const reviewer = { email: 'inclusion-reviewer@example.test', password: 'a reviewer password for inclusion' };
let browser: TestBrowser;
let page: Page;
let promoted: string;

const { gate, keys: { agent, promoter }, ingestId } = useGate({ kind: 'in-process', keys: { agent: 'agent', promoter: 'reviewer' } });
beforeAll(async () => {
  promoted = await ingestId(agent, { content: `The loading dock opens at seven ${Date.now()}.`, workarea: 'tests/inclusion', source_uri: 'https://example.org/inclusion' });
  await gate.readBody(promoter.key, promoted);
  expect((await gate.rpc(promoter.key, 'gv.promote', { artifact_id: promoted })).result?.state).toBe('ACTIVE');
  ({ browser, page } = await personInConsole(gate, reviewer, 'reviewer'));
});
afterAll(async () => {
  await browser?.close();
});

/** Each event of the row screen once the page checked its inclusion: its type, seq, outcome and text. */
async function inclusionsOf(id: string): Promise<{ type: string; seq: number; inclusion: string; text: string }[]> {
  await page.goto(`${gate.url}/app#/row/${encodeURIComponent(id)}`);
  await page.locator('ol.events li').first().waitFor();
  await page.waitForFunction(() => [...document.querySelectorAll('ol.events li')].every((li) => li.getAttribute('data-inclusion') !== 'checking'));
  return page.locator('ol.events li').evaluateAll((lis) =>
    lis.map((li) => ({
      type: li.querySelector('.type')!.textContent!,
      seq: Number(li.querySelector('.seq')!.textContent!.slice(1)),
      inclusion: li.getAttribute('data-inclusion')!,
      text: (li as HTMLElement).innerText,
    })),
  );
}

/** Serves the page gv.why's answer altered by `alter`, every other call as the gate answers it. */
async function alterWhy(alter: (answer: any) => void): Promise<void> {
  await page.unrouteAll({ behavior: 'wait' });
  await page.route(`${gate.url}/rpc`, async (route) => {
    if (route.request().postDataJSON()?.method !== 'gv.why') return route.continue();
    const response = await route.fetch();
    const body = await response.json();
    alter(body.result);
    await route.fulfill({ response, json: body });
  });
  // The row screen is already shown: only a new page load asks gv.why again.
  await page.reload();
}

/** A base64 SHA-256-sized hash that differs from `hash` in its first byte. */
const flipped = (hash: string) => {
  const bytes = Buffer.from(hash, 'base64');
  bytes[0] = bytes[0]! ^ 0xff;
  return bytes.toString('base64');
};

describe('inclusion proofs checked in the browser', () => {
  it("every event of a row is proven in the checkpoint gv.why serves, signed by /identity's deployment", async () => {
    const events = await inclusionsOf(promoted);
    expect(events.map((e) => e.type)).toEqual(['ingest', 'scan', 'promote']);
    const size = Number(/in the signed log \(checkpoint (\d+)\)/.exec(events[0]!.text)?.[1]);
    expect(size).toBeGreaterThanOrEqual(Math.max(...events.map((e) => e.seq)));
    for (const e of events) {
      expect(e.inclusion, e.type).toBe('included');
      expect(e.text).toContain(`in the signed log (checkpoint ${size})`);
    }
    expect(await page.locator('.proof-summary').innerText()).toBe(`3 of 3 events proven in your browser to be in the signed log (checkpoint ${size}, signed by deployment ${gate.deploymentId}).`);
    expect(await page.locator('.proof-alarm').count()).toBe(0);
    expect(await page.locator('.sig-alarm').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/inclusion-verified.png`, fullPage: true });
  });

  it('one proof hash altered on its way to the page: that event is shown not in the signed log, loudly; the others stay proven', async () => {
    await alterWhy((answer) => {
      const promote = answer.events.find((e: any) => e.type === 'promote');
      promote.inclusion.hashes[0] = flipped(promote.inclusion.hashes[0]);
    });
    const events = await inclusionsOf(promoted);
    expect(events.map((e) => [e.type, e.inclusion])).toEqual([
      ['ingest', 'included'],
      ['scan', 'included'],
      ['promote', 'failed'],
    ]);
    expect(events[2]!.text).toMatch(/✗ NOT IN THE SIGNED LOG: event [0-9a-f]{16} is not proven in the tree of \d+ events/);
    // The signature of the promote still holds: only its place in the log is not proven.
    expect(await page.locator('ol.events li[data-check=verified]').count()).toBe(3);
    expect(await page.locator('ol.events li.sig-failed').count()).toBe(1);
    expect(await page.locator('.proof-alarm').innerText()).toContain(`One event of this row failed the inclusion check in your browser (#${events[2]!.seq} promote)`);
    expect(await page.locator('.sig-alarm').innerText()).toContain("an event's place in the signed log");
    expect(await page.locator('.proof-summary').innerText()).toMatch(/^2 of 3 events proven/);
    await page.screenshot({ path: `${SHOTS}/inclusion-tampered.png`, fullPage: true });
  });

  it("a checkpoint whose signature does not hold fails every event's inclusion", async () => {
    await alterWhy((answer) => {
      // The size line changed: the deployment's signature no longer covers the body.
      const lines = answer.checkpoint.split('\n');
      lines[1] = String(Number(lines[1]) + 1);
      answer.checkpoint = lines.join('\n');
    });
    const events = await inclusionsOf(promoted);
    expect(events.map((e) => e.inclusion)).toEqual(['failed', 'failed', 'failed']);
    for (const e of events) expect(e.text).toContain("NOT IN THE SIGNED LOG: the signed checkpoint does not hold (the checkpoint's signature does not verify against the deployment id)");
    expect(await page.locator('.proof-alarm').innerText()).toContain('3 events of this row failed the inclusion check');
    await page.unrouteAll({ behavior: 'wait' });
  });
});
