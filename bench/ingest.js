#!/usr/bin/env node
// Ingest throughput, latency and memory of a gate, over POST /rpc and over the local
// socket, with the raw floors (SQLite append, Ed25519 sign) measured in the same run.
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  BENCH_DIR,
  REPO_ROOT,
  CpuAccount,
  HttpClient,
  waitQuiet,
  RssSampler,
  SocketClient,
  corpus,
  fmtInt,
  fmtMs,
  gateBuildStatus,
  machine,
  parseOptions,
  percentiles,
  printTable,
  round,
  startGate,
  summarizeCpuProfile,
  tempDir,
} from './lib.js';

const USAGE = `
node bench/ingest.js [options]

Measures gv.ingest of unique ~1 KB English-like claims (Zipf-drawn words):
  http    POST /rpc, --clients concurrent keep-alive clients (one request in flight each),
          each with its own agent key; --count claims (default 100,000), with the gate's
          RSS at 10%, 50% and 100% of the run so memory flatness is visible.
  socket  the unix socket as admin, --socket-conns connections with one request in flight each.
  socket_pipelined  the socket with few connections and several requests in flight on each
          (--pipe-conns x --pipe-depth); the gate answers a connection's requests one after
          another, so this shows what pipelining on one connection buys.
Floors, measured in this process in the same run (docs/performance.md#floors defines them):
  append_per_s          raw SQLite append, 1 KB JSON event rows, WAL, synchronous=FULL, one row per transaction
  append_batched_per_s  the same, 100 rows per transaction
  append_normal_per_s   one row per transaction, synchronous=NORMAL (for reference)
  sign_per_s            Ed25519 crypto.sign(null, 1 KB, KeyObject)
The gate runs on a temporary home (removed afterwards) with quarantine.max_depth raised.
Writes bench/results/ingest.json. Target: >= 2,000 claims/s over HTTP with p99 < 50 ms.`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    count: { type: 'number', default: 100_000, help: 'claims in the HTTP run' },
    clients: { type: 'number', default: 32, help: 'concurrent HTTP clients (keep-alive, one request in flight each)' },
    'socket-count': { type: 'number', default: 20_000, help: 'claims in the socket run' },
    'socket-conns': { type: 'number', default: 32, help: 'socket connections, one request in flight each' },
    'pipe-count': { type: 'number', default: 8_000, help: 'claims in the pipelined socket run (0 skips it)' },
    'pipe-conns': { type: 'number', default: 4, help: 'connections of the pipelined socket run' },
    'pipe-depth': { type: 'number', default: 8, help: 'requests in flight on each connection of the pipelined run' },
    warmup: { type: 'number', default: 2_000, help: 'HTTP claims before measuring (not counted)' },
    'max-seconds': { type: 'number', default: 200, help: 'time cap of the HTTP run: past it no new claims are sent and what was measured is recorded' },
    'scan-threads': { type: 'number', default: undefined, help: "GATE_SCAN_THREADS for the gate (none: the gate's default)" },
    synchronous: { type: 'string', default: 'full', help: 'GATE_JOURNAL_SYNCHRONOUS: full or normal' },
    'floor-rows': { type: 'number', default: 10_000, help: 'rows of the one-row-per-transaction FULL append floor (batched: 20x)' },
    statements: { type: 'boolean', default: false, help: 'load bench/statement-probe.js into the gate and print the SQLite statements, rows changed and time per claim of the http run' },
    'cpu-prof': { type: 'boolean', default: false, help: "run the gate under node --cpu-prof and print where its main thread's time goes" },
    'prof-dir': { type: 'string', default: '', help: 'with --cpu-prof: keep the .cpuprofile files in this directory (default: summarize, then delete)' },
    'wait-quiet': { type: 'number', default: 90, help: 'seconds to wait at most, before measuring, for other processes to use < 0.25 core (0: do not wait)' },
    'skip-floors': { type: 'boolean', default: false, help: 'do not measure the floors' },
    'gate-root': { type: 'string', default: REPO_ROOT, help: 'checkout whose dist/ is run' },
    'gate-node-args': { type: 'string', default: '', help: "more node flags for the gate, after its bin's launch line's (e.g. '--max-semi-space-size=64')" },
    out: { type: 'string', default: join(BENCH_DIR, 'results', 'ingest.json'), help: 'results file ("" to write none)' },
  },
  USAGE,
);

