import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestBrowser } from '../harness/browser.js';
import { uniqueText } from '../harness/gate-process.js';
import { SHOTS, personInConsole } from '../harness/browser-sign-in.js';
import { useGate } from '../harness/use-gate.js';

// The operator screen's pipeline queues (gv.queues), read again while the screen is shown:
// a gate whose scan worker holds each one-claim batch 2 s (failpoint scan-worker-stalls),
// so a burst of ingests is seen waiting and then drained, without reloading the page.

const operator = { email: 'console-queues@example.test', password: 'an operator password for the queues' };
const BURST = 6;
let browser: TestBrowser;
let page: Page;

const { gate, keys: { agent } } = useGate({
  kind: 'in-process',
  env: { GATE_FAILPOINTS: 'scan-worker-stalls', GATE_SCAN_BATCH_MAX: '1', GATE_SCAN_THREADS: '1', GATE_QUARANTINE_MAX_DEPTH: '500' },
  keys: { agent: 'agent' },
});
beforeAll(async () => {
  ({ browser, page } = await personInConsole(gate, operator, 'reviewer'));
});
afterAll(async () => {
  await browser?.close();
});

const cell = (stage: string, column: string) => page.locator(`table.queues tr[data-stage=${stage}] td.${column}`);
/** Waits until the scan row's cell reads a count above zero, or zero (the page reads gv.queues every 2 s). */
const scanShows = (column: string, count: 'some' | 'none') =>
  page.waitForFunction(
    ([c, want]) => {
      const text = document.querySelector(`table.queues tr[data-stage=scan] td.${c}`)?.textContent ?? '';
      return /^\d+$/.test(text) && (want === 'some' ? Number(text) > 0 : Number(text) === 0);
    },
    [column, count] as const,
    { timeout: 60_000, polling: 100 },
  );

describe('operator: pipeline queues', () => {
  it('shows each stage, sees a burst wait in the scan queue and drain, reading again while shown', async () => {
    await page.goto(`${gate.url}/app#/operator`);
    await page.locator('table.queues tr[data-stage=embed]').waitFor();
    expect(await page.locator('table.queues tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-stage')))).toEqual(['scan', 'image', 'bundle', 'grade', 'embed']);
    expect(await cell('scan', 'queued').innerText()).toBe('0');
    expect(await cell('scan', 'bound').innerText()).toBe('4096 (4096)');
    expect(await cell('grade', 'bound').innerText()).toBe('by its callers');
    expect(await page.locator('.quarantine-bound').innerText()).toMatch(/^0 held before review .* of at most 500; room for 500 more/);
    // The background rescan of promoted rows says how far it got (nothing to do on a new home).
    await page.waitForFunction(() => /nothing left to scan\. Since the start: 0 scanned/.test(document.querySelector('.promoted-rescan')?.textContent ?? ''), undefined, { timeout: 15_000 });
    expect(await page.locator('.promoted-rescan').innerText()).toMatch(/^Promoted rows scanned again by gate-scan\/\d+ /);

    const ingests = Array.from({ length: BURST }, (_, i) =>
      gate.rpc(agent.key, 'gv.ingest', { content: `${uniqueText('console queue')} #${i}`, kind: 'memory', workarea: 'tests/queues', source_uri: 'test://queues' }),
    );
    // Nothing reloads the page: what changes is read again by the screen itself.
    await scanShows('queued', 'some');
    expect(await page.locator('table.queues tr[data-stage=scan]').getAttribute('class')).toBe('busy');
    expect(await cell('scan', 'oldest').innerText()).toMatch(/\d+(\.\d)? (ms|s)$/);
    await page.screenshot({ path: `${SHOTS}/operator-queues.png`, fullPage: true });

    for (const a of await Promise.all(ingests)) expect(a.result?.state, JSON.stringify(a.error)).toBe('L1_SCANNED');
    await scanShows('queued', 'none');
    await scanShows('running', 'none');
    expect(await cell('scan', 'oldest').innerText()).toBe('—');
    await page.waitForFunction((n) => document.querySelector('.quarantine-bound')?.textContent?.startsWith(`${n} held before review`) === true, BURST, { timeout: 15_000 });
  });

  it('stops asking once another screen is shown', async () => {
    const asked: number[] = [];
    const listen = (request: import('playwright-core').Request) => {
      if (request.url().endsWith('/rpc') && request.postData()?.includes('"gv.queues"')) asked.push(Date.now());
    };
    page.on('request', listen);
    try {
      await page.goto(`${gate.url}/app#/operator`);
      await page.locator('table.queues').waitFor();
      // Two readings at least while shown (one on opening, the next a poll later).
      const start = Date.now();
      while (asked.length < 2 && Date.now() - start < 30_000) await page.waitForTimeout(200);
      expect(asked.length).toBeGreaterThanOrEqual(2);
      await page.goto(`${gate.url}/app#/events`);
      await page.locator('section[aria-label=Events]').waitFor();
      const left = Date.now();
      await page.waitForTimeout(5_000);
      expect(asked.filter((t) => t > left)).toEqual([]);
    } finally {
      page.off('request', listen);
    }
  });
});
