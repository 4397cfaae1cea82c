#!/usr/bin/env node
// The cost of keeping the journal's Merkle tree, and the size of its proofs at a million
// events. In process (the journal, the tree and the client's checks imported from dist/),
// each figure beside floors measured in the same run; --baseline-root adds an end-to-end
// ingest comparison with a checkout built without the tree.
import { spawnSync } from 'node:child_process';
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { BENCH_DIR, REPO_ROOT, fmtInt, machine, parseOptions, percentiles, printTable, recordedPath, round, tempDir } from './lib.js';

const USAGE = `
node bench/merkle.js [options]

1. append: the journal's own append (dist Journal: canonical JSON, sha256, Ed25519, INSERT)
   of ~700-byte events, 12 to a transaction (a group commit's size under ingest), into two
   databases: one folding each event into the log tree (LogTreeReducer, as the gate does
   inside the append transaction), one not. Rounds alternate the two; CPU time per event
   (process.cpuUsage) best and median of the rounds, and the difference.
2. tree alone: the reducer's own CPU per event, at the start of a journal and at a million.
3. a million events: journal rows with random ids and the tree folded over them in
   transactions of 10,000 (through the gate's reducer, not through ingest), then the
   tree's storage, a checkpoint's size, inclusion proofs of random leaves and consistency
   proofs from several sizes: hashes, bytes as served (JSON), time to make (LogTreeReads)
   and to check (the client library's WebCrypto checks).
4. --baseline-root DIR: bench/ingest.js (POST /rpc only) against this checkout and DIR in
   turn, --ingest-rounds times each: claims/s and the gate main thread's CPU ms per claim.
Floors (same run, per second of CPU): sha256 of a leaf and of a node, the 1 KB SQLite
append (100 rows/tx), Ed25519 sign. Writes bench/results/merkle.json.`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    rounds: { type: 'number', default: 9, help: 'rounds of the append comparison (each appends --round-events with and without the tree)' },
    'round-events': { type: 'number', default: 6_000, help: 'events per side per round' },
    leaves: { type: 'number', default: 1_000_000, help: 'events in the large tree' },
    proofs: { type: 'number', default: 1_000, help: 'inclusion proofs made and checked at that size' },
    'baseline-root': { type: 'string', default: '', help: 'a checkout built without the tree: compare ingest end to end (empty: skip)' },
    'ingest-count': { type: 'number', default: 6_000, help: 'claims per ingest run of the comparison' },
    'ingest-rounds': { type: 'number', default: 2, help: 'ingest runs per checkout, alternated' },
    out: { type: 'string', default: join(BENCH_DIR, 'results', 'merkle.json'), help: 'result file ("" to write none)' },
  },
  USAGE,
);

const dist = (p) => join(REPO_ROOT, 'dist', 'src', p);
const { Journal } = await import(dist('journal/journal.js'));
const { DeploymentKey } = await import(dist('credentials/deployment-key.js'));
const { createJournalSchema } = await import(dist('journal/schema.js'));
const { signCheckpoint } = await import(dist('forms/checkpoint.js'));
const { LogTreeReducer, logTreeTables } = await import(dist('projections/log-tree.js'));
const { LogTreeReads } = await import(dist('projections/log-tree-reads.js'));
const { verifyCheckpoint, verifyInclusion, verifyConsistency } = await import('@gate/client/proofs');

const log = (s) => process.stdout.write(`${s}\n`);
const dir = tempDir('gate-bench-merkle');
const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const median = (xs) => percentiles(xs, [50])[50];
const started = Date.now();

// ---------------------------------------------------------------- floors