const log = (s) => process.stdout.write(`${s}\n`);

// ---------------------------------------------------------------- floors

function floorAppend(dir, { rows, perTx, synchronous }) {
  const file = join(dir, `floor-${perTx}-${synchronous}.db`);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.exec(`CREATE TABLE ev (seq INTEGER PRIMARY KEY, event_id TEXT NOT NULL, artifact_id TEXT, body TEXT NOT NULL);
    CREATE UNIQUE INDEX ev_id ON ev(event_id);
    CREATE INDEX ev_artifact ON ev(artifact_id);`);
  const insert = db.prepare('INSERT INTO ev (seq, event_id, artifact_id, body) VALUES (?, ?, ?, ?)');
  const pad = randomBytes(420).toString('hex').slice(0, 760);
  const row = (seq) => {
    const eventId = (seq * 2654435761 + 0x9e3779b9).toString(16).padStart(64, '0');
    const artifact = `sha256:${(seq * 40503 + 17).toString(16).padStart(64, 'a')}`;
    const body = JSON.stringify({ v: 1, seq, type: 'ingest', ts: 1_790_000_000_000 + seq, prev: eventId, by: 'key:0123456789ab', data: { artifact_id: artifact, space: 'main', workarea: 'bench/w1', pad } });
    return [seq, eventId, artifact, body];
  };
  const tx = db.transaction((from, n) => {
    for (let s = from; s < from + n; s++) insert.run(...row(s));
  });
  const t0 = performance.now();
  for (let s = 1; s <= rows; s += perTx) tx(s, Math.min(perTx, rows - s + 1));
  const ms = performance.now() - t0;
  db.close();
  for (const f of readdirSync(dir)) if (f.startsWith(`floor-${perTx}-${synchronous}.db`)) rmSync(join(dir, f));
  return rows / (ms / 1000);
}

function floorSign() {
  const { privateKey } = generateKeyPairSync('ed25519');
  const data = randomBytes(1024);
  const rates = [];
  for (let r = 0; r < 3; r++) {
    let n = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < 600) {
      for (let i = 0; i < 200; i++) sign(null, data, privateKey);
      n += 200;
    }
    rates.push(n / ((performance.now() - t0) / 1000));
  }
  return rates.sort((a, b) => a - b)[1];
}

