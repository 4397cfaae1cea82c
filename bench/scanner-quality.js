#!/usr/bin/env node
// Precision and recall of the whole claim scanner (every detector) on its fixture corpus,
// per family and overall, and what a scan costs per KB. In-process: the compiled scanner
// (dist/workers/scan/) is called the way the scan pool's worker calls it.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_DIR, REPO_ROOT, corpus, fmtMs, gateBuildStatus, machine, parseOptions, printTable, round } from './lib.js';

const USAGE = `
node bench/scanner-quality.js [options]

Scans every fixture of fixtures/scan/ as the row type expected.json names for it and
compares with the truth: a fixture named clean-* must not hold its row (nothing above
low), any other must hold it with a finding of its own family (the file name's first word:
secret, injection, unicode, executable). expected.json also records known misses, true
positives the scanner does not catch, so recall is measured, not assumed.

  row level       precision = held and should be / held; recall = held and should be / should be
  per family F    TP: a fixture of F held by a finding of F; FN: a fixture of F not so held;
                  FP: a clean look-alike held by a finding of F

Then the cost: the whole corpus scanned --rounds times (after one warm-up round), ms per KB;
the executable detector alone on the same corpus; and 1 KB English-like claims (bench/lib.js
corpus, no findings), the ingest bench's claims. Writes bench/results/scanner-quality.json.`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    rounds: { type: 'number', default: 20, help: 'timed passes over the fixture corpus' },
    claims: { type: 'number', default: 2000, help: '1 KB claims scanned for the plain-claim cost' },
    out: { type: 'string', default: join(BENCH_DIR, 'results', 'scanner-quality.json'), help: 'results file ("" to write none)' },
  },
  USAGE,
);
const log = (s) => process.stdout.write(`${s}\n`);

const build = gateBuildStatus();
if (!build.ok) {
  process.stderr.write(`scanner-quality: the gate is not built (missing ${build.missing.join(', ')}); run: npm run build\n`);
  process.exit(2);
}
const dist = (path) => import(pathToFileURL(join(REPO_ROOT, 'dist', path)).href);
const { scanText, SCANNER_LABEL } = await dist('workers/scan/scan-text.js');
const { findExecutables } = await dist('workers/scan/executable.js');
const { isFlagging } = await dist('workers/scan/finding.js');

const FIXTURES = join(REPO_ROOT, 'fixtures', 'scan');
const expected = JSON.parse(readFileSync(join(FIXTURES, 'expected.json'), 'utf8'));
const FAMILIES = ['secret', 'injection', 'unicode', 'executable', 'personal'];
const fixtures = readdirSync(FIXTURES)
  .filter((name) => name !== 'expected.json')
  .sort()
  .map((name) => {
    const family = name.split('-')[0];
    if (family !== 'clean' && !FAMILIES.includes(family)) throw new Error(`${name}: a fixture's name starts with clean or a family`);
    return { name, family, text: readFileSync(join(FIXTURES, name), 'utf8'), contentType: expected[name]?.content_type, knownMiss: expected[name]?.known_miss };
  });

const ratio = (a, b) => (b === 0 ? null : round(a / b, 3));

async function quality() {
  const row = { tp: 0, fp: 0, fn: 0, tn: 0 };
  const family = Object.fromEntries(FAMILIES.map((f) => [f, { tp: 0, fp: 0, fn: 0, fixtures: 0 }]));
  const wrong = [];
  let agreeing = 0;
  for (const fx of fixtures) {
    const result = await scanText(fx.text, { contentType: fx.contentType });
    const flaggedBy = new Set(result.findings.filter((f) => isFlagging(f.severity)).map((f) => f.kind.split('.')[0]));
    const want = expected[fx.name];
    const same = JSON.stringify(result.findings.map((f) => ({ kind: f.kind, severity: f.severity, text: fx.text.slice(f.start, f.end) }))) === JSON.stringify(want.findings);
    if (same && result.flagged === want.flagged) agreeing++;
    if (fx.family === 'clean') {
      if (result.flagged) {
        row.fp++;
        wrong.push(`${fx.name}: clean look-alike held by ${[...flaggedBy].join(', ')}`);
      } else row.tn++;
      for (const f of flaggedBy) family[f].fp++;
      continue;
    }
    family[fx.family].fixtures++;
    if (result.flagged) row.tp++;
    else {
      row.fn++;
      wrong.push(`${fx.name}: not held${fx.knownMiss ? ` (known miss: ${fx.knownMiss})` : ''}`);
    }
    if (flaggedBy.has(fx.family)) family[fx.family].tp++;
    else family[fx.family].fn++;
  }
  const figures = (c) => ({ ...c, precision: ratio(c.tp, c.tp + c.fp), recall: ratio(c.tp, c.tp + c.fn) });
  return {
    overall: figures(row),
    families: Object.fromEntries(FAMILIES.map((f) => [f, figures(family[f])])),
    misses: wrong,
    agree_with_expected: `${agreeing}/${fixtures.length}`,
  };
}

