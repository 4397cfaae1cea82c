import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type TestBrowser } from '../harness/browser.js';
import { SHOTS, signInThroughTheBrowser } from '../harness/browser-sign-in.js';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { sha256Of, upload } from '../harness/attachments.js';
import { addPersonWithCli, signIn, type SignedInPerson } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

// The console's other screens against a real gate: the events tail, the operator's desk,
// the admin's keys and people, search, and the diff of a superseding row.

const admin = { email: 'console-admin@example.test', password: 'an admin password for the console' };
let browser: TestBrowser;
let page: Page;
let signer: SignedInPerson;

const { gate, keys: { agent }, ingestId } = useGate({
  kind: 'in-process',
  env: { GATE_SPACES_MAIN_POLICY: 'human', GATE_REVIEW_QUORUM_PROFILE: 'standard' },
  keys: { agent: 'agent' },
});
beforeAll(async () => {
  await addPersonWithCli(gate, admin.email, admin.password, 'admin');
  signer = await signIn(gate, { role: 'reviewer' });
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1300, height: 900 } })).newPage();
  await signInThroughTheBrowser(page, gate.url, admin.email, admin.password);
});
afterAll(async () => {
  await browser?.close();
});

const ingest = (content: string, by = agent.key) => ingestId(by, { content, workarea: 'tests/screens', source_uri: 'https://example.org/screens' });
async function promote(id: string): Promise<void> {
  await gate.readBody(signer.accessToken, id);
  const r = await gate.rpc(signer.accessToken, 'gv.sign', { artifact_id: id, decision: 'approve', promote: true });
  expect(r.result?.state, JSON.stringify(r)).toBe('ACTIVE');
}
const shot = (p: Page, name: string) => p.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

describe('events', () => {
  it('tails gv.events live, each event linking to its row, and filters by type', async () => {
    await page.goto(`${gate.url}/app#/events`);
    await page.locator('section[aria-label=Events]').waitFor();
    // The tail starts at the tip: let its first poll settle before writing.
    await page.waitForTimeout(500);
    const id = await ingest(`An event tail claim ${Date.now()}: the west gate opens at dawn.`);
    await page.locator(`tr[data-type=scan] a[href="#/row/${encodeURIComponent(id)}"]`).waitFor({ timeout: 15_000 });
    expect(await page.locator(`tr[data-type=ingest] a[href="#/row/${encodeURIComponent(id)}"]`).count()).toBe(1);
    await page.fill('input[name=type]', 'promote');
    await page.press('input[name=type]', 'Enter');
    expect(page.url()).toContain('type=promote');
    await page.waitForTimeout(500);
    await promote(id);
    await ingest(`Another claim ${Date.now()}: the east gate closes at dusk.`);
    await page.locator(`tr[data-type=promote] a[href="#/row/${encodeURIComponent(id)}"]`).waitFor({ timeout: 15_000 });
    await page.waitForTimeout(3500);
    expect(await page.locator('table.events tr').evaluateAll((rows) => [...new Set(rows.map((r) => r.getAttribute('data-type')))])).toEqual(['promote']);
    await shot(page, 'events');
  });
});

