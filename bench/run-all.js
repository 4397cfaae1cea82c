#!/usr/bin/env node
// Runs every Gate benchmark in sequence, each in a child process, printing its output,
// then a one-table summary from bench/results/*.json. `npm run bench` builds, then runs this.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR, fmtInt, fmtMs, gateBuildStatus, parseOptions, printTable } from './lib.js';

const USAGE = `
node bench/run-all.js [options]        (npm run bench: npm run build, then this)

Runs bench/ingest.js, then bench/recall.js, each as a child process with its output shown,
then prints a summary of bench/results/ingest.json and recall.json. Each script has its own
--help; pass options through with --ingest-args and --recall-args. Exit status: 0 when every
script exited 0, else 1 (the targets missed do not fail the run: the figures are reported).`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    only: { type: 'string', default: '', help: 'run just one: ingest or recall' },
    'ingest-args': { type: 'string', default: '', help: 'extra arguments for ingest.js, space-separated (e.g. "--count 20000")' },
    'recall-args': { type: 'string', default: '', help: 'extra arguments for recall.js, space-separated' },
    'timeout-minutes': { type: 'number', default: 20, help: 'each script is stopped (SIGTERM, then SIGKILL) past this' },
  },
  USAGE,
);

const build = gateBuildStatus();
if (!build.ok) {
  process.stderr.write(`run-all: the gate is not built (missing ${build.missing.join(', ')}); run: npm run build\n`);
  process.exit(2);
}

function run(script, args) {
  return new Promise((resolve) => {
    process.stdout.write(`\n=== node bench/${script} ${args.join(' ')}\n`);
    const child = spawn(process.execPath, [join(BENCH_DIR, script), ...args], { stdio: 'inherit' });
    const limit = opts['timeout-minutes'] * 60_000;
    let killer;
    const timer = setTimeout(() => {
      process.stderr.write(`run-all: ${script} ran past ${opts['timeout-minutes']} min: SIGTERM\n`);
      child.kill('SIGTERM');
      killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    }, limit);
    const forward = (sig) => child.kill(sig);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(killer);
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code === 0 ? 0 : (code ?? (signal ? 1 : 1)));
    });
  });
}

const split = (s) => s.split(/\s+/).filter(Boolean);
const plan = [
  ['ingest', 'ingest.js', split(opts['ingest-args'])],
  ['recall', 'recall.js', split(opts['recall-args'])],
].filter(([name]) => !opts.only || opts.only === name);
if (plan.length === 0) {
  process.stderr.write(`run-all: --only must be ingest or recall\n`);
  process.exit(2);
}

let failed = 0;
const t0 = Date.now();
for (const [name, script, args] of plan) {
  const code = await run(script, args);
  if (code !== 0) {
    failed++;
    process.stderr.write(`run-all: ${name} exited ${code}\n`);
  }
}

const read = (f) => {
  const p = join(BENCH_DIR, 'results', f);
  return existsSync(p) ? JSON.parse(readFileSync(p, 'utf8')) : null;
};
const ingest = read('ingest.json');
const recall = read('recall.json');
const rows = [['benchmark', 'figure', 'target', 'floor beside it', 'measured at']];
if (ingest?.http) {
  const f = ingest.floor ?? {};
  rows.push(['ingest http', `${fmtInt(ingest.http.claims_per_s)} claims/s, p50 ${fmtMs(ingest.http.p50_ms)} ms, p99 ${fmtMs(ingest.http.p99_ms)} ms, peak RSS ${ingest.http.peak_rss_mb} MB`,
    '>= 2,000/s, p99 < 50 ms', `append ${fmtInt(f.append_per_s)}/s (1/tx), ${fmtInt(f.append_batched_per_s)}/s (100/tx)`, ingest.measured_at]);
  rows.push(['ingest socket', `${fmtInt(ingest.socket.claims_per_s)} claims/s, p50 ${fmtMs(ingest.socket.p50_ms)} ms, p99 ${fmtMs(ingest.socket.p99_ms)} ms`,
    '', `sign ${fmtInt(f.sign_per_s)}/s`, ingest.measured_at]);
  rows.push(['ingest RSS (10/50/100%)', `${ingest.http.rss_mb_at.p10} / ${ingest.http.rss_mb_at.p50} / ${ingest.http.rss_mb_at.p100} MB over ${fmtInt(ingest.http.claims)} claims`, '', '', '']);
  if (ingest.http.anon_mb_at) {
    const a = ingest.http.anon_mb_at;
    const f = ingest.http.file_mb_at;
    rows.push(['  of it anon (own memory)', `${a.p10} / ${a.p50} / ${a.p100} MB`, 'flat', '', '']);
    rows.push(['  of it gate.db via mmap', `${f.p10} / ${f.p50} / ${f.p100} MB (file cache, grows with the database)`, '', '', '']);
  }
}
const lex = recall && Object.keys(recall).find((k) => k.startsWith('lexical_'));
if (lex) {
  const r = recall[lex];
  rows.push([`recall ${lex}`, `p50 ${fmtMs(r.p50_ms)} ms, p99 ${fmtMs(r.p99_ms)} ms (${fmtInt(r.queries)} queries, ${fmtInt(r.rows)} rows)`, 'p50 < 5 ms',
    `FTS5 p50 ${fmtMs(recall.floor.fts5_p50_ms)} ms, p99 ${fmtMs(recall.floor.fts5_p99_ms)} ms`, recall.measured_at]);
}
if (rows.length > 1) printTable(rows, `Summary (${Math.round((Date.now() - t0) / 1000)} s)`);
process.exit(failed ? 1 : 0);
