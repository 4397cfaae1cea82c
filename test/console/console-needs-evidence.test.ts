import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestBrowser } from '../harness/browser.js';
import { SHOTS, personInConsole } from '../harness/browser-sign-in.js';
import { sha256Of, upload } from '../harness/attachments.js';
import { useGate } from '../harness/use-gate.js';

// A person sends a row back for evidence from the console, in a real browser: the form asks
// what is missing, the row and the queue show NEEDS_EVIDENCE and the words; the writer (an
// agent key) attaches the evidence, the console follows the row back into review, and the
// person reads the evidence and approves it.

const reviewer = { email: 'evidence-reviewer@example.test', password: 'a reviewer password for the evidence test' };
const ASKS = 'Attach the ledger export the totals come from.';
let browser: TestBrowser;
let page: Page;

const { gate, keys: { agent }, ingestId } = useGate({
  kind: 'in-process',
  env: { GATE_SPACES_MAIN_POLICY: 'human', GATE_REVIEW_QUORUM_PROFILE: 'standard' },
  keys: { agent: 'agent' },
});
beforeAll(async () => {
  ({ browser, page } = await personInConsole(gate, reviewer, 'reviewer', 1400));
});
afterAll(async () => {
  await browser?.close();
});

const stateOf = async (id: string) => (await gate.socket('gv.approval', { artifact_id: id })).result.state as string;
const shot = (p: Page, name: string) => p.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