describe('operator', () => {
  it('grade now runs gv.grade_pending and says what it did; away and back', async () => {
    await ingest(`A claim to grade ${Date.now()}: the north gate is painted blue.`);
    await page.goto(`${gate.url}/app#/operator`);
    await page.locator('#grade-now').waitFor();
    expect(await page.locator('.depth').innerText()).toMatch(/waiting for review in all/);
    await page.click('#grade-now');
    await page.waitForFunction(() => document.querySelector('#notice')?.textContent?.startsWith('Graded') === true, null, { timeout: 60_000 });
    await page.locator('table.runs tr').first().waitFor();
    await page.getByRole('button', { name: 'I am away' }).click();
    await page.waitForFunction(() => document.querySelector('#notice')?.textContent?.startsWith('Away since') === true);
    expect((await gate.socket('gv.ping')).error).toBeUndefined();
    await page.getByRole('button', { name: 'I am back' }).click();
    await page.waitForFunction(() => document.querySelector('#notice')?.textContent?.startsWith('Back') === true);
    await shot(page, 'operator');
  });

  it('grade now takes the number of rows it may grade at most', async () => {
    for (let i = 0; i < 3; i++) await ingest(`A claim to grade in a short run ${i} ${Date.now()}: the east gate is painted ${['red', 'green', 'grey'][i]}.`);
    await page.goto(`${gate.url}/app#/operator`);
    const limit = page.locator('form[aria-label="Grade now"] input[name=grade-limit]');
    await limit.waitFor();
    expect(await limit.inputValue()).toBe('50');
    await limit.fill('2');
    const asked = page.waitForRequest((r) => r.url().endsWith('/rpc') && r.postDataJSON()?.method === 'gv.grade_pending');
    await page.click('#grade-now');
    expect((await asked).postDataJSON().params).toEqual({ limit: 2 });
    await page.waitForFunction(() => document.querySelector('#notice')?.textContent?.startsWith('Graded 2, failed 0, blocked 0') === true, null, { timeout: 60_000 });
    await limit.fill('50');
    await page.click('#grade-now');
    await page.waitForFunction(() => document.querySelector('#notice')?.textContent?.startsWith('Graded 1, failed 0, blocked 0') === true, null, { timeout: 60_000 });
    // Outside the verb's bounds the form does not send.
    let sent = 0;
    page.on('request', (r) => void (r.url().endsWith('/rpc') && r.postDataJSON()?.method === 'gv.grade_pending' && sent++));
    await limit.fill('0');
    await page.click('#grade-now');
    expect(await limit.evaluate((i: HTMLInputElement) => i.validity.rangeUnderflow)).toBe(true);
    await page.waitForTimeout(300);
    expect(sent).toBe(0);
    await shot(page, 'grade-limit');
  });
});

describe('admin', () => {
  it('issues a key shown once with a warning, lists and revokes it; lists people', async () => {
    await page.goto(`${gate.url}/app#/admin`);
    await page.locator('section[aria-label=Admin]').waitFor();
    await page.fill('form[aria-label="Issue a key"] input[name=label]', 'console test key');
    await page.click('form[aria-label="Issue a key"] button[type=submit]');
    const raw = (await page.locator('#new-key').textContent())!;
    expect(await page.locator('.issued').innerText()).toContain('shown once');
    expect((await gate.rpc(raw, 'gv.describe')).result.you.role).toBe('agent');
    const keyId = (await gate.socket('gv.keys')).result.keys.find((k: any) => k.label === 'console test key').key_id;
    await shot(page, 'admin');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    expect(await page.locator('#new-key').count()).toBe(0);
    await page.locator(`tr[data-key="${keyId}"] button`, { hasText: 'Revoke' }).click();
    await page.locator(`tr[data-key="${keyId}"]`, { hasText: 'revoked' }).waitFor();
    expect((await gate.rpc(raw, 'gv.describe')).error).toBeDefined();
    expect(await page.locator('table.people').innerText()).toContain(admin.email);
  });
});

