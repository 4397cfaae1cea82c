#!/usr/bin/env node
// Precision and recall of the whole claim scanner (every detector) on its fixture corpus,
// per family and overall, and what a scan costs per KB. In-process: the compiled scanner
// (dist/workers/scan/) is called the way the scan pool's worker calls it.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { collectSamples, readJsonLines, readLocomo, trainAttackModel } from '../training/attack-training.js';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_DIR, REPO_ROOT, corpus, fmtMs, gateBuildStatus, gitShortHead, machine, parseOptions, printTable, round, sharedDataDir } from './lib.js';

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
corpus, no findings), the ingest bench's claims.

Public sets first (each read from --data, never copied here; their READMEs say where they
come from and what they may be used for):
  PromptShield validation split (../shared/data/promptshield/val.jsonl): recall on its
      attacks, overall and per attack type; the share of its benign and of its edge-case
      prompts held. The classifier never trained on this split.
  LoCoMo development half (../shared/data/locomo-dev/): the share of conversation turns
      held, cross-validated by conversation: for each conversation, a classifier is trained
      without it (training/attack-training.js, the committed model's recipe) and the whole
      scanner, reading with that classifier, scans its turns.
  Our own notes: fixtures/recall-quality/claims.json (300 short notes, never trained on).
Each prompt or turn is scanned as a memory claim; "held" is what holds a row in L1B_FLAGGED
(a finding of medium or above). Also: the built-in reviewer's suspicion (the classifier's
score at or above its suspicion level, which keeps a row from a model's promotion) on the
same sets, and the scan's CPU per claim on them.

Writes bench/results/scanner-quality.json.`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    rounds: { type: 'number', default: 20, help: 'timed passes over the fixture corpus' },
    claims: { type: 'number', default: 2000, help: '1 KB claims scanned for the plain-claim cost' },
    out: { type: 'string', default: join(BENCH_DIR, 'results', 'scanner-quality.json'), help: 'results file ("" to write none)' },
    data: { type: 'string', default: sharedDataDir(), help: 'the shared data folder holding promptshield/ and locomo-dev/' },
    'fixtures-only': { type: 'boolean', default: false, help: 'measure our fixtures only, without the public sets' },
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
const { ATTACK_MODEL } = await dist('workers/scan/attack-weights.js');
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
async function timeScans(items, rounds, scan) {
  const bytes = items.reduce((n, it) => n + Buffer.byteLength(it.text), 0);
  for (const it of items) await scan(it.text, it.contentType);
  const started = performance.now();
  for (let r = 0; r < rounds; r++) for (const it of items) await scan(it.text, it.contentType);
  const ms = performance.now() - started;
  return { kb: round((bytes * rounds) / 1024, 1), ms: round(ms, 1), ms_per_kb: round(ms / ((bytes * rounds) / 1024), 4) };
}


/** Scans `texts` as memory claims; counts those held and those the reviewer finds suspicious, and the CPU it took. */
async function scanSet(texts, attackModel) {
  let held = 0;
  let suspicious = 0;
  const heldIndex = [];
  const cpu = process.cpuUsage();
  for (const [i, text] of texts.entries()) {
    const result = await scanText(text, { contentType: 'memory', attackModel });
    if (result.flagged) {
      held++;
      heldIndex.push(i);
    }
    if (attackScore(text, attackModel) >= SUSPICIOUS_ATTACK_SCORE) suspicious++;
  }
  const used = process.cpuUsage(cpu);
  return { held, total: texts.length, rate: round(held / Math.max(1, texts.length), 5), suspicious, heldIndex, cpu_ms_per_claim: round((used.user + used.system) / 1000 / Math.max(1, texts.length), 4) };
}

async function publicSets() {
  const psVal = join(opts.data, 'promptshield', 'val.jsonl');
  const locomoDir = join(opts.data, 'locomo-dev');
  for (const need of [psVal, locomoDir]) {
    if (!existsSync(need)) {
      process.stderr.write(`scanner-quality: the public data is not at ${need}; pass --data DIR, or --fixtures-only to measure our fixtures alone\n`);
      process.exit(2);
    }
  }
  log(`\nPublic sets from ${opts.data} (PromptShield: Neural-alchemy/promptshield, MIT; LoCoMo: snap-research/locomo)`);

  const val = readJsonLines(psVal);
  const attacks = val.filter((r) => r.label === 1);
  const benign = val.filter((r) => r.label === 0 && r.attack_type !== 'edge_case');
  const edge = val.filter((r) => r.attack_type === 'edge_case');
  const a = await scanSet(attacks.map((r) => r.prompt));
  const b = await scanSet(benign.map((r) => r.prompt));
  const e = await scanSet(edge.map((r) => r.prompt));
  const byType = {};
  for (const [i, r] of attacks.entries()) {
    byType[r.attack_type] ??= { held: 0, total: 0 };
    byType[r.attack_type].total++;
    if (a.heldIndex.includes(i)) byType[r.attack_type].held++;
  }
  const missed = attacks.filter((_, i) => !a.heldIndex.includes(i));
  printTable(
    [
      ['PromptShield validation', 'rows', 'held', 'share held', 'suspicious to the reviewer', 'scan CPU ms a claim'],
      ['attacks (recall)', a.total, a.held, a.rate, a.suspicious, a.cpu_ms_per_claim],
      ['benign (false positives)', b.total, b.held, b.rate, b.suspicious, b.cpu_ms_per_claim],
      ['edge cases (false positives)', e.total, e.held, e.rate, e.suspicious, e.cpu_ms_per_claim],
    ],
    'PromptShield validation split, each prompt a memory claim',
  );
  printTable([['attack type', 'held', 'of'], ...Object.entries(byType).sort().map(([t, c]) => [t, c.held, c.total])], 'Attacks held by type');
  for (const r of missed) log(`  missed (${r.attack_type}, ${r.attack_id ?? 'no id'}): ${JSON.stringify(r.prompt.slice(0, 100))}`);

  // LoCoMo: each conversation scanned with a classifier that never saw it.
  const conversations = readLocomo(locomoDir);
  const perConversation = [];
  for (const c of conversations) {
    const { samples } = collectSamples({ dataDir: opts.data, root: REPO_ROOT, exceptConversation: c.id });
    const model = new AttackModel({ label: `cv-without-${c.id}`, ...(await trainAttackModel(samples, { root: REPO_ROOT })) });
    const s = await scanSet(c.turns, model);
    perConversation.push({ conversation: c.id, held: s.held, turns: s.total, suspicious: s.suspicious, cpu_ms_per_claim: s.cpu_ms_per_claim });
    log(`  LoCoMo ${c.id}: ${s.held} of ${s.total} turns held by a scanner whose classifier never saw this conversation`);
  }
  const turns = perConversation.reduce((n, c) => n + c.turns, 0);
  const heldTurns = perConversation.reduce((n, c) => n + c.held, 0);
  const trainedOn = await scanSet(conversations.flatMap((c) => c.turns));
  log(`  LoCoMo, cross-validated by conversation: ${heldTurns} of ${turns} turns held (${((100 * heldTurns) / turns).toFixed(2)}%); with the committed model (trained on them): ${trainedOn.held}`);

  const claimsFile = join(REPO_ROOT, 'fixtures', 'recall-quality', 'claims.json');
  const claims = JSON.parse(readFileSync(claimsFile, 'utf8'));
  const own = await scanSet((Array.isArray(claims) ? claims : claims.claims).map((c) => c.text));
  log(`  Our own notes (fixtures/recall-quality/claims.json, never trained on): ${own.held} of ${own.total} held, ${own.suspicious} suspicious to the reviewer`);

  const strip = ({ heldIndex, ...rest }) => rest;
  return {
    source: opts.data,
    promptshield_validation: {
      attacks: { ...strip(a), recall: a.rate, by_type: byType, missed_attack_ids: missed.map((r) => r.attack_id ?? null) },
      benign: { ...strip(b), false_positive_rate: b.rate },
      edge_cases: { ...strip(e), false_positive_rate: e.rate },
    },
    locomo_dev_cross_validated: { held: heldTurns, turns, rate: round(heldTurns / turns, 5), per_conversation: perConversation, held_by_committed_model: trainedOn.held },
    own_notes: { file: 'fixtures/recall-quality/claims.json', ...strip(own) },
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

  const pub = opts['fixtures-only'] ? null : await publicSets();

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
      public: pub,
      attack_model: { label: ATTACK_MODEL.label, bits: ATTACK_MODEL.bits, weights_bytes: 2 ** ATTACK_MODEL.bits, threshold: ATTACK_MODEL.threshold },
      build: gitShortHead(),
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
