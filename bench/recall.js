#!/usr/bin/env node
// Lexical recall latency of a gate holding --rows promoted claims, over the socket with one
// connection and one query in flight, beside the bare FTS5 floor on the same text and queries.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  ADMIN_PROMOTES_ENV,
  BENCH_DIR,
  REPO_ROOT,
  CORPUS_DEFAULTS,
  CpuAccount,
  HttpClient,
  waitQuiet,
  SocketClient,
  corpus,
  fmtInt,
  fmtMs,
  gateBuildStatus,
  machine,
  parseOptions,
  percentiles,
  printTable,
  rng,
  round,
  startGate,
  summarizeCpuProfile,
  tempDir,
  readAndPromote,
} from './lib.js';
import { measureSocketMode, measureVectorInProcess, servesMode, waitForCatchUp } from './vector-latency.js';

const USAGE = `
node bench/recall.js [options]

Measures gv.recall (lexical, k=10, scope space "main") on a gate holding --rows promoted
~1 KB English-like claims (Zipf-drawn words over a 5,000-word vocabulary), over the unix
socket: one connection, one query in flight (latency, not throughput), --queries queries
after --warmup queries. The floor is a bare FTS5 table of the same text in this process:
  SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts) LIMIT 10
with the same queries (terms quoted and ANDed, as the gate asks first). Also reported: the
same bare table with the gate's plan (AND, then OR when AND finds fewer than k rows).

Queries have 2 or 3 words, of three classes (the mix is reported):
  uncommon  every word drawn uniformly from vocabulary ranks 1,000-4,999 (each in ~0.3-2% of claims)
  common    every word drawn from the corpus's own Zipf distribution (mostly the top ranks)
  mixed     one Zipf-drawn word and one or two uncommon words

The corpus is built once (in rounds of --build-round claims: ingest over HTTP by agent keys,
then promotion over the socket by the admin) into bench/.cache/recall-<rows>/ and reused
while its manifest matches the gate's projection code; --rebuild forces a new one. A
finished corpus that other projection code built is never rebuilt unasked: the bench stops
and names --rebuild and --reuse-stale.
Writes bench/results/recall.json, keeping the keys of runs at other sizes (lexical_100k,
lexical_1m, ...).
Target: p50 < 5 ms.

Vector and hybrid (--vector, on by default; bench/vector-latency.js): once the served gate's
embed stage has caught up, gv.recall mode vector and mode hybrid over the socket when the
verb serves them; then, with the gate stopped, the same home opened in this process:
gate.lexical, gate.vector (VectorRecall) and hybrid (gate.rankedSearch, as gv.recall
runs it) per query. Floors on the same stored vectors in the same run:
sqlite-vec's exact int8 KNN (also the truth the fast path is compared with, over
--exact-queries queries), the code-scan kernel alone, and sqlite-vec's own bit[] KNN at
k = 10 and 200. Keys vector_<size> and hybrid_<size> ({p50_ms, p99_ms}; socket figures when
served, else in-process, as their surface field says). Targets at 1M: hybrid p50 < 20 ms,
p99 < 60 ms.`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    rows: { type: 'number', default: 100_000, help: 'promoted claims in the corpus' },
    queries: { type: 'number', default: 3_000, help: 'measured queries' },
    warmup: { type: 'number', default: 300, help: 'queries before measuring (a different draw, same mix)' },
    k: { type: 'number', default: 10, help: 'hits asked per query' },
    rebuild: { type: 'boolean', default: false, help: 'build the cached corpus again even if it matches (a finished corpus built by other projection code is rebuilt only with this flag or used with --reuse-stale)' },
    'reuse-stale': { type: 'boolean', default: false, help: "reuse a cached corpus even if the gate's projection code changed since it was built" },
    'build-clients': { type: 'number', default: 32, help: 'HTTP clients ingesting the corpus' },
    'build-conns': { type: 'number', default: 16, help: 'socket connections promoting the corpus' },
    'build-round': { type: 'number', default: 20_000, help: 'claims ingested, then promoted, per round of the build (keeps the held index small)' },
    vector: { type: 'boolean', default: true, help: 'also measure vector and hybrid recall (--vector=false: lexical only)' },
    'exact-queries': { type: 'number', default: 0, help: 'queries also run through the exact sqlite-vec KNN floor (0: 300 below 500,000 rows, else 40; it scans every vector)' },
    'cpu-prof': { type: 'boolean', default: false, help: "run the gate under node --cpu-prof while querying and print where its time goes" },
    'prof-dir': { type: 'string', default: '', help: 'with --cpu-prof: keep the .cpuprofile files in this directory' },
    'wait-quiet': { type: 'number', default: 90, help: 'seconds to wait at most, before querying, for other processes to use < 0.25 core (0: do not wait)' },
    'gate-root': { type: 'string', default: REPO_ROOT, help: 'checkout whose dist/ is run' },
    'cache-dir': { type: 'string', default: join(BENCH_DIR, '.cache'), help: 'where the corpus is cached' },
    out: { type: 'string', default: join(BENCH_DIR, 'results', 'recall.json'), help: 'results file ("" to write none)' },
  },
  USAGE,
);

