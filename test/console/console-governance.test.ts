import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestBrowser } from '../harness/browser.js';
import { SHOTS, personInConsole } from '../harness/browser-sign-in.js';
import { useGate } from '../harness/use-gate.js';

// The console's questions and bans screens against a real gate, in Chromium.

const admin = { email: 'console-gov@example.test', password: 'an admin password for governance' };
let browser: TestBrowser;
let page: Page;

const { gate, keys: { asker, reviewer } } = useGate({ kind: 'in-process', keys: { asker: 'agent', reviewer: 'reviewer' } });
beforeAll(async () => {
  ({ browser, page } = await personInConsole(gate, admin, 'admin'));
});
afterAll(async () => {
  await browser?.close();
});

const shot = (p: Page, name: string) => p.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
async function askPromoted(text: string, names?: string[]): Promise<string> {
  const r = await gate.rpc(asker.key, 'gv.ingest', {
    content: JSON.stringify({ format: 'question/1', question: text }),
    workarea: 'tests/console-questions',
    kind: 'question',
    source_uri: 'test://console',
    addressed_to: { kinds: ['person'], ...(names === undefined ? {} : { names }) },
  });
  expect(r.error, JSON.stringify(r.error)).toBeUndefined();
  const id = r.result.artifact_id as string;
  await gate.readBody(reviewer.key, id);
  expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id })).result.state).toBe('ACTIVE');
  return id;
}

describe('questions', () => {
  it('lists the questions waiting for people, those naming you first, and answers one', async () => {
    const other = await askPromoted(`Which crane is free on Tuesday ${Date.now()}?`);
    const mine = await askPromoted(`Do we renew the harbour permit ${Date.now()}?`, ['console-gov']);
    await page.goto(`${gate.url}/app#/questions`);
    await page.locator('section[aria-label=Questions] ol.questions li').first().waitFor();
    const order = await page.locator('ol.questions li').evaluateAll((items) => items.map((li) => li.getAttribute('data-question')));
    expect(order.indexOf(mine)).toBe(0);
    expect(order).toContain(other);
    const first = page.locator('ol.questions li').first();
    expect(await first.locator('.tag').innerText()).toBe('for you');
    expect(await first.locator('.question-text').innerText()).toContain('harbour permit');
    await first.locator('textarea[name=answer]').fill('Yes, renew it for two years.');
    await first.getByRole('button', { name: 'Answer' }).click();
    await page.waitForFunction(() => document.querySelector('#notice')?.textContent?.includes('is held until a reviewer promotes it') === true);
    // The answer is an answer/1 row naming the question, written by the signed-in person.
    const cited = (await gate.socket('gv.graph', { kinds: ['question'] })).result.nodes.find((n: any) => n.artifact_id === mine).cited_by;
    expect(cited).toEqual([expect.objectContaining({ kind: 'answer', writer_kind: 'person', state: 'L1_SCANNED' })]);
    // Answered, the question shows the answer that stands instead of an empty box (the gate
    // would refuse a second one), and still does after a reload, read back from the gate.
    const answered = page.locator(`ol.questions li[data-question="${mine}"]`);
    const answer = cited[0].artifact_id as string;
    for (const reload of [false, true]) {
      if (reload) {
        await page.reload();
        await answered.waitFor();
      }
      await answered.locator('.your-answer').waitFor();
      expect(await answered.locator('textarea[name=answer]').count()).toBe(0);
      expect(await answered.locator('.your-answer .answer-text').innerText()).toBe('Yes, renew it for two years.');
      expect(await answered.locator('.your-answer a').getAttribute('href')).toBe(`#/row/${encodeURIComponent(answer)}`);
      expect(await answered.locator('.your-answer').innerText()).toContain('held until a reviewer promotes it');
    }
    // The question nobody here answered still has its box.
    expect(await page.locator(`ol.questions li[data-question="${other}"] textarea[name=answer]`).count()).toBe(1);
    await shot(page, 'questions');
  });
});

describe('bans', () => {
  it('a dry run says what a ban would stop; a ban stands, refuses the writer, counts it; a lift ends it', async () => {
    const writer = await gate.key('agent');
    await gate.rpc(writer.key, 'gv.ingest', { content: `Held before the ban ${Date.now()}.`, workarea: 'tests/console-bans', kind: 'memory', source_uri: 'test://ban' });
    await page.goto(`${gate.url}/app#/bans`);
    await page.locator('section[aria-label=Bans] form[aria-label=Ban]').waitFor();
    await page.fill('form[aria-label=Ban] input[name=subject]', writer.identity);
    await page.click('#ban-dry-run');
    await page.locator('.dry-run').waitFor();
    expect(await page.locator('.dry-run').innerText()).toContain('0 promoted and 1 held rows');
    await page.fill('form[aria-label=Ban] input[name=reason]', 'flooding the queue');
    await page.click('#ban-now');
    const row = page.locator(`table.bans tr[data-subject="${writer.identity}"]`);
    await row.waitFor();
    expect(await row.innerText()).toContain('flooding the queue');
    const refused = await gate.rpc(writer.key, 'gv.ingest', { content: `After the ban ${Date.now()}.`, workarea: 'tests/console-bans', kind: 'memory', source_uri: 'test://ban' });
    expect(refused.error?.code).toBe(-32009);
    await page.reload();
    await page.locator(`table.refused tr[data-writer="${writer.identity}"]`).waitFor();
    expect(await page.locator(`table.refused tr[data-writer="${writer.identity}"] td`).nth(1).innerText()).toBe('1');
    await shot(page, 'bans');
    await row.getByRole('button', { name: 'Lift' }).click();
    await page.waitForFunction(() => document.querySelector('#notice')?.textContent?.startsWith('Lifted the ban') === true);
    await page.locator(`table.bans tr[data-subject="${writer.identity}"]`).waitFor({ state: 'detached' });
    expect((await gate.rpc(writer.key, 'gv.ingest', { content: `After the lift ${Date.now()}.`, workarea: 'tests/console-bans', kind: 'memory', source_uri: 'test://ban' })).error).toBeUndefined();
  });
});
