import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser, type TestBrowser } from '../harness/browser.js';
import { SHOTS, signInThroughTheBrowser } from '../harness/browser-sign-in.js';
import { addPersonWithCli } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

// A reviewer works the queue of a human-reviewed `main` in a real browser: the console lists
// what gv.review lists, a row is approved from the keyboard only after its whole masked body
// was read, and rejects, defers and comments land in the gate as the verbs record them.

const reviewer = { email: 'queue-reviewer@example.test', password: 'a reviewer password for the console' };
const readerPerson = { email: 'queue-reader@example.test', password: 'a reader password for the console' };
let browser: TestBrowser;
let context: BrowserContext;
let page: Page;

const { gate, keys: { agent }, ingestId } = useGate({
  kind: 'in-process',
  env: { GATE_SPACES_MAIN_POLICY: 'human', GATE_REVIEW_QUORUM_PROFILE: 'standard' },
  keys: { agent: 'agent' },
});
beforeAll(async () => {
  await addPersonWithCli(gate, reviewer.email, reviewer.password, 'reviewer');
  await addPersonWithCli(gate, readerPerson.email, readerPerson.password, 'reader');
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
});

let n = 0;
function ingest(content?: string, workarea = 'tests/console'): Promise<string> {
  n += 1;
  return ingestId(agent, {
    content: content ?? `Console claim ${n}-${Date.now()}: the ${['north', 'south', 'east'][n % 3]} ledger closes at ${n}:00 UTC, batch ${Math.random().toString(36).slice(2)}.`,
    workarea,
    source_uri: 'https://example.org/ledger',
  });
}
const stateOf = async (id: string) => (await gate.socket('gv.approval', { artifact_id: id })).result.state as string;
const queueIds = (p: Page) => p.locator('table.queue tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
const cursorId = (p: Page) => p.locator('tr.cursor').getAttribute('data-id');
const shot = (p: Page, name: string) => p.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

describe('the review queue in a browser', () => {
  let ids: string[];
  const longBody = `Setup notes ${Date.now()}. ${'Install the toolchain, then run the unit tests before a release. '.repeat(2_200)}\nThe end.`;

  it('signs in, lists what gv.review lists oldest first, and survives a reload', async () => {
    ids = [await ingest(longBody)];
    for (let i = 0; i < 5; i++) ids.push(await ingest());
    await signInThroughTheBrowser(page, gate.url, reviewer.email, reviewer.password);
    await page.waitForSelector('table.queue tbody tr');
    const review = await gate.socket('gv.review', { cap: 500 });
    expect(await queueIds(page)).toEqual(review.result.items.map((i: any) => i.artifact_id));
    expect(await queueIds(page)).toEqual(ids);
    const first = page.locator(`tr[data-id="${ids[0]}"]`);
    expect(await first.innerText()).toContain('human_required');
    expect(await first.innerText()).toContain('T-');
    await shot(page, 'queue');
    await page.reload();
    await page.waitForSelector('table.queue tbody tr');
    expect(await page.locator('#status').textContent()).toMatch(/^Signed in as queue-reviewer@example\.test \(.+\), role reviewer\.$/);
  });

  it('j and k move the cursor; ? lists the keys', async () => {
    expect(await cursorId(page)).toBe(ids[0]);
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    expect(await cursorId(page)).toBe(ids[2]);
    await page.keyboard.press('k');
    expect(await cursorId(page)).toBe(ids[1]);
    await page.keyboard.press('?');
    const help = page.locator('.help');
    await help.waitFor();
    for (const key of ['j', 'k', 'o', 'Enter', 'a', 'r', 'e', 'd', 'c', 'x', 'D', '?']) expect(await help.locator('kbd', { hasText: new RegExp(`^${key.replace('?', '\\?')}$`) }).count()).toBe(1);
    await shot(page, 'keys');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    await page.keyboard.press('k');
    expect(await cursorId(page)).toBe(ids[0]);
  });

  it('a opens the row; approve stays off until every page of the masked body was read to its end; a promotes it and it leaves the queue', async () => {
    await page.keyboard.press('a');
    await page.waitForSelector('.row-view pre.body');
    const approve = page.locator('button.approve');
    expect(await approve.isDisabled()).toBe(true);
    await page.keyboard.press('a');
    expect(await stateOf(ids[0]!)).not.toBe('ACTIVE');
    await page.keyboard.press('n');
    await page.waitForFunction(() => document.querySelectorAll('.row-view button').length > 0 && document.body.innerText.includes('Read 131072 of'));
    await page.keyboard.press('n');
    // Every page served is not every page seen: Approve waits until the box was scrolled to its end.
    await page.locator('.read-on').waitFor();
    expect(await approve.isDisabled()).toBe(true);
    expect(await approve.getAttribute('title')).toBe('scroll the body to its end first');
    await page.locator('.row-view pre.body').evaluate((box) => box.scrollTo({ top: box.scrollHeight }));
    await page.locator('.read-all').waitFor();
    expect(await approve.isDisabled()).toBe(false);
    expect((await page.locator('pre.body').innerText()).endsWith('The end.')).toBe(true);
    await shot(page, 'row-read');
    await page.keyboard.press('a');
    await page.waitForFunction(() => location.hash.startsWith('#/queue'));
    expect(await page.locator('#notice').textContent()).toContain('promoted');
    expect(await stateOf(ids[0]!)).toBe('ACTIVE');
    const approval = (await gate.socket('gv.approval', { artifact_id: ids[0] })).result;
    expect(approval.status).toBe('human_approved');
    // The queue is drawn again after the promotion: wait for the new rows, not only for the old
    // row to go (a loaded CI run read the table while it was empty between the two).
    await page.waitForFunction((id) => !document.querySelector(`tr[data-id="${id}"]`) && document.querySelectorAll('table.queue tbody tr').length > 0, ids[0]);
    expect(await queueIds(page)).toEqual(ids.slice(1));
  });

  it('r asks the category and rejects with it', async () => {
    expect(await cursorId(page)).toBe(ids[1]);
    await page.keyboard.press('r');
    await page.locator('form[aria-label=Reject] select').selectOption('duplicate');
    await page.fill('form[aria-label=Reject] input[name=reason]', 'said before');
    await shot(page, 'reject');
    await page.click('form[aria-label=Reject] button[type=submit]');
    await page.waitForFunction((id) => !document.querySelector(`tr[data-id="${id}"]`), ids[1]);
    expect(await stateOf(ids[1]!)).toBe('REJECTED');
    const decisions = (await gate.socket('gv.approval', { artifact_id: ids[1] })).result.decisions;
    expect(decisions).toEqual([expect.objectContaining({ decision: 'reject', category: 'duplicate', class: 'human' })]);
  });

  it('x selects rows and D defers them in bulk; they leave the queue', async () => {
    expect(await cursorId(page)).toBe(ids[2]);
    await page.keyboard.press('x');
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    expect(await page.locator('tr.selected').count()).toBe(2);
    await page.keyboard.press('D');
    await page.waitForFunction((gone) => gone.every((id) => !document.querySelector(`tr[data-id="${id}"]`)), [ids[2], ids[3]]);
    expect(await queueIds(page)).toEqual(ids.slice(4));
    expect(await page.locator('h2 small').textContent()).toContain('2 deferred');
    await shot(page, 'bulk-defer');
  });

  it('a row written meanwhile appears by itself, and the cursor stays on its row', async () => {
    await page.keyboard.press('j');
    expect(await cursorId(page)).toBe(ids[5]);
    const late = await ingest();
    await page.waitForSelector(`tr[data-id="${late}"]`, { timeout: 15_000 });
    expect(await cursorId(page)).toBe(ids[5]);
    await shot(page, 'queue-live');
  });

  it('filters narrow the queue and stay in the address', async () => {
    const elsewhere = await ingest(undefined, 'other/place');
    await page.waitForSelector(`tr[data-id="${elsewhere}"]`, { timeout: 15_000 });
    await page.fill('input[name=workarea]', 'other');
    await page.waitForFunction(() => document.querySelectorAll('table.queue tbody tr').length === 1);
    expect(await queueIds(page)).toEqual([elsewhere]);
    expect(page.url()).toContain('workarea=other');
    await page.reload();
    await page.waitForSelector('table.queue tbody tr');
    expect(await queueIds(page)).toEqual([elsewhere]);
    await shot(page, 'queue-filtered');
    await page.fill('input[name=workarea]', '');
  });

  it('c on a row posts a comment; the row view shows it and retracts it', async () => {
    const id = ids[4]!;
    await page.goto(`${gate.url}/app#/row/${id}`);
    await page.waitForSelector('.row-view');
    await page.keyboard.press('c');
    await page.fill('form[aria-label=Comment] textarea', 'Which ledger is this?');
    await page.click('form[aria-label=Comment] button[type=submit]');
    await page.locator('.thread li', { hasText: 'Which ledger is this?' }).waitFor();
    const listed = (await gate.socket('gv.comments', { artifact_id: id })).result.comments;
    expect(listed).toHaveLength(1);
    expect(listed[0].body).toBe('Which ledger is this?');
    await shot(page, 'comment');
    await page.locator('.thread li button', { hasText: 'retract' }).click();
    await page.locator('.thread li').waitFor({ state: 'detached' });
    expect((await gate.socket('gv.comments', { artifact_id: id })).result.comments).toHaveLength(0);
  });

  it('sign-out returns to the sign-in', async () => {
    await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === '/oauth/logout'), page.click('#sign-out')]);
    expect(await page.locator('#status').textContent()).toBe('Not signed in.');
    expect(await page.locator('table.queue').count()).toBe(0);
    await shot(page, 'signed-out');
  });
});

describe('below reviewer', () => {
  it('a reader sees no review screens, only what they may read', async () => {
    const readerContext = await browser.newContext();
    const p = await readerContext.newPage();
    await signInThroughTheBrowser(p, gate.url, readerPerson.email, readerPerson.password, '#/queue');
    await p.locator('section[aria-label="My rows"]').waitFor();
    // A person who signs in with the gate's own password changes it here, whatever their role.
    expect(await p.locator('nav a').allTextContents()).toEqual(['My rows', 'Search', 'Events', 'Password']);
    expect(await p.locator('table.queue button, button.approve, section[aria-label="Review queue"]').count()).toBe(0);
    await shot(p, 'reader');
    await readerContext.close();
  });
});