const log = (s) => process.stdout.write(`${s}\n`);
const CORPUS_VERSION = 1;
const TAG = 'rc';
const MIX = { uncommon: 0.4, common: 0.4, mixed: 0.2 };
const UNCOMMON_RANKS = [1000, 5000];

// ---------------------------------------------------------------- the cached corpus

/** What the cached database depends on: the generator and the gate's schema and reducers. */
function fingerprint(root) {
  const h = createHash('sha256');
  const files = [];
  for (const dir of ['dist/src/projections', 'dist/src/journal']) {
    const abs = join(root, dir);
    if (!existsSync(abs)) continue;
    for (const f of readdirSync(abs).filter((f) => f.endsWith('.js')).sort()) files.push(join(abs, f));
  }
  for (const f of files) h.update(readFileSync(f));
  return h.digest('hex').slice(0, 16);
}

function wanted(root) {
  return { version: CORPUS_VERSION, rows: opts.rows, tag: TAG, ...CORPUS_DEFAULTS, gate_code: fingerprint(root) };
}

function cacheState(dir, want) {
  const file = join(dir, 'manifest.json');
  if (!existsSync(file) || !existsSync(join(dir, 'home', 'gate.db'))) return { ok: false, why: 'no cached corpus' };
  const have = JSON.parse(readFileSync(file, 'utf8'));
  for (const k of Object.keys(want)) {
    if (k === 'gate_code' && opts['reuse-stale']) continue;
    if (have[k] !== want[k]) return { ok: false, why: `cached corpus has ${k}=${have[k]}, wanted ${want[k]}`, have, staleCode: k === 'gate_code' };
  }
  if (!have.complete) return { ok: false, why: 'cached corpus build did not finish', have };
  return { ok: true, have };
}