describe('needs evidence in the console', () => {
  let id: string;

  it('v on a row asks what is missing and sends the row back; the row shows the state and the words', async () => {
    id = await ingestId(agent, { content: `Ledger totals ${Date.now()}: the east ledger closed at 4,210 units.`, workarea: 'tests/evidence', source_uri: 'https://example.org/ledger' });
    await page.goto(`${gate.url}/app#/row/${encodeURIComponent(id)}`);
    await page.locator('button.needs-evidence').waitFor();
    await page.keyboard.press('v');
    const form = page.locator('form[aria-label="Needs evidence"]');
    await form.waitFor();
    // No words, nothing to send: the writer must be told what is missing.
    expect(await form.locator('button[type=submit]').isDisabled()).toBe(true);
    await form.locator('input[name=reason]').fill(ASKS);
    await shot(page, 'needs-evidence-form');
    await form.locator('button[type=submit]').click();
    await page.waitForFunction(() => document.querySelector('.row-view h2 .state')?.textContent === 'NEEDS_EVIDENCE');
    expect(await stateOf(id)).toBe('NEEDS_EVIDENCE');
    const request = page.locator('ol.evidence li');
    expect(await request.locator('q.asks').innerText()).toBe(ASKS);
    expect(await request.innerText()).toContain('waiting for its writer');
    expect(await page.locator('.waits').innerText()).toContain('needs_evidence');
    // Sent back, it is not sent back again.
    expect(await page.locator('button.needs-evidence').count()).toBe(0);
    const ratify = (await gate.socket('gv.why', { artifact_id: id })).result.events.at(-1);
    expect(ratify).toMatchObject({ type: 'ratify', leaves: 'L1_SCANNED', enters: 'NEEDS_EVIDENCE', signer_class: 'human' });
    await shot(page, 'needs-evidence-row');
  });

  it('the queue shows the state and the words, and filters by state', async () => {
    await page.goto(`${gate.url}/app#/queue`);
    const row = page.locator(`tr[data-id="${id}"]`);
    await row.waitFor();
    expect(await row.innerText()).toContain('NEEDS_EVIDENCE');
    expect(await row.locator('.asks').innerText()).toBe(`evidence asked: ${ASKS}`);
    await page.locator('select[name=state]').selectOption('NEEDS_EVIDENCE');
    await page.waitForFunction(() => document.querySelectorAll('table.queue tbody tr').length === 1);
    expect(page.url()).toContain('state=NEEDS_EVIDENCE');
    await shot(page, 'needs-evidence-queue');
    await page.locator('select[name=state]').selectOption('');
  });

  it('v in the queue sends the row under the cursor back too', async () => {
    const other = await ingestId(agent, { content: `Ledger totals ${Date.now()}: the west ledger closed at 977 units.`, workarea: 'tests/evidence', source_uri: 'https://example.org/ledger' });
    const row = page.locator(`tr[data-id="${other}"]`);
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    await page.waitForFunction((rowId) => document.querySelector('tr.cursor')?.getAttribute('data-id') === rowId, other);
    await page.keyboard.press('v');
    await page.locator('form[aria-label="Needs evidence"] input[name=reason]').fill('Which export?');
    await page.keyboard.press('Enter');
    await page.waitForFunction((rowId) => document.querySelector(`tr[data-id="${rowId}"] .asks`)?.textContent === 'evidence asked: Which export?', other);
    expect(await stateOf(other)).toBe('NEEDS_EVIDENCE');
  });

  it("the writer's evidence returns the row to review by itself; the person reads it and approves", async () => {
    const bytes = Buffer.from(`ledger export ${Date.now()}\neast,4210\n`);
    expect((await upload(gate, agent.key, bytes)).error).toBeUndefined();
    const added = await gate.rpc(agent.key, 'gv.add_evidence', { artifact_id: id, attachments: [{ sha256: sha256Of(bytes), name: 'ledger.csv' }] });
    expect(added.result?.state, JSON.stringify(added)).toBe('L1_SCANNED');
    // The queue follows the journal: the row is back in review, its request answered.
    const row = page.locator(`tr[data-id="${id}"]`);
    await page.waitForFunction((rowId) => {
      const text = document.querySelector(`tr[data-id="${rowId}"]`)?.textContent ?? '';
      return text.includes('L1_SCANNED') && text.includes('evidence added for');
    }, id, { timeout: 15_000 });
    expect(await row.locator('.asks').innerText()).toBe(`evidence added for: ${ASKS}`);

    await page.goto(`${gate.url}/app#/row/${encodeURIComponent(id)}`);
    await page.waitForFunction(() => document.querySelector('.row-view h2 .state')?.textContent === 'L1_SCANNED');
    expect(await page.locator('ol.evidence li .answered').innerText()).toBe('answered with ledger.csv');
    // The evidence is one of the row's attachments: approve waits until it was read.
    await page.locator('.attachments li button', { hasText: 'Read' }).waitFor();
    expect(await page.locator('button.approve').isDisabled()).toBe(true);
    await page.locator('.attachments li button', { hasText: 'Read' }).click();
    await page.locator('.attachment-text').waitFor();
    expect(await page.locator('.attachment-text').innerText()).toContain('east,4210');
    await page.waitForFunction(() => !(document.querySelector('button.approve') as HTMLButtonElement | null)?.disabled);
    await shot(page, 'needs-evidence-returned');
    await page.click('button.approve');
    await page.waitForFunction(() => location.hash.startsWith('#/queue'));
    expect(await stateOf(id)).toBe('ACTIVE');
  });

  it('the request is among my recent decisions, said as "asked for evidence", its type kept as ratify', async () => {
    await page.goto(`${gate.url}/app#/events`);
    const mine = page.locator('table[aria-label="My recent decisions"]');
    const asked = mine.locator(`tr[data-type=ratify]:has(a[href="#/row/${encodeURIComponent(id)}"])`);
    await asked.waitFor({ timeout: 10_000 });
    expect(await asked.locator('td.what').innerText()).toBe('asked for evidence (ratify)');
    expect(await asked.innerText()).toContain('L1_SCANNED → NEEDS_EVIDENCE');
    // The approval after the evidence is there too, in words.
    expect(await mine.locator(`tr[data-type=manual-sign]:has(a[href="#/row/${encodeURIComponent(id)}"]) td.what`).innerText()).toBe('approved (manual-sign)');
    await shot(page, 'needs-evidence-decisions');
    // The row's own history says it too, beside the type.
    await page.goto(`${gate.url}/app#/row/${encodeURIComponent(id)}`);
    const ratify = page.locator('li[data-event]', { has: page.locator('.type', { hasText: /^ratify$/ }) });
    await ratify.first().waitFor({ timeout: 10_000 });
    expect(await ratify.first().locator('.what').innerText()).toBe('(asked for evidence)');
  });
});