function floors() {
  const leaf = Buffer.concat([Buffer.from([0]), randomBytes(32)]);
  const node = Buffer.concat([Buffer.from([1]), randomBytes(64)]);
  // Per second of this process's CPU, like every figure beside them: on a machine shared with
  // other work, wall time counts the time the scheduler gave to others.
  const rate = (fn, ms = 400) => {
    let n = 0;
    const t0 = cpuUs();
    while (cpuUs() - t0 < ms * 1000) for (let i = 0; i < 1000; i++, n++) fn();
    return n / ((cpuUs() - t0) / 1e6);
  };
  const sha256Leaf = rate(() => createHash('sha256').update(leaf).digest());
  const sha256Node = rate(() => createHash('sha256').update(node).digest());
  const { privateKey } = generateKeyPairSync('ed25519');
  const kb = randomBytes(1024);
  const signs = rate(() => sign(null, kb, privateKey), 300);
  const db = new Database(join(dir, 'floor.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE j (seq INTEGER PRIMARY KEY, id TEXT UNIQUE, type TEXT, body TEXT); CREATE INDEX j_type ON j(type)');
  const insert = db.prepare('INSERT INTO j (seq, id, type, body) VALUES (?, ?, ?, ?)');
  const body = JSON.stringify({ pad: 'x'.repeat(1000) });
  const rows = 100_000;
  const t0 = cpuUs();
  const tx = db.transaction((from) => {
    for (let s = from; s < from + 100; s++) insert.run(s, randomBytes(32).toString('hex'), 'ingest', body);
  });
  for (let s = 1; s <= rows; s += 100) tx(s);
  const appendBatched = rows / ((cpuUs() - t0) / 1e6);
  db.close();
  return { sha256_leaf_per_s: sha256Leaf, sha256_node_per_s: sha256Node, ed25519_sign_per_s: signs, append_batched_per_s: appendBatched };
}

// ---------------------------------------------------------------- 1. the append path with and without the tree

function appender(name, withTree) {
  const db = new Database(join(dir, `${name}.db`));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  createJournalSchema(db);
  db.exec(logTreeTables('main'));
  const key = DeploymentKey.openOrCreate(join(dir, `${name}.key`));
  const reducer = new LogTreeReducer(db, 'main');
  const journal = new Journal(db, key, { now: () => Date.now() }, withTree ? reducer : { apply: () => {} });
  let n = 0;
  const pad = 'p'.repeat(400);
  const batch = db.transaction((count) => {
    for (let i = 0; i < count; i++, n++) {
      journal.append('ingest', 'key:0123456789ab', { artifact_id: `sha256:${createHash('sha256').update(String(n)).digest('hex')}`, space: 'main', workarea: 'bench/merkle', kind: 'memory', size_bytes: 1000, pad });
    }
  });
  return {
    db,
    /** CPU µs per event over `events` appended 12 to a transaction. */
    run(events) {
      const t0 = cpuUs();
      for (let done = 0; done < events; done += 12) batch(Math.min(12, events - done));
      return (cpuUs() - t0) / events;
    },
  };
}

function appendComparison() {
  const withTree = appender('with-tree', true);
  const without = appender('without-tree', false);
  withTree.run(2000);
  without.run(2000);
  const a = [];
  const b = [];
  for (let r = 0; r < opts.rounds; r++) {
    // Alternate which side goes first: load from other processes drifts within a round.
    if (r % 2 === 0) {
      a.push(withTree.run(opts['round-events']));
      b.push(without.run(opts['round-events']));
    } else {
      b.push(without.run(opts['round-events']));
      a.push(withTree.run(opts['round-events']));
    }
  }
  const nodes = withTree.db.prepare('SELECT count(*) FROM log_tree').pluck().get();
  const events = withTree.db.prepare('SELECT max(seq) FROM journal').pluck().get();
  withTree.db.close();
  without.db.close();
  const best = (xs) => Math.min(...xs);
  return {
    events_per_round: opts['round-events'],
    rounds: opts.rounds,
    with_tree_us_per_event: { best: round(best(a), 2), median: round(median(a), 2), rounds: a.map((x) => round(x, 2)) },
    without_tree_us_per_event: { best: round(best(b), 2), median: round(median(b), 2), rounds: b.map((x) => round(x, 2)) },
    tree_us_per_event: { best_minus_best: round(best(a) - best(b), 2), median_minus_median: round(median(a) - median(b), 2) },
    round_spread_us: { with_tree: round(Math.max(...a) - best(a), 2), without_tree: round(Math.max(...b) - best(b), 2) },
    tree_nodes_per_event: round(nodes / events, 3),
  };
}

// ---------------------------------------------------------------- 2 and 3. a million leaves

function largeTree() {
  const db = new Database(join(dir, 'large.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  createJournalSchema(db);
  // The tree in a file of its own, so its storage is the file's size.
  db.prepare('ATTACH DATABASE ? AS tree').run(join(dir, 'large-tree.db'));
  db.exec(logTreeTables('tree'));
  const reducer = new LogTreeReducer(db, 'tree');
  const insert = db.prepare("INSERT INTO journal (seq, event_id, prev, ts, type, body, sig) VALUES (?, ?, ?, 0, 'e', '{}', '')");
  let prev = null;
  let treeUs = 0;
  const firstUs = [];
  const step = 10_000;
  const chunk = db.transaction((from, to) => {
    const events = [];
    for (let seq = from; seq <= to; seq++) {
      const id = randomBytes(32).toString('hex');
      insert.run(seq, id, prev);
      events.push({ v: 1, seq, type: 'e', ts: 0, prev, by: null, data: {}, event_id: id, sig: '' });
      prev = id;
    }
    const t0 = cpuUs();
    for (const e of events) reducer.apply(e);
    const us = cpuUs() - t0;
    treeUs += us;
    return us / events.length;
  });
  const t0 = performance.now();
  for (let from = 1; from <= opts.leaves; from += step) {
    const per = chunk(from, Math.min(opts.leaves, from + step - 1));
    if (from <= 5 * step) firstUs.push(per);
    if (from + step > opts.leaves) firstUs.push(per);
  }
  const buildSeconds = (performance.now() - t0) / 1000;
  db.pragma('tree.wal_checkpoint(TRUNCATE)');
  const treeBytes = statSync(join(dir, 'large-tree.db')).size;
  return { db, buildSeconds, treeUsPerEvent: treeUs / opts.leaves, firstChunksUs: firstUs.slice(0, 5), lastChunkUs: firstUs.at(-1), treeBytes };
}

async function proofsAt(db) {
  const reads = new LogTreeReads(db);
  const n = reads.size();
  const key = DeploymentKey.openOrCreate(join(dir, 'large.key'));
  const t0 = performance.now();
  const root = reads.root(n);
  const rootUs = (performance.now() - t0) * 1000;
  const note = signCheckpoint(key, n, root);
  const checkpoint = await verifyCheckpoint(key.deploymentId, note);
  const ids = db.prepare('SELECT event_id FROM journal WHERE seq = ?').pluck();

  const make = [];
  const check = [];
  const hashes = [];
  const bytes = [];
  for (let i = 0; i < opts.proofs; i++) {
    const leaf = Math.floor(Math.random() * n);
    const a = performance.now();
    const proof = reads.inclusion(leaf, n);
    make.push((performance.now() - a) * 1000);
    const served = { leaf_index: proof.leaf_index, hashes: proof.hashes.map((h) => h.toString('base64')) };
    hashes.push(served.hashes.length);
    bytes.push(JSON.stringify(served).length);
    const b = performance.now();
    await verifyInclusion(checkpoint, ids.get(leaf + 1), served, leaf + 1);
    check.push((performance.now() - b) * 1000);
  }
  const consistency = [];
  for (const m of [1, 1000, Math.floor(n / 2), 2 ** Math.floor(Math.log2(n)), n - 1]) {
    if (m < 1 || m > n) continue;
    const a = performance.now();
    const proof = reads.consistency(m, n);
    const makeUs = (performance.now() - a) * 1000;
    const older = await verifyCheckpoint(key.deploymentId, signCheckpoint(key, m, reads.root(m)));
    const served = proof.map((h) => h.toString('base64'));
    const b = performance.now();
    await verifyConsistency(older, checkpoint, served);
    consistency.push({ from_size: m, hashes: served.length, bytes: JSON.stringify({ from_size: m, hashes: served }).length, make_us: round(makeUs, 1), check_us: round((performance.now() - b) * 1000, 1) });
  }
  const p = (xs) => percentiles(xs, [50, 99]);
  return {
    tree_size: n,
    root_us: round(rootUs, 1),
    checkpoint_bytes: Buffer.byteLength(note),
    inclusion: {
      proofs: opts.proofs,
      hashes_min: Math.min(...hashes),
      hashes_max: Math.max(...hashes),
      json_bytes_p50: p(bytes)[50],
      json_bytes_max: Math.max(...bytes),
      make_us_p50: round(p(make)[50], 1),
      make_us_p99: round(p(make)[99], 1),
      check_us_p50: round(p(check)[50], 1),
      check_us_p99: round(p(check)[99], 1),
    },
    consistency,
  };
}

// ---------------------------------------------------------------- 4. ingest end to end

function ingestRun(root, label, i) {
  const out = join(dir, `ingest-${label}-${i}.json`);
  const run = spawnSync(
    process.execPath,
    [join(BENCH_DIR, 'ingest.js'), '--gate-root', root, '--count', String(opts['ingest-count']), '--warmup', '1000', '--socket-count', '0', '--pipe-count', '0',
      '--skip-floors', '--wait-quiet', '0', '--out', out],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (run.status !== 0) throw new Error(`bench/ingest.js against ${root} failed (${run.status}):\n${run.stdout}`);
  const r = JSON.parse(readFileSync(out, 'utf8'));
  return {
    checkout: label,
    claims_per_s: r.http.claims_per_s,
    p99_ms: r.http.p99_ms,
    main_thread_cpu_ms_per_claim: r.http.cpu.main_thread_cpu_ms_per_claim,
    other_processes_cores: r.http.cpu.other_processes_cores,
  };
}

// ---------------------------------------------------------------- run

log(`machine: ${JSON.stringify(machine())}`);
const floor = floors();
log('floors measured; the append comparison runs');
const append = appendComparison();
log(`building a tree of ${fmtInt(opts.leaves)} events`);
const large = largeTree();
const proofs = await proofsAt(large.db);
large.db.close();
let ingest = null;
if (opts['baseline-root'] !== '') {
  ingest = [];
  for (let i = 0; i < opts['ingest-rounds']; i++) {
    ingest.push(ingestRun(REPO_ROOT, 'this (tree)', i));
    ingest.push(ingestRun(opts['baseline-root'], 'baseline (no tree)', i));
  }
}

printTable(
  [
    ['floor (in-process, this run)', 'per CPU s', 'docs/performance.md'],
    ['sha256 of a leaf (33 B), node:crypto', fmtInt(floor.sha256_leaf_per_s), '~491,000 (of 1 KB)'],
    ['sha256 of a node (65 B)', fmtInt(floor.sha256_node_per_s), ''],
    ['SQLite append, 100 rows/tx (1 KB rows)', fmtInt(floor.append_batched_per_s), '~160,000'],
    ['Ed25519 sign (node:crypto)', fmtInt(floor.ed25519_sign_per_s), '~31,000'],
  ],
);
printTable(
  [
    ['journal append, 12 events a transaction', 'CPU µs/event best', 'median', 'spread of rounds'],
    ['without the tree', append.without_tree_us_per_event.best, append.without_tree_us_per_event.median, append.round_spread_us.without_tree],
    ['with the tree', append.with_tree_us_per_event.best, append.with_tree_us_per_event.median, append.round_spread_us.with_tree],
    ['the tree (difference)', append.tree_us_per_event.best_minus_best, append.tree_us_per_event.median_minus_median, ''],
  ],
  `Keeping the tree in the append path (${opts.rounds} rounds of ${fmtInt(opts['round-events'])} events each side; ${append.tree_nodes_per_event} stored nodes an event)`,
);
const hashUs = 1e6 / floor.sha256_node_per_s;
printTable(
  [
    ['the reducer alone', 'CPU µs/event'],
    ['first 50,000 events (per 10,000)', large.firstChunksUs.map((x) => round(x, 2)).join(' ')],
    [`last 10,000 of ${fmtInt(opts.leaves)}`, round(large.lastChunkUs, 2)],
    [`mean over ${fmtInt(opts.leaves)}`, round(large.treeUsPerEvent, 2)],
    ['floor: 2 node hashes (the mean an event costs)', round(2 * hashUs, 2)],
  ],
);
printTable(
  [
    [`at ${fmtInt(proofs.tree_size)} events`, 'figure'],
    ['tree storage (log_tree)', `${round(large.treeBytes / 2 ** 20, 1)} MiB, ${round(large.treeBytes / opts.leaves, 1)} bytes an event`],
    ['build (journal rows + tree), wall', `${round(large.buildSeconds, 1)} s`],
    ['root from the stored tree', `${proofs.root_us} µs`],
    ['checkpoint note', `${proofs.checkpoint_bytes} bytes`],
    ['inclusion proof: hashes', `${proofs.inclusion.hashes_min}-${proofs.inclusion.hashes_max}`],
    ['inclusion proof as served (JSON)', `p50 ${proofs.inclusion.json_bytes_p50} bytes, max ${proofs.inclusion.json_bytes_max}`],
    ['inclusion: make / check (client, WebCrypto)', `p50 ${proofs.inclusion.make_us_p50} / ${proofs.inclusion.check_us_p50} µs, p99 ${proofs.inclusion.make_us_p99} / ${proofs.inclusion.check_us_p99} µs`],
    ...proofs.consistency.map((c) => [`consistency from ${fmtInt(c.from_size)}`, `${c.hashes} hashes, ${c.bytes} bytes; make ${c.make_us} µs, check ${c.check_us} µs`]),
  ],
);
if (ingest) {
  printTable(
    [['ingest over /rpc (bench/ingest.js, http only)', 'claims/s', 'p99 ms', 'main thread ms/claim', 'other processes (cores)'],
      ...ingest.map((r) => [r.checkout, fmtInt(r.claims_per_s), r.p99_ms, r.main_thread_cpu_ms_per_claim, r.other_processes_cores])],
    `End to end, alternated (${opts['ingest-count']} claims a run)`,
  );
}

const result = {
  bench: 'merkle',
  machine: machine(),
  floors: Object.fromEntries(Object.entries(floor).map(([k, v]) => [k, Math.round(v)])),
  append,
  reducer: {
    us_per_event_first_chunks: large.firstChunksUs.map((x) => round(x, 2)),
    us_per_event_last_chunk: round(large.lastChunkUs, 2),
    us_per_event_mean: round(large.treeUsPerEvent, 2),
  },
  at_scale: { leaves: opts.leaves, tree_bytes: large.treeBytes, tree_bytes_per_event: round(large.treeBytes / opts.leaves, 1), build_seconds: round(large.buildSeconds, 1), ...proofs },
  ...(ingest ? { ingest_end_to_end: { baseline_root: recordedPath(opts['baseline-root']), claims_per_run: opts['ingest-count'], runs: ingest } } : {}),
  measured_at: new Date().toISOString(),
  wall_seconds: round((Date.now() - started) / 1000, 0),
};
rmSync(dir, { recursive: true, force: true });
if (opts.out) {
  mkdirSync(join(opts.out, '..'), { recursive: true });
  writeFileSync(opts.out, `${JSON.stringify(result, null, 2)}\n`);
  log(`wrote ${opts.out}`);
}