describe('a row with an attachment', () => {
  it('approve waits until the attachment was read to its end, shown as text; then it promotes', async () => {
    const bytes = Buffer.from(`Shelf list ${Date.now()}\nshelf four: ledgers\nshelf nine: maps\n`);
    expect((await upload(gate, agent.key, bytes)).error).toBeUndefined();
    const r = await gate.rpc(agent.key, 'gv.ingest', {
      content: `The shelf list is attached ${Date.now()}.`,
      workarea: 'tests/screens',
      kind: 'memory',
      source_uri: 'https://example.org/shelves',
      attachments: [{ sha256: sha256Of(bytes), name: 'shelves.txt' }],
    });
    expect(r.error, JSON.stringify(r.error)).toBeUndefined();
    const id = r.result.artifact_id as string;
    await page.goto(`${gate.url}/app#/row/${encodeURIComponent(id)}`);
    await page.locator('.attachments li button', { hasText: 'Read' }).waitFor();
    expect(await page.locator('.read-all').innerText()).toContain('Read the attachments too');
    expect(await page.locator('button.approve').isDisabled()).toBe(true);
    await page.locator('.attachments li button', { hasText: 'Read' }).click();
    await page.locator('.attachment-text').waitFor();
    expect(await page.locator('.attachment-text').innerText()).toContain('shelf nine: maps');
    expect(await page.locator('button.approve').isDisabled()).toBe(false);
    await shot(page, 'attachment');
    await page.click('button.approve');
    await page.waitForFunction(() => location.hash.startsWith('#/queue'));
    expect((await gate.socket('gv.approval', { artifact_id: id })).result.state).toBe('ACTIVE');
  });
});

describe('a row with an image attachment', () => {
  it('shows the served image inline once read page by page to its end; approve waits for it, then promotes', async () => {
    // Noise does not compress: a 520x520 PNG is over one attachment page (524,288 bytes), so it is read in pages.
    const side = 520;
    const png = await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).png().toBuffer();
    expect(png.length).toBeGreaterThan(524_288);
    expect((await upload(gate, agent.key, png)).error).toBeUndefined();
    const r = await gate.rpc(agent.key, 'gv.ingest', {
      content: `The floor plan is attached ${Date.now()}.`,
      workarea: 'tests/screens',
      kind: 'memory',
      source_uri: 'https://example.org/plans',
      attachments: [{ sha256: sha256Of(png), name: 'plan.png' }],
    });
    expect(r.error, JSON.stringify(r.error)).toBeUndefined();
    const id = r.result.artifact_id as string;
    await page.goto(`${gate.url}/app#/row/${encodeURIComponent(id)}`);
    const read = page.locator('.attachments li button', { hasText: 'Read' });
    await read.waitFor();
    expect(await page.locator('button.approve').isDisabled()).toBe(true);
    const offsets: number[] = [];
    page.on('request', (req) => {
      const asked = req.url().endsWith('/rpc') ? req.postDataJSON() : null;
      if (asked?.method === 'gv.attachment') offsets.push(asked.params.offset);
    });
    await read.click();
    const img = page.locator('.attachments img');
    await img.waitFor();
    await page.waitForFunction(() => (document.querySelector('.attachments img') as HTMLImageElement | null)?.naturalWidth === 520);
    expect(await img.evaluate((i: HTMLImageElement) => [i.naturalWidth, i.naturalHeight, i.src.startsWith('data:image/png;base64,')])).toEqual([520, 520, true]);
    // The served copy (re-encoded, metadata stripped) was asked for page after page, in order, to its end.
    const said = await page.locator('.attachments li .hint').innerText();
    expect(said).toMatch(/^image\/png, \d+ bytes, read to its end$/);
    const servedSize = Number(/(\d+) bytes/.exec(said)![1]);
    expect(servedSize).toBeGreaterThan(524_288);
    expect(offsets).toEqual(Array.from({ length: Math.ceil(servedSize / 524_288) }, (_, i) => i * 524_288));
    expect(await page.locator('button.approve').isDisabled()).toBe(false);
    await shot(page, 'attachment-image');
    await page.click('button.approve');
    await page.waitForFunction(() => location.hash.startsWith('#/queue'));
    expect((await gate.socket('gv.approval', { artifact_id: id })).result.state).toBe('ACTIVE');
  });
});

