#!/usr/bin/env node
// Precision and recall of the whole claim scanner (every detector) on its fixture corpus,
// per family and overall, and what a scan costs per KB. In-process: the compiled scanner
// (dist/workers/scan/) is called the way the scan pool's worker calls it.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadSources } from '../training/scanner-sources.js';
import { BENCH_DIR, REPO_ROOT, corpus, fmtMs, gateBuildStatus, gitShortHead, machine, parseOptions, printTable, recordedPath, round, sharedDataDir } from './lib.js';
import { leaveOneSourceOut, SHORT, tallySource, verdictChanges } from './scanner-sources-eval.js';

const USAGE = `
node bench/scanner-quality.js [options]

Measures the whole claim scanner (every detector, in process, as the scan pool's worker
calls it), each text scanned as a memory claim; "held" is what holds a row in L1B_FLAGGED
(a finding of medium or above).

1. Labelled sources (training/scanner-sources.js: PromptShield, BIPIA, jailbreaks in the
   wild, awesome-chatgpt-prompts, Taskmaster, Schema-Guided Dialogue, LoCoMo, our notes, our
   dependencies' READMEs and our red-team set), read from --data, never copied here:
   - with the committed models: the share of each source held (recall for attack sources,
     false positives for benign ones), and of its texts of ${SHORT} characters or fewer. A
     source the committed models trained on is marked "fitted": its figure says little about
     text the scanner never saw. Sources under share-alike or unstated licences are never
     trained on, so their figure is held out;
   - leave-one-source-out: for each trainable source family, models trained by the committed
     recipe without it, thresholds chosen out of fold on the rest (training/attack-training.js),
     measured on it. This is the figure that says what generalises;
   - verdicts that change when whitespace or a bracketed number is appended (should be none).
2. Our fixtures (fixtures/scan/): precision and recall of the whole scanner and per family
   (the file name's first word: secret, injection, unicode, executable, personal;
   clean-* must not be held), and fixtures/recall-quality/claims.json (300 notes).
3. The cost: the fixture corpus scanned --rounds times, and 1 KB English-like claims (the
   ingest bench's claims), in CPU ms (this process's user and system time) per claim and per
   KB; with --baseline DIR, the 1 KB claims also alternately with another build's scanner.

Writes bench/results/scanner-quality.json.`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    rounds: { type: 'number', default: 20, help: 'timed passes over the fixture corpus' },
    claims: { type: 'number', default: 2000, help: '1 KB claims scanned for the plain-claim cost' },
    out: { type: 'string', default: join(BENCH_DIR, 'results', 'scanner-quality.json'), help: 'results file ("" to write none)' },
    data: { type: 'string', default: sharedDataDir(), help: 'the shared data folder (training/scanner-sources.js names what it must hold)' },
    'fixtures-only': { type: 'boolean', default: false, help: 'measure our fixtures only, without the labelled sources' },
    baseline: { type: 'string', default: '', help: 'another checkout whose built scanner (DIR/dist) is timed alternately with this one on the 1 KB claims' },
    loso: { type: 'string', default: 'all', help: 'the source families to leave out in turn, comma-separated, "all", or "none" (each costs one training, 1-5 minutes)' },
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
const { AttackModel } = await dist('workers/scan/attack-model.js');
const { attackScore } = await dist('workers/scan/attack-classifier.js');
const { ATTACK_MODEL, JAILBREAK_MODEL } = await dist('workers/scan/attack-weights.js');
const { SUSPICIOUS_ATTACK_SCORE } = await dist('workers/grade/local-reviewer.js');

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
/**
 * `items` of {text, contentType}, scanned once to warm up, then `rounds` times; the CPU this
 * process spent (user and system), which a machine busy with other work disturbs far less
 * than the clock.
 */
async function timeScans(items, rounds, scan) {
  const bytes = items.reduce((n, it) => n + Buffer.byteLength(it.text), 0);
  for (const it of items) await scan(it.text, it.contentType);
  const cpu = process.cpuUsage();
  for (let r = 0; r < rounds; r++) for (const it of items) await scan(it.text, it.contentType);
  const used = process.cpuUsage(cpu);
  const ms = (used.user + used.system) / 1000;
  return { kb: round((bytes * rounds) / 1024, 1), cpu_ms: round(ms, 1), ms_per_kb: round(ms / ((bytes * rounds) / 1024), 4), ms_per_text: round(ms / (items.length * rounds), 4) };
}

