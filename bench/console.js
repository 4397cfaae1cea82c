#!/usr/bin/env node
// What the console costs a person: the bundle's size, the time to its first interactive
// screen, and the time to show a review queue of 500 rows, in Debian's Chromium against a
// gate on loopback, beside the floor of the gv.review call that queue is read from.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_MISSING } from '../test/harness/ensure-chromium.mjs';
import { BENCH_DIR, HttpClient, REPO_ROOT, SocketClient, fmtMs, machine, parseOptions, percentiles, printTable, recordedOptions, round, startGate, tempDir } from './lib.js';

const USAGE = `
node bench/console.js [options]

Reads dist/app/size.json (written by the build) for the bundle's gzipped size. Starts a gate
that is its own sign-in provider with main human-reviewed, adds a reviewer, and has an
agent key write --rows rows. In headless Chromium: --runs times a fresh page's first
interactive screen (navigation start to the Sign in button shown), then signs in and
--runs times a reload until the queue shows every row (navigation start to the last row
drawn: refresh grant, gv.describe, gv.review and the render). The floor is gv.review
{cap: 500} called from Node over the same HTTP, as the signed-in reviewer.

Writes bench/results/console.json.`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    rows: { type: 'number', default: 500, help: 'rows waiting in the queue (gv.review serves at most 500)' },
    runs: { type: 'number', default: 7, help: 'timed page loads of each kind' },
    out: { type: 'string', default: join(BENCH_DIR, 'results', 'console.json'), help: 'results file ("" for none)' },
  },
  USAGE,
);
const log = (s) => process.stdout.write(`${s}\n`);

const size = JSON.parse(readFileSync(join(REPO_ROOT, 'dist', 'app', 'size.json'), 'utf8'));
if (!existsSync(CHROMIUM)) {
  process.stderr.write(`${CHROMIUM_MISSING}\n`);
  process.exit(2);
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

const port = await freePort();
const gate = await startGate({
  home: tempDir('gate-bench-console-'),
  port,
  removeHome: true,
  env: { GATE_AUTH_ISSUER: `http://127.0.0.1:${port}`, GATE_SPACES_MAIN_POLICY: 'human', GATE_REVIEW_QUORUM_PROFILE: 'standard' },
});
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
try {
  const socket = await SocketClient.open(gate.socketPath);
  const http = new HttpClient(gate.url, { maxSockets: 8 });
  const email = 'bench-reviewer@example.test';
  const password = 'a bench reviewer password';
  await socket.call('gv.person_add', { email, password, role: 'reviewer' });
  const agent = (await socket.call('gv.keys', { action: 'issue', role: 'agent', label: 'bench console' })).key;
  for (let i = 0; i < opts.rows; i++) {
    const r = await http.send(agent, 'gv.ingest', {
      content: `Bench console claim ${i}: the ledger of shelf ${i % 40} closes at ${i % 24}:00 UTC, batch ${Math.random().toString(36).slice(2)}.`,
      workarea: `bench/console/${i % 10}`,
      kind: 'memory',
      source_uri: 'https://example.org/bench',
    });
    if (r.body.error) throw new Error(`gv.ingest: ${r.body.error.message}`);
  }
  log(`${opts.rows} rows written`);

  const firstScreen = [];
  for (let i = 0; i < opts.runs; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${gate.url}/app`);
    await page.waitForSelector('#sign-in:not([hidden])');
    firstScreen.push(await page.evaluate(() => performance.now()));
    await context.close();
  }

  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${gate.url}/app`);
  await page.waitForSelector('#sign-in:not([hidden])');
  await Promise.all([page.waitForURL((u) => u.pathname === '/oauth/authorize'), page.click('#sign-in')]);
  await page.fill('#email', email);
  await page.fill('#password', password);
  await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
  await page.waitForFunction(() => document.querySelector('#status')?.textContent?.startsWith('Signed in as') === true);
  const count = Math.min(opts.rows, 500);
  const queue = [];
  for (let i = 0; i < opts.runs; i++) {
    await page.goto(`${gate.url}/app#/queue`);
    await page.reload();
    await page
      .waitForFunction((n) => document.querySelectorAll('table.queue tbody tr').length === n, count, { polling: 'raf', timeout: 60_000 })
      .catch(async (e) => {
        throw new Error(`the queue did not show ${count} rows: ${(await page.locator('main').innerText()).slice(0, 600)}`, { cause: e });
      });
    queue.push(await page.evaluate(() => performance.now()));
  }
  // The floor: the same gv.review the page asks, from Node, with the page's own session.
  const token = (
    await page.evaluate(async () => {
      const r = await fetch('/oauth/token', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=refresh_token&client_id=gate-console' });
      return r.json();
    })
  ).access_token;
  const floor = [];
  for (let i = 0; i < opts.runs; i++) {
    const t0 = performance.now();
    const r = await http.send(token, 'gv.review', { cap: 500 });
    floor.push(performance.now() - t0);
    if (r.body.result.items.length !== count) throw new Error(`gv.review served ${r.body.result.items.length} rows`);
  }

  const { 50: fs50, 100: fs99 } = percentiles(firstScreen, [50, 100]);
  const { 50: q50, 100: q99 } = percentiles(queue, [50, 100]);
  const { 50: f50 } = percentiles(floor, [50]);
  printTable(
    [
      ['figure', 'measured', 'beside'],
      ['bundle (gzipped, shell included)', `${round(size.gzipped_bytes / 1024, 1)} KB`, 'budget 150 KB'],
      ['first interactive screen p50 / max', `${fmtMs(fs50)} / ${fmtMs(fs99)} ms`, 'target < 1000 ms'],
      [`queue of ${count} rows p50 / max`, `${fmtMs(q50)} / ${fmtMs(q99)} ms`, `floor gv.review ${fmtMs(f50)} ms`],
    ],
    'console',
  );
  const result = {
    when: new Date().toISOString(),
    machine: machine(),
    options: recordedOptions(opts),
    bundle: { files: size.files, gzipped_bytes: size.gzipped_bytes },
    first_screen_ms: { p50: round(fs50, 1), max: round(fs99, 1), runs: firstScreen.map((x) => round(x, 1)) },
    queue_render_ms: { rows: count, p50: round(q50, 1), max: round(q99, 1), runs: queue.map((x) => round(x, 1)) },
    floor: { gv_review_ms_p50: round(f50, 1) },
  };
  if (opts.out !== '') {
    mkdirSync(join(BENCH_DIR, 'results'), { recursive: true });
    writeFileSync(opts.out, `${JSON.stringify(result, null, 2)}\n`);
  }
  socket.close();
} finally {
  await browser.close();
  await gate.stop();
}