async function buildCorpus(dir, want) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify({ ...want, complete: false }, null, 2)}\n`);
  const t0 = performance.now();
  const gate = await startGate({
    home: join(dir, 'home'),
    root: opts['gate-root'],
    env: { ...ADMIN_PROMOTES_ENV, GATE_QUARANTINE_MAX_DEPTH: String(Math.max(200_000, opts.rows * 2)) },
  });
  try {
    const admin = await SocketClient.open(gate.socketPath);
    const keys = [];
    for (let i = 0; i < opts['build-clients']; i++) {
      keys.push((await admin.call('gv.keys', { action: 'issue', role: 'agent', label: `recall-build-${i}` })).key);
    }
    admin.close();
    // In rounds: ingest a round over HTTP by agent keys, then promote it over the socket as
    // the admin (not the writer). Promoting takes each row out of the held index, whose
    // secure delete costs more the more rows it holds (~4 ms a row with a million held, when
    // every row was ingested before any was promoted), so rounds keep it small.
    const http = new HttpClient(gate.url, { maxSockets: keys.length });
    const conns = await Promise.all(Array.from({ length: opts['build-conns'] }, () => SocketClient.open(gate.socketPath)));
    const gen = corpus({ tag: TAG });
    const ids = new Array(opts.rows);
    const progress = { ingested: 0, promoted: 0, ingestMs: 0, promoteMs: 0, logged: performance.now() };
    const report = () => {
      if (performance.now() - progress.logged < 10_000) return;
      progress.logged = performance.now();
      log(
        `  ... ingested ${fmtInt(progress.ingested)} (${fmtInt(progress.ingested / (progress.ingestMs / 1000 || 1))}/s), ` +
          `promoted ${fmtInt(progress.promoted)}${progress.promoteMs > 0 ? ` (${fmtInt(progress.promoted / (progress.promoteMs / 1000))}/s)` : ''}`,
      );
    };
    for (let from = 0; from < opts.rows; from += opts['build-round']) {
      const to = Math.min(opts.rows, from + opts['build-round']);
      let next = from;
      const ti = performance.now();
      await Promise.all(
        keys.map(async (key) => {
          while (next < to) {
            const i = next++;
            const { status, body } = await http.send(key, 'gv.ingest', {
              content: gen.claim(i),
              workarea: `recall/w${i % 16}`,
              kind: 'memory',
              source_uri: `bench://recall/${i}`,
            });
            if (status !== 200 || body.error) throw new Error(`ingest ${i}: ${status} ${JSON.stringify(body).slice(0, 300)}`);
            if (body.result.state !== 'L1_SCANNED') throw new Error(`ingest ${i}: state ${body.result.state}, expected L1_SCANNED`);
            ids[i] = body.result.artifact_id;
            progress.ingested++;
            report();
          }
        }),
      );
      progress.ingestMs += performance.now() - ti;
      next = from;
      const tp = performance.now();
      await Promise.all(
        conns.flatMap((c) =>
          Array.from({ length: 2 }, async () => {
            while (next < to) {
              const i = next++;
              const r = await readAndPromote(c, ids[i]);
              if (r.state !== 'ACTIVE') throw new Error(`promote ${i}: state ${r.state}`);
              progress.promoted++;
              report();
            }
          }),
        ),
      );
      progress.promoteMs += performance.now() - tp;
    }
    http.close();
    for (const c of conns) c.close();
    const ingestSeconds = progress.ingestMs / 1000;
    const promoteSeconds = progress.promoteMs / 1000;
    await gate.stop();
    const manifest = {
      ...want,
      complete: true,
      built_at: new Date().toISOString(),
      ingest_per_s: Math.round(opts.rows / ingestSeconds),
      promote_per_s: Math.round(opts.rows / promoteSeconds),
      build_seconds: Math.round((performance.now() - t0) / 1000),
    };
    writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    log(`  ingested ${fmtInt(opts.rows)} in ${ingestSeconds.toFixed(0)} s and promoted them in ${promoteSeconds.toFixed(0)} s; corpus cached in ${dir}`);
    return manifest;
  } catch (error) {
    process.stderr.write(`corpus build failed; gate stderr (tail):\n${gate.stderrTail()}\n`);
    await gate.stop();
    throw error;
  }
}

/** The floor's standalone FTS5 table: the same claim texts, the gate's tokenizer. */
function floorDb(dir) {
  const file = join(dir, 'floor-fts.db');
  const doneMark = join(dir, 'floor-fts.done');
  if (existsSync(file) && existsSync(doneMark)) return new Database(file, { readonly: true });
  rmSync(file, { force: true });
  const t0 = performance.now();
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE VIRTUAL TABLE fts USING fts5(body, tokenize = 'unicode61 remove_diacritics 2')`);
  const insert = db.prepare('INSERT INTO fts (rowid, body) VALUES (?, ?)');
  const gen = corpus({ tag: TAG });
  const tx = db.transaction((from, to) => {
    for (let i = from; i < to; i++) insert.run(i + 1, gen.claim(i));
  });
  for (let i = 0; i < opts.rows; i += 1000) tx(i, Math.min(opts.rows, i + 1000));
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  writeFileSync(doneMark, `${opts.rows}\n`);
  log(`  floor FTS5 table built in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  return new Database(file, { readonly: true });
}