describe('comments for people only', () => {
  it('a note kept to people is read by signed-in people and by no agent; other kinds go to everyone', async () => {
    const id = await ingest(`A row to talk about ${Date.now()}: the west stair is closed for repairs.`);
    await page.goto(`${gate.url}/app#/row/${encodeURIComponent(id)}`);
    const form = page.locator('form[aria-label=Comment]');
    await form.waitFor();
    await form.locator('select[name=kind]').selectOption('question');
    expect(await form.locator('select[name=audience]').isDisabled()).toBe(true);
    await form.locator('select[name=kind]').selectOption('note');
    await form.locator('select[name=audience]').selectOption('people');
    await form.locator('textarea').fill('Ask facilities before promoting this.');
    await form.locator('button[type=submit]').click();
    await page.locator('.thread li', { hasText: 'Ask facilities before promoting this.' }).locator('.audience').waitFor();
    expect(await page.locator('#notice').textContent()).toBe('Comment posted for people only.');
    const read = async (key: string) => (await gate.rpc(key, 'gv.comments', { artifact_id: id })).result.comments.map((c: any) => [c.body, c.audience]);
    expect(await read(signer.accessToken)).toEqual([['Ask facilities before promoting this.', 'people']]);
    expect(await read(agent.key)).toEqual([]);
    await shot(page, 'comment-people');
    await form.locator('select[name=kind]').selectOption('question');
    await form.locator('textarea').fill('Which stair is meant?');
    await form.locator('button[type=submit]').click();
    await page.locator('.thread li', { hasText: 'Which stair is meant?' }).waitFor();
    expect(await read(agent.key)).toEqual([['Which stair is meant?', 'all']]);
  });
});