function measureFloors() {
  const dir = tempDir('gate-bench-floor');
  try {
    const rows = opts['floor-rows'];
    const f = {
      append_per_s: floorAppend(dir, { rows, perTx: 1, synchronous: 'FULL' }),
      append_batched_per_s: floorAppend(dir, { rows: rows * 20, perTx: 100, synchronous: 'FULL' }),
      append_normal_per_s: floorAppend(dir, { rows: rows * 2, perTx: 1, synchronous: 'NORMAL' }),
      sign_per_s: floorSign(),
    };
    return Object.fromEntries(Object.entries(f).map(([k, v]) => [k, Math.round(v)]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- load

function checkAnswer(msg, tally) {
  if (msg.error) {
    const k = `error ${msg.error.code}: ${msg.error.message}`;
    tally.errors.set(k, (tally.errors.get(k) ?? 0) + 1);
    return false;
  }
  if (msg.result?.duplicate) tally.duplicates++;
  tally.states.set(msg.result?.state, (tally.states.get(msg.result?.state) ?? 0) + 1);
  return true;
}

const newTally = () => ({ errors: new Map(), states: new Map(), duplicates: 0 });
const tallyJson = (t) => ({
  ...(t.errors.size ? { errors: Object.fromEntries(t.errors) } : {}),
  states: Object.fromEntries(t.states),
  ...(t.duplicates ? { duplicates: t.duplicates } : {}),
});

const claimParams = (text, i, tag) => ({ content: text, workarea: `bench/w${i % 8}`, kind: 'memory', source_uri: `bench://${tag}/${i}` });

/**
 * Closed-loop HTTP load: `clients` workers, each sending its next claim when the last is
 * answered. Returns throughput, latency percentiles and RSS checkpoints.
 */
async function httpRun(gate, keys, { count, tag, rss, maxSeconds, progress = false }) {
  const client = new HttpClient(gate.url, { maxSockets: keys.length });
  const gen = corpus({ tag });
  const lat = new Float64Array(count);
  const tally = newTally();
  const marks = { p10: Math.ceil(count * 0.1), p50: Math.ceil(count * 0.5), p100: count };
  const rssAt = {};
  const splitAt = {};
  const series = [];
  let next = 0;
  let done = 0;
  let ok = 0;
  let stopReason = null;
  const cpu = new CpuAccount(gate.pid);
  const t0 = performance.now();
  let lastPrint = t0;
  const worker = async (w) => {
    const key = keys[w];
    while (next < count) {
      if (maxSeconds && performance.now() - t0 > maxSeconds * 1000) {
        stopReason ??= `time cap of ${maxSeconds} s reached`;
        return;
      }
      const i = next++;
      const params = claimParams(gen.claim(i), i, tag);
      const s = performance.now();
      const { status, body } = await client.send(key, 'gv.ingest', params);
      lat[done] = performance.now() - s;
      done++;
      if (status === 200 && checkAnswer(body, tally)) ok++;
      else if (status !== 200) {
        const k = `http ${status}: ${JSON.stringify(body).slice(0, 120)}`;
        tally.errors.set(k, (tally.errors.get(k) ?? 0) + 1);
      }
      for (const [name, at] of Object.entries(marks)) {
        if (done === at) {
          rssAt[name] = rss.rssMb;
          splitAt[name] = rss.split;
        }
      }
      if (done % Math.max(1, Math.floor(count / 10)) === 0) series.push(rss.rssMb);
      if (progress && performance.now() - lastPrint > 10_000) {
        lastPrint = performance.now();
        const s2 = (lastPrint - t0) / 1000;
        log(`  ... ${fmtInt(done)} claims in ${s2.toFixed(0)} s (${fmtInt(done / s2)}/s), gate RSS ${rss.rssMb} MB`);
      }
    }
  };
  await Promise.all(keys.map((_, w) => worker(w)));
  const ms = performance.now() - t0;
  const cpuUse = cpu.stop(done);
  client.close();
  if (done < count) {
    // a capped run records RSS where it stopped
    rssAt.p100 = rss.rssMb;
    splitAt.p100 = rss.split;
  }
  const p = percentiles(lat.subarray(0, done), [50, 90, 99, 99.9]);
  return {
    claims: ok,
    sent: done,
    seconds: round(ms / 1000, 1),
    claims_per_s: Math.round(ok / (ms / 1000)),
    p50_ms: round(p[50], 2),
    p90_ms: round(p[90], 2),
    p99_ms: round(p[99], 2),
    p999_ms: round(p[99.9], 2),
    rss_mb_at: rssAt,
    anon_mb_at: Object.fromEntries(Object.entries(splitAt).map(([k, v]) => [k, v.anon])),
    file_mb_at: Object.fromEntries(Object.entries(splitAt).map(([k, v]) => [k, v.file])),
    rss_mb_series: series,
    cpu: cpuUse,
    ...(stopReason ? { stopped_early: stopReason } : {}),
    ...tallyJson(tally),
  };
}

/** Socket load: `conns` connections with `depth` requests in flight on each. */
async function socketRun(gate, { count, conns, depth, tag }) {
  const clients = await Promise.all(Array.from({ length: conns }, () => SocketClient.open(gate.socketPath)));
  const gen = corpus({ tag });
  const lat = new Float64Array(count);
  const tally = newTally();
  let next = 0;
  let done = 0;
  let ok = 0;
  const cpu = new CpuAccount(gate.pid);
  const t0 = performance.now();
  const lane = async (c) => {
    while (next < count) {
      const i = next++;
      const params = claimParams(gen.claim(i), i, tag);
      const s = performance.now();
      const msg = await c.send('gv.ingest', params);
      lat[done++] = performance.now() - s;
      if (checkAnswer(msg, tally)) ok++;
    }
  };
  await Promise.all(clients.flatMap((c) => Array.from({ length: depth }, () => lane(c))));
  const ms = performance.now() - t0;
  const cpuUse = cpu.stop(done);
  for (const c of clients) c.close();
  const p = percentiles(lat.subarray(0, done), [50, 90, 99, 99.9]);
  return {
    claims: ok,
    connections: conns,
    in_flight_per_connection: depth,
    seconds: round(ms / 1000, 1),
    claims_per_s: Math.round(ok / (ms / 1000)),
    p50_ms: round(p[50], 2),
    p90_ms: round(p[90], 2),
    p99_ms: round(p[99], 2),
    p999_ms: round(p[99.9], 2),
    cpu: cpuUse,
    ...tallyJson(tally),
  };
}

// ---------------------------------------------------------------- main

async function main() {
  const build = gateBuildStatus(opts['gate-root']);
  if (!build.ok) {
    process.stderr.write(`ingest bench: the gate is not built (missing ${build.missing.join(', ')}); run: npx tsc -p tsconfig.json\n`);
    process.exit(2);
  }
  const started = Date.now();
  const quiet = opts['wait-quiet'] > 0 ? await waitQuiet(opts['wait-quiet'], 0.25, log) : null;
  if (quiet && !quiet.quiet) log(`the machine is still busy (${quiet.busy_cores} cores used by other processes): measuring anyway`);
  let floor = null;
  if (!opts['skip-floors']) {
    log('floors (in-process): SQLite appends and Ed25519 signing ...');
    floor = measureFloors();
  }

  const env = {
    GATE_QUARANTINE_MAX_DEPTH: '10000000',
    GATE_JOURNAL_SYNCHRONOUS: opts.synchronous,
    ...(opts['scan-threads'] !== undefined ? { GATE_SCAN_THREADS: String(opts['scan-threads']) } : {}),
  };
  const home = tempDir('gate-bench-ingest');
  const profDir = opts['cpu-prof'] ? (opts['prof-dir'] ? (mkdirSync(opts['prof-dir'], { recursive: true }), opts['prof-dir']) : tempDir('gate-bench-prof')) : null;
  const stmtFile = opts.statements ? join(tempDir('gate-bench-stmt'), 'statements.json') : null;
  const gate = await startGate({
    home,
    root: opts['gate-root'],
    removeHome: true,
    env: stmtFile ? { ...env, GATE_BENCH_STMT_FILE: stmtFile } : env,
    nodeArgs: [
      ...opts['gate-node-args'].split(/\s+/).filter(Boolean),
      ...(profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : []),
      ...(stmtFile ? ['--import', join(BENCH_DIR, 'statement-probe.js')] : []),
    ],
  });
  log(`gate pid ${gate.pid} at ${gate.url}, socket ${gate.socketPath}`);
  const rss = new RssSampler(gate.pid, 100);
  let http;
  let socket;
  let pipelined = null;
  let config;
  try {
    const admin = await SocketClient.open(gate.socketPath);
    config = await admin.call('gv.describe', {}).catch(() => null);
    const keys = [];
    for (let i = 0; i < opts.clients; i++) {
      keys.push((await admin.call('gv.keys', { action: 'issue', role: 'agent', label: `bench-${i}` })).key);
    }
    admin.close();

    if (opts.warmup > 0) {
      log(`warm-up: ${fmtInt(opts.warmup)} claims over HTTP`);
      await httpRun(gate, keys, { count: opts.warmup, tag: 'warm', rss });
    }
    log(`http: ${fmtInt(opts.count)} claims, ${opts.clients} keep-alive clients`);
    if (stmtFile) await readStatements(gate, stmtFile); // starts the count over
    http = await httpRun(gate, keys, { count: opts.count, tag: 'http', rss, maxSeconds: opts['max-seconds'], progress: true });
    if (stmtFile) http.statements = perClaim(await readStatements(gate, stmtFile), http.sent);
    http.peak_rss_mb = rss.peakMb;
    log(`socket: ${fmtInt(opts['socket-count'])} claims, ${opts['socket-conns']} connections x 1 in flight`);
    socket = await socketRun(gate, { count: opts['socket-count'], conns: opts['socket-conns'], depth: 1, tag: 'sock' });
    socket.peak_rss_mb = rss.peakMb;
    if (opts['pipe-count'] > 0) {
      log(`socket pipelined: ${fmtInt(opts['pipe-count'])} claims, ${opts['pipe-conns']} connections x ${opts['pipe-depth']} in flight`);
      pipelined = await socketRun(gate, { count: opts['pipe-count'], conns: opts['pipe-conns'], depth: opts['pipe-depth'], tag: 'pipe' });
      pipelined.peak_rss_mb = rss.peakMb;
    }
  } catch (error) {
    process.stderr.write(`ingest bench failed: ${error.stack ?? error}\n--- gate stderr (tail) ---\n${gate.stderrTail()}\n`);
    rss.stop();
    await gate.stop();
    process.exit(1);
  }
  rss.stop();
  const t = performance.now();
  const stopped = await gate.stop();
  const stopSeconds = round((performance.now() - t) / 1000, 1);

  let profile = null;
  if (profDir) {
    const files = readdirSync(profDir).filter((f) => f.endsWith('.cpuprofile')).sort();
    // The main thread's profile is the one written first (lowest thread id); workers follow.
    const summaries = files.map((f) => ({ file: f, ...summarizeCpuProfile(join(profDir, f), 20) }));
    profile = summaries;
    if (!opts['prof-dir']) rmSync(profDir, { recursive: true, force: true });
    else log(`CPU profiles kept in ${profDir}`);
  }

  const result = {
    http,
    socket,
    ...(pipelined ? { socket_pipelined: pipelined } : {}),
    floor,
    machine: { ...machine(), ...(quiet ? { other_processes_cores_before: quiet.busy_cores, waited_for_quiet_s: quiet.waited_s } : {}) },
    config: {
      env,
      http_clients: opts.clients,
      socket: `${opts['socket-conns']} connections, one request in flight each`,
      ...(pipelined ? { socket_pipelined: `${opts['pipe-conns']} connections x ${opts['pipe-depth']} in flight` } : {}),
      warmup: opts.warmup,
      claim_bytes: '~1,000-1,100 (unique, Zipf-drawn words over a 5,000-word vocabulary)',
      gate_stop: { ...stopped, seconds: stopSeconds },
      ...(config ? { gate_status: pickStatus(config) } : {}),
      ...(opts['cpu-prof'] ? { cpu_prof: true } : {}),
    },
    measured_at: new Date().toISOString(),
    wall_seconds: round((Date.now() - started) / 1000, 0),
  };

  const f = floor ?? {};
  printTable(
    [
      ['surface', 'claims', 'claims/s', 'p50 ms', 'p99 ms', 'peak RSS MB', 'floor beside it'],
      ['http (POST /rpc)', fmtInt(http.claims), fmtInt(http.claims_per_s), fmtMs(http.p50_ms), fmtMs(http.p99_ms), http.peak_rss_mb,
        floor ? `append ${fmtInt(f.append_per_s)}/s (1 row/tx FULL), ${fmtInt(f.append_batched_per_s)}/s (100/tx)` : '(floors skipped)'],
      [`socket (${opts['socket-conns']}x1)`, fmtInt(socket.claims), fmtInt(socket.claims_per_s), fmtMs(socket.p50_ms), fmtMs(socket.p99_ms), socket.peak_rss_mb,
        floor ? `sign ${fmtInt(f.sign_per_s)}/s (2 events = 2 signs per claim)` : ''],
      ...(pipelined
        ? [[`socket (${opts['pipe-conns']}x${opts['pipe-depth']} pipelined)`, fmtInt(pipelined.claims), fmtInt(pipelined.claims_per_s), fmtMs(pipelined.p50_ms), fmtMs(pipelined.p99_ms), pipelined.peak_rss_mb, '']]
        : []),
    ],
    `Ingest (target: http >= 2,000 claims/s, p99 < 50 ms)`,
  );
  printTable(
    [
      ['gate RSS over the http run', 'at 10%', 'at 50%', 'at 100%', 'peak'],
      ['RSS MB', http.rss_mb_at.p10, http.rss_mb_at.p50, http.rss_mb_at.p100, http.peak_rss_mb],
      ['  anon (own memory)', http.anon_mb_at.p10, http.anon_mb_at.p50, http.anon_mb_at.p100, ''],
      ['  file (gate.db via mmap)', http.file_mb_at.p10, http.file_mb_at.p50, http.file_mb_at.p100, ''],
    ],
  );
  printTable(
    [
      ['CPU during the run (cores of ' + machine().cpus + ')', 'gate', 'gate main thread', 'bench client', 'other processes',
        'main thread ms/claim (target < 0.5)', 'workers ms/claim', 'load avg 1m start/end'],
      ...[['http', http], ['socket', socket], ['socket_pipelined', pipelined]]
        .filter(([, r]) => r)
        .map(([n, r]) => [n, r.cpu.gate_cores, r.cpu.gate_main_thread_cores, r.cpu.bench_client_cores, r.cpu.other_processes_cores,
          r.cpu.main_thread_cpu_ms_per_claim, r.cpu.workers_cpu_ms_per_claim, `${r.cpu.loadavg_1m_5m.start[0]} / ${r.cpu.loadavg_1m_5m.end[0]}`]),
    ],
  );
  const busy = Math.max(http.cpu.other_processes_cores, socket.cpu.other_processes_cores);
  if (busy > 0.15) log(`note: other processes used up to ${busy} cores during the runs: the figures are lower than on a quiet machine`);
  if (floor) {
    printTable(
      [
        ['floor (in-process, this run)', 'per s', 'docs/performance.md'],
        ['SQLite append, 1 row/tx, FULL', fmtInt(f.append_per_s), '~5,500'],
        ['SQLite append, 100 rows/tx', fmtInt(f.append_batched_per_s), '~160,000'],
        ['SQLite append, 1 row/tx, NORMAL', fmtInt(f.append_normal_per_s), '~40,000'],
        ['Ed25519 sign (node:crypto)', fmtInt(f.sign_per_s), '~31,000'],
      ],
    );
  }
  for (const [name, r] of [['http', http], ['socket', socket], ['socket_pipelined', pipelined]]) {
    if (r?.errors) log(`\n${name}: refused or failed answers: ${JSON.stringify(r.errors)}`);
    if (r?.stopped_early) log(`\n${name}: ${r.stopped_early} after ${fmtInt(r.sent)} of ${fmtInt(opts.count)} claims`);
  }
  if (profile) {
    for (const p of profile) {
      log(`\nCPU profile ${p.file} (${fmtInt(p.total_ms)} ms sampled)`);
      printTable([['where (self time)', '%'], ...p.by_place.slice(0, 12)]);
      printTable([['gate function (inclusive)', '%'], ...p.inclusive_gate.slice(0, 20)]);
      printTable([['function (self time)', '%'], ...p.by_function.slice(0, 15)]);
    }
  }
  if (http.statements) {
    const st = http.statements;
    log(`\nSQLite per claim over the http run: ${st.statements_per_claim} statements, ${st.rows_changed_per_claim} rows changed, ${st.wal_pages_per_claim} pages written to the WAL, ` +
      `${st.statement_ms_per_claim} ms in statements, ${st.transaction_ms_per_claim} ms inside transactions (${st.claims_per_transaction} claims a transaction); ` +
      `COMMIT ms p10/p50/p90/p99/max ${['p10', 'p50', 'p90', 'p99', 'max'].map((k) => st.commit_ms[k]).join(' / ')}`);
    printTable([['B-tree (its pages in the WAL; owner at the end of the run)', 'pages/claim'],
      ...st.wal_pages_by_tree.slice(0, 20).map((r) => [r.tree, r.pages_per_claim])]);
    printTable([['statement', 'calls/claim', 'rows/claim', 'µs/claim', 'µs/call'],
      ...st.top.map((r) => [r.sql.slice(0, 90), r.calls_per_claim, r.rows_per_claim, r.us_per_claim, r.us_per_call])]);
  }
  log(`\nverdict: http ${http.claims_per_s >= 2000 && http.p99_ms < 50 ? 'meets' : 'MISSES'} the target (${fmtInt(http.claims_per_s)} claims/s, p99 ${fmtMs(http.p99_ms)} ms)`);
  if (opts.out) {
    mkdirSync(join(opts.out, '..'), { recursive: true });
    writeFileSync(opts.out, `${JSON.stringify(result, null, 2)}\n`);
    log(`wrote ${opts.out}`);
  }
}

/** Asks the statement probe in the gate for its totals since the last ask (SIGUSR2). */
async function readStatements(gate, file) {
  rmSync(file, { force: true });
  process.kill(gate.pid, 'SIGUSR2');
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 50));
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      // not written yet
    }
  }
  throw new Error('the statement probe did not answer');
}