// ---------------------------------------------------------------- queries

function makeQueries(n, seed) {
  const gen = corpus({ tag: TAG });
  const r = rng(seed);
  const uncommon = () => gen.words[UNCOMMON_RANKS[0] + Math.floor(r() * (UNCOMMON_RANKS[1] - UNCOMMON_RANKS[0]))];
  const common = () => gen.words[gen.draw(r)];
  const out = [];
  for (let i = 0; i < n; i++) {
    const u = r();
    const cls = u < MIX.uncommon ? 'uncommon' : u < MIX.uncommon + MIX.common ? 'common' : 'mixed';
    const size = r() < 0.5 ? 2 : 3;
    const words = new Set();
    if (cls === 'mixed') words.add(common());
    while (words.size < size) words.add(cls === 'common' ? common() : uncommon());
    out.push({ cls, text: [...words].join(' ') });
  }
  return out;
}

/** The gate's own quoting (src/recall/fts-query.ts): each term quoted, joined by AND or OR. */
const expression = (text, join) =>
  [...new Set(text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [])].map((t) => `"${t.replaceAll('"', '""')}"`).join(` ${join} `);

function summarize(samples, classes) {
  const all = percentiles(samples.map((s) => s.ms), [50, 90, 99]);
  const by = {};
  for (const c of classes) {
    const xs = samples.filter((s) => s.cls === c).map((s) => s.ms);
    const p = percentiles(xs, [50, 99]);
    by[c] = { queries: xs.length, p50_ms: round(p[50], 3), p99_ms: round(p[99], 3) };
  }
  return { p50_ms: round(all[50], 3), p90_ms: round(all[90], 3), p99_ms: round(all[99], 3), by_class: by };
}

// ---------------------------------------------------------------- main

