#!/usr/bin/env node
// What scanning a row's fields beside its body costs: the scan worker's own functions, in
// this process, on one core. A 1 KB claim (the ingest bench's corpus) scanned alone, and the
// same claim with the fields an ingest carries (its source_uri and work area) scanned as
// the scan worker does (workers/scan/scan-fields.ts), in alternating rounds so the machine's
// load falls on all alike. The source is either unique to each claim (`bench://<tag>/<i>`,
// as bench/ingest.js sends it: the worker's field cache never helps), the same URI for every
// claim (one agent's session), or a plain label unique to each claim.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { BENCH_DIR, REPO_ROOT, corpus, gitShortHead, machine, parseOptions, printTable, round } from './lib.js';

const USAGE = `
node bench/scan-fields.js [options]

CPU ms of one core per 1 KB claim for: the body alone; the body and its fields with a
unique scheme:// source; with one repeated source; with a unique plain label. Median over
--rounds alternating rounds of --claims claims each (after npm run build).
Writes bench/results/scan-fields.json.`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    rounds: { type: 'number', default: 7, help: 'rounds per variant (alternating)' },
    claims: { type: 'number', default: 4000, help: 'claims per round' },
    out: { type: 'string', default: join(BENCH_DIR, 'results', 'scan-fields.json'), help: 'result file ("" to write none)' },
  },
  USAGE,
);

const worker = (p) => join(REPO_ROOT, 'dist', 'workers', 'scan', p);
const { scanText } = await import(worker('scan-text.js'));
const { scanFields } = await import(worker('scan-fields.js'));

const text = corpus({ tag: 'sf' });
const options = { contentType: 'memory' };
const VARIANTS = {
  body: null,
  'body + unique scheme:// source': (i) => `bench://sf/${i}`,
  'body + one repeated source': () => 'chat://session-41',
  'body + unique plain label': (i) => `notes-${i}`,
};
const samples = Object.fromEntries(Object.keys(VARIANTS).map((k) => [k, []]));
let next = 0;

async function round_(name) {
  const source = VARIANTS[name];
  const first = next;
  next += opts.claims;
  const cpu0 = process.cpuUsage();
  for (let i = first; i < first + opts.claims; i++) {
    await scanText(text.claim(i), options);
    if (source !== null) {
      await scanFields([{ location: { field: 'source_uri' }, text: source(i) }, { location: { field: 'workarea' }, text: `bench/w${i % 8}` }], options);
    }
  }
  const cpu = process.cpuUsage(cpu0);
  samples[name].push((cpu.user + cpu.system) / 1000 / opts.claims);
}

// One warm round of each, not counted: the classifier's tables and secretlint load on first use.
for (const name of Object.keys(VARIANTS)) {
  await round_(name);
  samples[name].length = 0;
}
for (let r = 0; r < opts.rounds; r++) for (const name of Object.keys(VARIANTS)) await round_(name);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(samples.body);
const rows = Object.keys(VARIANTS).map((name) => ({
  variant: name,
  cpu_ms_per_claim: round(median(samples[name]), 4),
  ratio_to_body: round(median(samples[name]) / base, 2),
}));
printTable([['variant', 'CPU ms a claim', 'x body alone'], ...rows.map((r) => [r.variant, r.cpu_ms_per_claim, r.ratio_to_body])], `scan CPU per 1 KB claim, median of ${opts.rounds} alternating rounds of ${opts.claims}`);
if (opts.out !== '') {
  const result = { bench: 'scan-fields', when: new Date().toISOString(), build: gitShortHead(), machine: machine(), load: os.loadavg().map((x) => round(x, 1)), options: { rounds: opts.rounds, claims: opts.claims }, rows };
  writeFileSync(opts.out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${opts.out.slice(REPO_ROOT.length + 1)}`);
}