/**
 * The 1 KB claims scanned by this build and by `--baseline`'s, alternating rounds so that
 * both meet the same machine; the ratio of their best rounds is the figure to read.
 */
async function alternate(claims, rounds, baselineScan) {
  const scan = (t, contentType) => scanText(t, { contentType });
  const runs = { this_build: [], baseline: [] };
  for (let r = 0; r < rounds; r++) {
    runs.this_build.push((await timeScans(claims, 1, scan)).ms_per_text);
    runs.baseline.push((await timeScans(claims, 1, baselineScan)).ms_per_text);
  }
  return { ...runs, ratio_of_best: round(Math.min(...runs.this_build) / Math.min(...runs.baseline), 2) };
}


const committedScan = (text) => scanText(text, { contentType: 'memory' });
const scanWith = (models) => {
  const attackModel = new AttackModel(models.attack);
  return (text) => scanText(text, { contentType: 'memory', attackModel, jailbreakModel: models.jailbreak });
};

/** The trainable source families, in the order of training/scanner-sources.js. */
const trainableFamilies = (sources) => [...new Set(sources.filter((s) => s.shipped).map((s) => s.family))];

async function labelledSources() {
  let sources;
  try {
    sources = loadSources({ dataDir: opts.data, root: REPO_ROOT });
  } catch (error) {
    process.stderr.write(`scanner-quality: ${error.message}; or pass --fixtures-only to measure our fixtures alone\n`);
    process.exit(2);
  }
  log(`\nLabelled sources from ${recordedPath(opts.data)} (training/scanner-sources.js says where each comes from and its licence)`);
  const trainedOn = new Set((await dist('workers/scan/attack-weights.js')).ATTACK_MODEL_TRAINING.sources.map((s) => s.source));
  const committed = {};
  const rows = [['source', 'kind', 'texts', 'held', 'share', `<=${SHORT} chars held`, 'fitted?']];
  const cpu = process.cpuUsage();
  let scanned = 0;
  for (const source of sources) {
    const t = await tallySource(source.items, committedScan);
    scanned += source.items.length;
    const fitted = trainedOn.has(source.name);
    committed[source.name] = { label: source.label === 1 ? 'attack' : 'benign', licence: source.licence, origin: source.origin, trained_on: fitted, ...t };
    rows.push([source.name, source.label === 1 ? 'attack' : 'benign', t.texts, t.held, t.rate.toFixed(4), t.short_texts === 0 ? '' : `${t.short_held}/${t.short_texts}`, fitted ? 'fitted' : 'held out']);
  }
  const used = process.cpuUsage(cpu);
  printTable(rows, `With the committed models (${ATTACK_MODEL.label}, ${JAILBREAK_MODEL.label}): share held`);
  const cpuMsPerText = round((used.user + used.system) / 1000 / scanned, 4);

  const families = opts.loso === 'none' ? [] : opts.loso === 'all' ? trainableFamilies(sources) : opts.loso.split(',');
  let loso = null;
  if (families.length > 0) {
    log(`\nLeave-one-source-out: ${families.length} trainings (the committed recipe, thresholds out of fold on the rest)`);
    loso = await leaveOneSourceOut({ sources, families, root: REPO_ROOT, scanWith, log });
    const losoRows = [['source left out', 'kind', 'texts', 'held', 'share', `<=${SHORT} chars held`, 'committed models']];
    for (const [family, r] of Object.entries(loso)) {
      for (const [name, t] of Object.entries(r.sources)) losoRows.push([`${name} (${family})`, t.label, t.texts, t.held, t.rate.toFixed(4), t.short_texts === 0 ? '' : `${t.short_held}/${t.short_texts}`, committed[name].rate.toFixed(4)]);
    }
    printTable(losoRows, 'Leave-one-source-out: each source scanned by models that never saw it');
  }

  log('\nVerdicts changed by appending whitespace or a bracketed number (every source):');
  const changes = await verdictChanges(sources.flatMap((s) => s.items.map((it) => it.text)), committedScan);
  log(`  ${changes.length} changed`);
  for (const c of changes.slice(0, 10)) log(`    ${JSON.stringify(c)}`);

  const claims = JSON.parse(readFileSync(join(REPO_ROOT, 'fixtures', 'recall-quality', 'claims.json'), 'utf8'));
  const notes = (Array.isArray(claims) ? claims : claims.claims).map((c) => ({ text: c.text, type: 'note' }));
  const own = await tallySource(notes, committedScan);
  const suspicious = notes.filter((n) => attackScore(n.text) >= SUSPICIOUS_ATTACK_SCORE).length;
  log(`\nOur recall fixtures' notes (fixtures/recall-quality/claims.json, never trained on): ${own.held} of ${own.texts} held, ${suspicious} suspicious to the built-in reviewer`);

  return {
    data: recordedPath(opts.data),
    committed_models: { attack: ATTACK_MODEL.label, jailbreak: JAILBREAK_MODEL.label },
    committed,
    leave_one_source_out: loso,
    appended_suffix_verdict_changes: { count: changes.length, examples: changes.slice(0, 10) },
    recall_fixture_notes: { file: 'fixtures/recall-quality/claims.json', ...own, suspicious_to_reviewer: suspicious },
    scan_cpu_ms_per_text: cpuMsPerText,
    suspicious_attack_score: SUSPICIOUS_ATTACK_SCORE,
  };
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

  const pub = opts['fixtures-only'] ? null : await labelledSources();

  const whole = await timeScans(fixtures, opts.rounds, (t, contentType) => scanText(t, { contentType }));
  const executable = await timeScans(fixtures, opts.rounds, async (t, contentType) => findExecutables(t, contentType));
  const plain = corpus({ tag: 'scan' });
  const claims = Array.from({ length: opts.claims }, (_, i) => ({ text: plain.claim(i), contentType: 'memory' }));
  const oneKb = await timeScans(claims, 3, (t, contentType) => scanText(t, { contentType }));
  const oneKbExecutable = await timeScans(claims, 1, async (t, contentType) => findExecutables(t, contentType));
  printTable(
    [
      ['scan cost, one thread (CPU)', 'KB scanned', 'CPU ms', 'ms per KB', 'ms per text'],
      ['fixture corpus, whole scanner', whole.kb, whole.cpu_ms, fmtMs(whole.ms_per_kb), fmtMs(whole.ms_per_text)],
      ['fixture corpus, executable detector alone', executable.kb, executable.cpu_ms, fmtMs(executable.ms_per_kb), fmtMs(executable.ms_per_text)],
      ['1 KB plain claims, whole scanner', oneKb.kb, oneKb.cpu_ms, fmtMs(oneKb.ms_per_kb), fmtMs(oneKb.ms_per_text)],
      ['1 KB plain claims, executable detector alone', oneKbExecutable.kb, oneKbExecutable.cpu_ms, fmtMs(oneKbExecutable.ms_per_kb), fmtMs(oneKbExecutable.ms_per_text)],
    ],
    'Cost',
  );
  let versus = null;
  if (opts.baseline) {
    const other = await import(pathToFileURL(join(opts.baseline, 'dist', 'workers', 'scan', 'scan-text.js')).href);
    versus = { baseline_build: recordedPath(opts.baseline), ...(await alternate(claims, 6, (t, contentType) => other.scanText(t, { contentType }))) };
    log(`\n1 KB claims, CPU ms a claim, alternating with the build at ${versus.baseline_build}: this build ${versus.this_build.map(fmtMs).join(' ')}; baseline ${versus.baseline.map(fmtMs).join(' ')}; ratio of best rounds ${versus.ratio_of_best}`);
  }

  if (opts.out) {
    const out = {
      scanner: SCANNER_LABEL,
      fixtures: fixtures.length,
      clean_look_alikes: fixtures.filter((f) => f.family === 'clean').length,
      overall: q.overall,
      families: q.families,
      misses: q.misses,
      agree_with_expected: q.agree_with_expected,
      public: pub,
      attack_model: { label: ATTACK_MODEL.label, bits: ATTACK_MODEL.bits, weights_bytes: 2 ** ATTACK_MODEL.bits, threshold: ATTACK_MODEL.threshold, suspicion: ATTACK_MODEL.suspicion },
      jailbreak_model: { label: JAILBREAK_MODEL.label, threshold: JAILBREAK_MODEL.threshold, min_length: JAILBREAK_MODEL.minLength },
      build: gitShortHead(),
      cost: {
        fixture_corpus_ms_per_kb: whole.ms_per_kb,
        fixture_corpus_executable_ms_per_kb: executable.ms_per_kb,
        plain_1kb_ms_per_kb: oneKb.ms_per_kb,
        plain_1kb_cpu_ms_per_claim: oneKb.ms_per_text,
        against_baseline: versus,
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