describe('search and supersession', () => {
  it('a superseding row shows side by side against its parent', async () => {
    const stamp = Date.now();
    const parent = await ingest(`Gate hours ${stamp}\nThe south gate opens at 06:00.\nIt closes at 22:00.`);
    await promote(parent);
    const child = await ingest(`Gate hours ${stamp}\nThe south gate opens at 07:00.\nIt closes at 22:00.`);
    // A held row supersedes through a replacement group (gv.relate takes only ACTIVE children).
    const proposed = await gate.rpc(signer.accessToken, 'gv.replacement_propose', { operation: 'supersede', parent_ids: [parent], child_ids: [child], reason: 'new opening time' });
    expect(proposed.error, JSON.stringify(proposed.error)).toBeUndefined();
    await page.goto(`${gate.url}/app#/row/${encodeURIComponent(child)}`);
    const diff = page.locator('table.diff');
    await diff.waitFor();
    expect(await diff.locator('tr.changed').count()).toBe(1);
    expect(await diff.locator('tr.changed td').allTextContents()).toEqual(['The south gate opens at 06:00.', 'The south gate opens at 07:00.']);
    expect(await diff.locator('tr.same').count()).toBe(2);
    await shot(page, 'diff');
  });

  it('hides a promoted row from readers and lifts the hide', async () => {
    const id = await ingest(`A row to hide ${Date.now()}: the old gate code was 1234.`);
    await promote(id);
    await page.goto(`${gate.url}/app#/row/${encodeURIComponent(id)}`);
    await page.locator('details.row-tools summary').click();
    await page.fill('input[name=hide-reason]', 'outdated');
    await page.click('form[aria-label=Hide] button[type=submit]');
    await page.waitForFunction(() => document.querySelector('#notice')?.textContent === 'Hidden from readers.');
    const hides = async () => (await gate.socket('gv.events', { types: ['hide'], limit: 1000 })).result.events.filter((e: any) => e.artifact_id === id);
    expect(await hides()).toHaveLength(1);
    await shot(page, 'hide');
    await page.getByRole('button', { name: 'Lift a hide' }).click();
    await page.waitForFunction(() => document.querySelector('#notice')?.textContent === 'Hide lifted.');
    expect(await hides()).toHaveLength(2);
  });

  it('hides a promoted row from one audience and lifts that hide; recall for that audience follows', async () => {
    const word = `wombat${Date.now().toString(36)}`;
    const id = await ingest(`The ${word} register lists the gate keepers of the north wing.`);
    await promote(id);
    const recalled = async (audience?: string) =>
      (await gate.socket('gv.recall', { query: word, mode: 'lexical', ...(audience ? { audience } : {}) })).result.hits.map((h: any) => h.artifact_id);
    expect(await recalled('auditors')).toEqual([id]);
    await page.goto(`${gate.url}/app#/row/${encodeURIComponent(id)}`);
    await page.locator('details.row-tools summary').click();
    expect(await page.locator('input[name=hide-audience]').inputValue()).toBe('all');
    await page.fill('input[name=hide-audience]', 'auditors');
    await page.fill('input[name=hide-reason]', 'not for the audit yet');
    await page.click('form[aria-label=Hide] button[type=submit]');
    await page.waitForFunction(() => document.querySelector('#notice')?.textContent === 'Hidden from the audience auditors.');
    const hides = async () => (await gate.socket('gv.events', { types: ['hide'], limit: 1000 })).result.events.filter((e: any) => e.artifact_id === id);
    expect(await hides()).toEqual([expect.objectContaining({ audience: 'auditors' })]);
    expect(await recalled('auditors')).toEqual([]);
    expect(await recalled()).toEqual([id]);
    await shot(page, 'hide-audience');
    await page.getByRole('button', { name: 'Lift a hide' }).click();
    await page.waitForFunction(() => document.querySelector('#notice')?.textContent === 'Hide lifted for the audience auditors.');
    expect((await hides()).map((e: any) => [e.audience, e.lift ?? false])).toEqual([
      ['auditors', false],
      ['auditors', true],
    ]);
    expect(await recalled('auditors')).toEqual([id]);
  });

  it('recall finds promoted rows and marks the caller\'s own held rows', async () => {
    const writer = await signIn(gate, { role: 'agent' });
    const word = `quokka${Date.now().toString(36)}`;
    const promoted = await ingest(`The ${word} ledger is kept in the archive room, shelf four.`);
    await promote(promoted);
    const held = await ingest(`The ${word} ledger moved to shelf nine last week.`, writer.accessToken);
    const ctx = await browser.newContext();
    const p = await ctx.newPage();
    await signInThroughTheBrowser(p, gate.url, writer.email, writer.password, '#/search');
    await p.fill('input[name=q]', word);
    await p.selectOption('select[name=mode]', 'lexical');
    await p.click('form[role=search] button[type=submit]');
    await p.locator(`.hits li[data-id="${held}"]`).waitFor();
    expect(await p.locator(`.hits li[data-id="${held}"] .held-tag`).count()).toBe(1);
    expect(await p.locator(`.hits li[data-id="${promoted}"]`).count()).toBe(1);
    expect(await p.locator(`.hits li[data-id="${promoted}"] .held-tag`).count()).toBe(0);
    expect(p.url()).toContain('mode=lexical');
    // The search opens on every space the person can read, and says so in English.
    expect(p.url()).toContain('scope=all');
    expect(await p.locator('section[aria-label=Search] p.answered').innerText()).toBe('2 hits, answered by lexical search across every space you can read.');
    // A promotion this gate made alone is provisional: the hit says it is not countersigned.
    expect(await p.locator(`.hits li[data-id="${promoted}"] .provisional-tag`).innerText()).toBe('provisional: not countersigned');
    await p.goto(`${gate.url}/app#/row/${encodeURIComponent(promoted)}`);
    await p.waitForFunction(() => document.querySelector('.row-view h2 .state')?.textContent === 'ACTIVE');
    expect(await p.locator('.row-view h2 .provisional-tag').innerText()).toBe('provisional: not countersigned');
    await p.goBack();
    await p.locator(`.hits li[data-id="${held}"]`).waitFor();
    await shot(p, 'search');
    await ctx.close();
  });
});