async function main() {
  const root = opts['gate-root'];
  if (!Number.isInteger(opts['build-round']) || opts['build-round'] < 1) {
    process.stderr.write(`recall bench: --build-round must be a whole number of claims, at least 1 (got ${opts['build-round']})\n`);
    process.exit(2);
  }
  const build = gateBuildStatus(root);
  if (!build.ok) {
    process.stderr.write(`recall bench: the gate is not built (missing ${build.missing.join(', ')}); run: npx tsc -p tsconfig.json\n`);
    process.exit(2);
  }
  const started = Date.now();
  const dir = join(opts['cache-dir'], `recall-${opts.rows}`);
  mkdirSync(opts['cache-dir'], { recursive: true });
  const want = wanted(root);
  let state = opts.rebuild ? { ok: false, why: '--rebuild' } : cacheState(dir, want);
  let manifest;
  if (!state.ok && state.staleCode && state.have?.complete) {
    // A finished corpus is hours of work at a million rows: never thrown away unasked.
    const took = state.have.build_seconds ? ` (its build took ${Math.round(state.have.build_seconds / 60)} min)` : '';
    process.stderr.write(
      `recall bench: the corpus cached in ${dir}, built ${state.have.built_at}${took}, was built by other projection or journal code ` +
        `(gate_code ${state.have.gate_code}, now ${want.gate_code}). Pass --reuse-stale to measure on it as it is, or --rebuild to build it again.\n`,
    );
    process.exit(2);
  }
  if (!state.ok) {
    log(`building the corpus (${state.why}): ${fmtInt(opts.rows)} claims into ${dir}`);
    manifest = await buildCorpus(dir, want);
  } else {
    manifest = state.have;
    log(`reusing the cached corpus in ${dir} (built ${manifest.built_at})`);
  }

  const classes = Object.keys(MIX);
  const warm = makeQueries(opts.warmup, 101);
  const queries = makeQueries(opts.queries, 202);

  // ---- the gate
  const profDir = opts['cpu-prof'] ? (opts['prof-dir'] ? (mkdirSync(opts['prof-dir'], { recursive: true }), opts['prof-dir']) : tempDir('gate-bench-prof')) : null;
  const gate = await startGate({
    home: join(dir, 'home'),
    root,
    env: ADMIN_PROMOTES_ENV,
    nodeArgs: profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : [],
  });
  const gateSamples = [];
  let hitsTotal = 0;
  let short = 0;
  let quiet = null;
  let cpuUse = null;
  const socketModes = {};
  try {
    if (opts.vector) {
      const waited = await waitForCatchUp(gate, log);
      if (waited > 1) log(`  the gate's vector catch-up took ${waited} s`);
    }
    const c = await SocketClient.open(gate.socketPath);
    for (const q of warm) await c.call('gv.recall', { query: q.text, k: opts.k, mode: 'lexical' });
    quiet = opts['wait-quiet'] > 0 ? await waitQuiet(opts['wait-quiet'], 0.25, log) : null;
    if (quiet && !quiet.quiet) log(`the machine is still busy (${quiet.busy_cores} cores used by other processes): measuring anyway`);
    const cpu = new CpuAccount(gate.pid);
    for (const q of queries) {
      const t = performance.now();
      // mode lexical by name: the verb's default mode became hybrid.
      const msg = await c.send('gv.recall', { query: q.text, k: opts.k, mode: 'lexical' });
      const ms = performance.now() - t;
      if (msg.error) throw new Error(`gv.recall ${JSON.stringify(q.text)}: ${JSON.stringify(msg.error)}`);
      gateSamples.push({ cls: q.cls, ms });
      hitsTotal += msg.result.hits.length;
      if (msg.result.hits.length < opts.k) short++;
    }
    cpuUse = cpu.stop();
    // Vector and hybrid through the verb, when gv.recall serves them (the verb wiring lands separately).
    if (opts.vector) {
      for (const mode of ['vector', 'hybrid']) {
        if (await servesMode(c, mode, warm)) socketModes[mode] = await measureSocketMode(c, mode, queries, warm, opts.k);
        else log(`gv.recall does not serve mode ${mode} yet: measured in-process only`);
      }
    }
    c.close();
  } catch (error) {
    process.stderr.write(`recall bench failed: ${error.stack ?? error}\n--- gate stderr (tail) ---\n${gate.stderrTail()}\n`);
    await gate.stop();
    process.exit(1);
  }
  await gate.stop();
  let profile = null;
  if (profDir) {
    const files = readdirSync(profDir).filter((f) => f.endsWith('.cpuprofile')).sort();
    if (files[0]) profile = { file: files[0], ...summarizeCpuProfile(join(profDir, files[0]), 20) };
    if (!opts['prof-dir']) rmSync(profDir, { recursive: true, force: true });
  }

  // ---- the floor, same text and queries, in this process
  log('floor: bare FTS5 on the same text and queries');
  const db = floorDb(dir);
  const bare = db.prepare('SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts) LIMIT ?');
  for (const q of warm) bare.all(expression(q.text, 'AND'), opts.k);
  const floorSamples = [];
  const planSamples = [];
  let andShort = 0;
  for (const q of queries) {
    const and = expression(q.text, 'AND');
    let t = performance.now();
    const rows = bare.all(and, opts.k);
    const andMs = performance.now() - t;
    floorSamples.push({ cls: q.cls, ms: andMs });
    // The gate's plan on the bare table: that AND, then OR when AND finds fewer than k.
    let orMs = 0;
    if (rows.length < opts.k && q.text.includes(' ')) {
      andShort++;
      t = performance.now();
      bare.all(expression(q.text, 'OR'), opts.k + rows.length);
      orMs = performance.now() - t;
    }
    planSamples.push({ cls: q.cls, ms: andMs + orMs });
  }
  db.close();

  let vector = null;
  if (opts.vector) {
    log('vector and hybrid recall, in-process on the same home, with their floors');
    const exactQueries = opts['exact-queries'] || (opts.rows < 500_000 ? 300 : 40);
    vector = await measureVectorInProcess({ root, home: join(dir, 'home'), queries, warm, k: opts.k, log, exactQueries });
  }

  const gateSum = summarize(gateSamples, classes);
  const floorSum = summarize(floorSamples, classes);
  const planSum = summarize(planSamples, classes);
  const mixCounts = Object.fromEntries(classes.map((c) => [c, queries.filter((q) => q.cls === c).length]));
  const size = opts.rows % 1_000_000 === 0 ? `${opts.rows / 1_000_000}m` : opts.rows % 1000 === 0 ? `${opts.rows / 1000}k` : `${opts.rows}`;
  const key = `lexical_${size}`;
  const vectorKeys = vector
    ? {
        // Through the socket when gv.recall serves the mode, else the in-process figure (named in `vector_${size}_detail`).
        [`vector_${size}`]: { ...(socketModes.vector ?? vector.vector), surface: socketModes.vector ? 'socket' : 'in-process' },
        [`hybrid_${size}`]: { ...(socketModes.hybrid ?? vector.hybrid), surface: socketModes.hybrid ? 'socket' : 'in-process' },
        [`vector_${size}_detail`]: { ...vector, socket: socketModes },
      }
    : {};
  const result = {
    ...vectorKeys,
    [key]: {
      p50_ms: gateSum.p50_ms,
      p90_ms: gateSum.p90_ms,
      p99_ms: gateSum.p99_ms,
      queries: queries.length,
      rows: opts.rows,
      k: opts.k,
      mean_hits: round(hitsTotal / queries.length, 2),
      queries_under_k_hits: short,
      by_class: gateSum.by_class,
    },
    floor: {
      fts5_p50_ms: floorSum.p50_ms,
      fts5_p99_ms: floorSum.p99_ms,
      by_class: floorSum.by_class,
      gate_plan_on_bare_fts5: { p50_ms: planSum.p50_ms, p99_ms: planSum.p99_ms, and_under_k_then_or: andShort, by_class: planSum.by_class },
    },
    query_mix: {
      words_per_query: '2 or 3 (even odds)',
      uncommon: { share: MIX.uncommon, queries: mixCounts.uncommon, how: `each word uniform over vocabulary ranks ${UNCOMMON_RANKS[0]}-${UNCOMMON_RANKS[1] - 1}` },
      common: { share: MIX.common, queries: mixCounts.common, how: 'each word Zipf-drawn like the corpus text' },
      mixed: { share: MIX.mixed, queries: mixCounts.mixed, how: 'one Zipf-drawn word plus one or two uncommon words' },
      corpus: `${fmtInt(opts.rows)} claims of ~1,000-1,100 bytes, words Zipf(s=${CORPUS_DEFAULTS.zipfS}) over a ${fmtInt(CORPUS_DEFAULTS.vocab)}-word vocabulary, each claim with a unique reference`,
      warmup: opts.warmup,
    },
    corpus_build: { built_at: manifest.built_at, ingest_per_s: manifest.ingest_per_s, promote_per_s: manifest.promote_per_s, build_seconds: manifest.build_seconds },
    surface: 'unix socket, one connection, one query in flight, admin caller, scope space main',
    cpu_during_gate_queries: cpuUse,
    machine: { ...machine(), ...(quiet ? { other_processes_cores_before: quiet.busy_cores, waited_for_quiet_s: quiet.waited_s } : {}) },
    measured_at: new Date().toISOString(),
    wall_seconds: round((Date.now() - started) / 1000, 0),
  };

  const row = (name, g, f, p) => [name, fmtInt(g.queries ?? queries.length), fmtMs(g.p50_ms), fmtMs(g.p99_ms), fmtMs(f.p50_ms), fmtMs(f.p99_ms), fmtMs(p.p50_ms), fmtMs(p.p99_ms)];
  printTable(
    [
      ['queries', 'n', 'gate p50', 'gate p99', 'FTS5 floor p50', 'floor p99', 'gate plan on bare p50', 'p99'],
      row('all', gateSum, floorSum, planSum),
      ...classes.map((c) => row(`  ${c}`, gateSum.by_class[c], floorSum.by_class[c], planSum.by_class[c])),
    ],
    `Lexical recall, ${fmtInt(opts.rows)} promoted rows, k=${opts.k}, ms (target: gate p50 < 5 ms)`,
  );
  log(`\nmix: ${classes.map((c) => `${c} ${mixCounts[c]}`).join(', ')}; 2-3 words each; mean hits ${result[key].mean_hits}; ` +
    `${andShort} of ${queries.length} queries found fewer than ${opts.k} rows with AND (the gate then also runs OR)`);
  if (cpuUse.other_processes_cores > 0.15) log(`note: other processes used ${cpuUse.other_processes_cores} cores while the gate was queried`);
  if (profile) {
    log(`\nCPU profile of the gate's main thread (${fmtInt(profile.total_ms)} ms sampled)`);
    printTable([['where (self time)', '%'], ...profile.by_place.slice(0, 10)]);
    printTable([['gate function (inclusive)', '%'], ...profile.inclusive_gate.slice(0, 15)]);
    printTable([['function (self time)', '%'], ...profile.by_function.slice(0, 12)]);
  }
  log(`\nverdict: gate p50 ${fmtMs(gateSum.p50_ms)} ms ${gateSum.p50_ms < 5 ? 'meets' : 'MISSES'} the target (< 5 ms)`);
  if (vector) {
    const f = vector.floor;
    // A row without a floor (or a floor without a p99) shows a dash, not NaN.
    const floorMs = (x) => (Number.isNaN(x) ? '—' : fmtMs(x));
    const vrow = (name, m, floorName, fl) => [name, fmtInt(m.queries), fmtMs(m.p50_ms), fmtMs(m.p99_ms), floorName, floorMs(fl.p50_ms), floorMs(fl.p99_ms)];
    printTable(
      [
        ['recall', 'n', 'p50', 'p99', 'floor (same vectors, same run)', 'floor p50', 'floor p99'],
        vrow('lexical, in-process', vector.lexical, 'bare FTS5 (above)', floorSum),
        vrow('vector, in-process', vector.vector, 'sqlite-vec exact int8 KNN k=10', f.sqlite_vec_exact_int8_knn),
        vrow('', vector.vector, 'kernel scan alone (200 nearest)', f.kernel_scan_200),
        vrow('', vector.vector, 'sqlite-vec bit[] KNN k=10', f.sqlite_vec_bit_knn_k10),
        vrow('', vector.vector, 'sqlite-vec bit[] KNN k=200', f.sqlite_vec_bit_knn_k200),
        vrow('hybrid, in-process', vector.hybrid, 'lexical + vector above', { p50_ms: vector.lexical.p50_ms + vector.vector.p50_ms, p99_ms: NaN }),
        ...Object.entries(socketModes).map(([mode, m]) => vrow(`${mode}, socket gv.recall`, m, '', { p50_ms: NaN, p99_ms: NaN })),
      ],
      `Vector and hybrid recall, ${fmtInt(vector.vectors)} vectors (${vector.model}), k=${opts.k}, ms (targets at 1M: hybrid p50 < 20, p99 < 60)`,
    );
    log(`vector top-${opts.k} against the exact KNN over ${vector.vector_agreement_with_exact.queries} queries: ${vector.vector_agreement_with_exact.recall_at_k} of its rows, ` +
      `${vector.vector_agreement_with_exact.score_ratio} of its cosine; ` +
      `partitions above ${fmtInt(vector.brute_force_max)} rows use the binary codes`);
  }
  if (opts.out) {
    mkdirSync(join(opts.out, '..'), { recursive: true });
    // Runs at other sizes keep their keys: the file holds the latest figures of each size.
    const previous = existsSync(opts.out) ? JSON.parse(readFileSync(opts.out, 'utf8')) : {};
    writeFileSync(opts.out, `${JSON.stringify({ ...previous, ...result, [`details_${size}`]: { floor: result.floor, query_mix: result.query_mix, corpus_build: result.corpus_build, measured_at: result.measured_at } }, null, 2)}\n`);
    log(`wrote ${opts.out}`);
  }
}

main().catch((error) => {
  process.stderr.write(`recall bench: ${error.stack ?? error}\n`);
  process.exit(1);
});