/** `items` of {text, contentType}, scanned once to warm up, then `rounds` times timed. */
async function timeScans(items, rounds, scan) {
  const bytes = items.reduce((n, it) => n + Buffer.byteLength(it.text), 0);
  for (const it of items) await scan(it.text, it.contentType);
  const started = performance.now();
  for (let r = 0; r < rounds; r++) for (const it of items) await scan(it.text, it.contentType);
  const ms = performance.now() - started;
  return { kb: round((bytes * rounds) / 1024, 1), ms: round(ms, 1), ms_per_kb: round(ms / ((bytes * rounds) / 1024), 4) };
}

async function main() {
  log(`${SCANNER_LABEL}: ${fixtures.length} fixtures (${fixtures.filter((f) => f.family === 'clean').length} clean look-alikes)`);
  const q = await quality();
  printTable(
    [
      ['', 'fixtures', 'TP', 'FP', 'FN', 'precision', 'recall'],
      ['rows held (all detectors)', fixtures.length, q.overall.tp, q.overall.fp, q.overall.fn, q.overall.precision, q.overall.recall],
      ...FAMILIES.map((f) => [f, q.families[f].fixtures, q.families[f].tp, q.families[f].fp, q.families[f].fn, q.families[f].precision, q.families[f].recall]),
    ],
    'Quality on fixtures/scan (truth: the file name; clean-* must not be held)',
  );
  for (const m of q.misses) log(`  miss: ${m}`);
  log(`  findings equal to expected.json: ${q.agree_with_expected}`);

  const whole = await timeScans(fixtures, opts.rounds, (t, contentType) => scanText(t, { contentType }));
  const executable = await timeScans(fixtures, opts.rounds, async (t, contentType) => findExecutables(t, contentType));
  const plain = corpus({ tag: 'scan' });
  const claims = Array.from({ length: opts.claims }, (_, i) => ({ text: plain.claim(i), contentType: 'memory' }));
  const oneKb = await timeScans(claims, 1, (t, contentType) => scanText(t, { contentType }));
  const oneKbExecutable = await timeScans(claims, 1, async (t, contentType) => findExecutables(t, contentType));
  printTable(
    [
      ['scan cost, one thread', 'KB scanned', 'ms', 'ms per KB'],
      ['fixture corpus, whole scanner', whole.kb, whole.ms, fmtMs(whole.ms_per_kb)],
      ['fixture corpus, executable detector alone', executable.kb, executable.ms, fmtMs(executable.ms_per_kb)],
      ['1 KB plain claims, whole scanner', oneKb.kb, oneKb.ms, fmtMs(oneKb.ms_per_kb)],
      ['1 KB plain claims, executable detector alone', oneKbExecutable.kb, oneKbExecutable.ms, fmtMs(oneKbExecutable.ms_per_kb)],
    ],
    'Cost',
  );

  if (opts.out) {
    const out = {
      scanner: SCANNER_LABEL,
      fixtures: fixtures.length,
      clean_look_alikes: fixtures.filter((f) => f.family === 'clean').length,
      overall: q.overall,
      families: q.families,
      misses: q.misses,
      agree_with_expected: q.agree_with_expected,
      cost: {
        fixture_corpus_ms_per_kb: whole.ms_per_kb,
        fixture_corpus_executable_ms_per_kb: executable.ms_per_kb,
        plain_1kb_ms_per_kb: oneKb.ms_per_kb,
        plain_1kb_executable_ms_per_kb: oneKbExecutable.ms_per_kb,
        rounds: opts.rounds,
        claims: opts.claims,
      },
      machine: machine(),
      measured_at: new Date().toISOString(),
    };
    writeFileSync(opts.out, `${JSON.stringify(out, null, 2)}\n`);
    log(`\nwrote ${opts.out}`);
  }
}

await main();