function perClaim({ transactions, commit_ms, wal_pages, wal_pages_by_tree, statements }, claims) {
  const per = (v, d = 2) => round(v / claims, d);
  return {
    statements_per_claim: per(statements.reduce((a, r) => a + r.calls, 0)),
    rows_changed_per_claim: per(statements.reduce((a, r) => a + r.changes, 0)),
    statement_ms_per_claim: per(statements.reduce((a, r) => a + r.ms, 0), 4),
    transaction_ms_per_claim: per(transactions.ms, 4),
    claims_per_transaction: round(claims / Math.max(1, transactions.count), 1),
    wal_pages_per_claim: per(wal_pages),
    commit_ms,
    wal_pages_by_tree: wal_pages_by_tree.map((r) => ({ tree: r.tree, pages_per_claim: per(r.pages, 3) })),
    top: statements.slice(0, 25).map((r) => ({
      sql: r.sql,
      calls_per_claim: per(r.calls, 3),
      rows_per_claim: per(r.changes, 3),
      us_per_claim: per(r.ms * 1000, 1),
      us_per_call: round((r.ms * 1000) / Math.max(1, r.calls), 1),
    })),
  };
}

/** The few status fields worth keeping beside the figures. */
function pickStatus(status) {
  const keep = {};
  for (const k of ['service', 'version']) if (status?.[k] !== undefined) keep[k] = status[k];
  return keep;
}

main().catch((error) => {
  process.stderr.write(`ingest bench: ${error.stack ?? error}\n`);
  process.exit(1);
});
