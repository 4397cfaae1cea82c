#!/usr/bin/env node
// gv.grade_pending over held rows against a loopback model backend answering in 50 ms,
// alongside a steady ingest load: rows graded per second, the gate's main-thread
// event-loop delay, and ingest latency with and without grading. Floors measured in the
// same run: the backend itself at the same concurrency, and ingest alone.
import { readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import http from 'node:http';
import {
  BENCH_DIR,
  REPO_ROOT,
  CpuAccount,
  HttpClient,
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
  waitQuiet,
} from './lib.js';
import { startModelServer } from './model-server.js';

const USAGE = `
node bench/grade.js [options]

1. Starts a model server on 127.0.0.1 (OpenAI chat completions, every answer an approval
   after --delay-ms) and a gate whose two stances (positive, critical) are answered by it;
   main is model-reviewed, so grading records verdicts and promotes nothing.
2. Holds --rows claims (ingested over the socket before measuring).
3. ingest alone: a steady --ingest-rate claims/s over POST /rpc for --alone-seconds:
   ingest p50/p99 and the gate's event-loop delay (perf_hooks, --import event-loop-probe.js).
4. grading: gv.grade_pending {limit: --rows} over the socket while the same ingest load
   runs: rows/s, ingest p50/p99 and the event-loop delay meanwhile.
Floor: the model server called straight from this process at the same concurrency
(calls/s, and rows/s = calls/s / 2 stances). Target: grading does not raise ingest p99
above the foundation's 50 ms. Writes bench/results/grade.json.`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    rows: { type: 'number', default: 10_000, help: 'held rows graded' },
    'delay-ms': { type: 'number', default: 50, help: "the model server's answer time" },
    concurrency: { type: 'number', default: 8, help: "review.concurrency: model calls in flight (the config's default)" },
    threads: { type: 'number', default: 1, help: 'review.threads: grade pool threads' },
    'ingest-rate': { type: 'number', default: 300, help: 'claims/s of the steady ingest load (open loop)' },
    'alone-seconds': { type: 'number', default: 15, help: 'length of the ingest-alone phase' },
    'floor-calls': { type: 'number', default: 4_000, help: 'calls of the backend floor' },
    'wait-quiet': { type: 'number', default: 60, help: 'seconds to wait for other processes to quiet down first (0: do not wait)' },
    'gate-root': { type: 'string', default: REPO_ROOT, help: 'checkout whose dist/ to run' },
    'cpu-prof': { type: 'boolean', default: false, help: "run the gate under node --cpu-prof and print where its main thread's time goes" },
  },
  USAGE,
);

const log = (m) => process.stderr.write(`[grade] ${m}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The backend floor: `calls` chat completions straight from here, `concurrency` in flight. */
async function backendFloor(url, calls, concurrency) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const u = new URL(`${url}/chat/completions`);
  const body = JSON.stringify({ model: 'bench-model', messages: [{ role: 'user', content: 'x' }] });
  const one = () =>
    new Promise((res, rej) => {
      const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (r) => {
        r.resume();
        r.on('end', res);
      });
      req.on('error', rej);
      req.end(body);
    });
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next++ < calls) await one();
  }));
  agent.destroy();
  return calls / ((performance.now() - t0) / 1000);
}

/** An open-loop ingest load: one claim every 1/rate s (at most 64 in flight) until `done()`. */
async function steadyIngest(client, keys, { rate, done, tag }) {
  const gen = corpus({ tag });
  const lat = [];
  const inflight = new Set();
  let i = 0;
  let skipped = 0;
  let errors = 0;
  const period = 1000 / rate;
  let next = performance.now();
  while (!done()) {
    const now = performance.now();
    if (now < next) {
      await sleep(Math.min(next - now, 5));
      continue;
    }
    next += period;
    if (inflight.size >= 64) {
      skipped++;
      continue;
    }
    const n = i++;
    const s = performance.now();
    const p = client
      .send(keys[n % keys.length], 'gv.ingest', { content: gen.claim(n), workarea: `bench/grade/${tag}`, kind: 'memory', source_uri: `bench://grade/${tag}/${n}` })
      .then((r) => {
        lat.push(performance.now() - s);
        if (r.body?.error) errors++;
      })
      .finally(() => inflight.delete(p));
    inflight.add(p);
  }
  await Promise.all(inflight);
  const p = percentiles(Float64Array.from(lat), [50, 99]);
  return { claims: lat.length, p50_ms: round(p[50], 2), p99_ms: round(p[99], 2), errors, skipped_at_64_in_flight: skipped };
}

/** The gate's event-loop delay since the last call (SIGUSR2 to the probe). */
async function eventLoop(gate, file) {
  rmSync(file, { force: true });
  process.kill(gate.pid, 'SIGUSR2');
  for (let i = 0; i < 100; i++) {
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      await sleep(20);
    }
  }
  throw new Error('the event-loop probe wrote nothing');
}

async function main() {
  const build = gateBuildStatus(opts['gate-root']);
  if (!build.ok) {
    process.stderr.write(`grade bench: the gate is not built (missing ${build.missing.join(', ')}); run: npx tsc -p tsconfig.json\n`);
    process.exit(2);
  }
  const started = Date.now();
  const quiet = opts['wait-quiet'] > 0 ? await waitQuiet(opts['wait-quiet'], 0.25, log) : null;
  const model = await startModelServer({ delayMs: opts['delay-ms'] });
  log(`backend floor: ${fmtInt(opts['floor-calls'])} calls, ${opts.concurrency} in flight`);
  const floorCalls = await backendFloor(model.url, opts['floor-calls'], opts.concurrency);
  const dir = tempDir('gate-bench-grade');
  const eldFile = join(dir, 'event-loop.json');
  const env = {
    GATE_QUARANTINE_MAX_DEPTH: '10000000',
    GATE_SPACES_MAIN_POLICY: 'model',
    GATE_REVIEW_GRADE_EVERY: 'off',
    GATE_REVIEW_BUDGET_PER_DAY: '1000000000000',
    GATE_REVIEW_CONCURRENCY: String(opts.concurrency),
    GATE_REVIEW_THREADS: String(opts.threads),
    GATE_REVIEW_SECOND_OPINION: '',
    GATE_REVIEW_BACKENDS: JSON.stringify({
      bench: { kind: 'openai', url: model.url, model: 'bench-model', timeout_ms: 60_000, max_retries: 3, max_tokens: 256, circuit_failures: 1000 },
    }),
    GATE_REVIEW_STANCES: JSON.stringify({ positive: 'bench', critical: 'bench' }),
    GATE_BENCH_ELD_FILE: eldFile,
  };
  const profDir = opts['cpu-prof'] ? join(dir, 'prof') : null;
  const nodeArgs = ['--import', join(BENCH_DIR, 'event-loop-probe.js'), ...(profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : [])];
  const gate = await startGate({ home: join(dir, 'home'), env, root: opts['gate-root'], removeHome: true, nodeArgs });
  log(`gate pid ${gate.pid} at ${gate.url}`);
  let result;
  try {
    const admin = await SocketClient.open(gate.socketPath);
    const keys = [];
    for (let i = 0; i < 8; i++) keys.push((await admin.call('gv.keys', { action: 'issue', role: 'agent', label: `grade-bench-${i}` })).key);
    admin.close();

    log(`holding ${fmtInt(opts.rows)} rows (socket, 8 connections x 8 in flight)`);
    const conns = await Promise.all(Array.from({ length: 8 }, () => SocketClient.open(gate.socketPath)));
    const gen = corpus({ tag: 'held' });
    let next = 0;
    await Promise.all(conns.flatMap((c) => Array.from({ length: 8 }, async () => {
      while (next < opts.rows) {
        const n = next++;
        await c.call('gv.ingest', { content: gen.claim(n), workarea: 'bench/grade/held', kind: 'memory', source_uri: `bench://grade/held/${n}` });
      }
    })));
    for (const c of conns) c.close();
    // The embed stage vectors every held row after its commit: wait until the gate is idle,
    // so its catch-up is not counted against either phase.
    for (let idle = 0; idle < 2; ) {
      const cpu = new CpuAccount(gate.pid);
      await sleep(1_000);
      idle = cpu.stop().gate_cores < 0.1 ? idle + 1 : 0;
    }

    const client = new HttpClient(gate.url, { maxSockets: 64 });
    log(`ingest alone: ${opts['ingest-rate']}/s for ${opts['alone-seconds']} s`);
    await eventLoop(gate, eldFile);
    const aloneEnd = performance.now() + opts['alone-seconds'] * 1000;
    const alone = await steadyIngest(client, keys, { rate: opts['ingest-rate'], done: () => performance.now() >= aloneEnd, tag: 'alone' });
    const aloneLoop = await eventLoop(gate, eldFile);

    log(`grading ${fmtInt(opts.rows)} rows with ingest alongside`);
    const grader = await SocketClient.open(gate.socketPath);
    const cpu = new CpuAccount(gate.pid);
    let graded = null;
    const t0 = performance.now();
    const grading = grader.call('gv.grade_pending', { limit: opts.rows }).then((r) => {
      graded = r;
      return performance.now() - t0;
    });
    const during = await steadyIngest(client, keys, { rate: opts['ingest-rate'], done: () => graded !== null, tag: 'during' });
    const gradeMs = await grading;
    const cpuUse = cpu.stop();
    const gradingLoop = await eventLoop(gate, eldFile);
    grader.close();
    client.close();
    const rowsPerS = Math.round(graded.graded / (gradeMs / 1000));
    result = {
      rows_per_s: rowsPerS,
      concurrency: opts.concurrency,
      event_loop_p99_ms: gradingLoop.p99_ms,
      ingest_p99_ms_while_grading: during.p99_ms,
      ingest_p99_ms_alone: alone.p99_ms,
      detail: {
        graded,
        grading_seconds: round(gradeMs / 1000, 1),
        model_calls: model.calls(),
        event_loop_alone: aloneLoop,
        event_loop_while_grading: gradingLoop,
        ingest_alone: alone,
        ingest_while_grading: during,
        cpu_while_grading: cpuUse,
      },
      floor: {
        backend_calls_per_s: Math.round(floorCalls),
        backend_rows_per_s: Math.round(floorCalls / 2),
        ingest_p99_target_ms: 50,
      },
      machine: { ...machine(), ...(quiet ? { other_processes_cores_before: quiet.busy_cores } : {}) },
      config: { rows: opts.rows, delay_ms: opts['delay-ms'], threads: opts.threads, ingest_rate: opts['ingest-rate'], stances: 2 },
      measured_at: new Date().toISOString(),
      wall_seconds: round((Date.now() - started) / 1000, 0),
    };
  } catch (error) {
    process.stderr.write(`grade bench failed: ${error.stack ?? error}\n--- gate stderr (tail) ---\n${gate.stderrTail()}\n`);
    await gate.stop();
    await model.stop();
    process.exit(1);
  }
  await gate.stop();
  await model.stop();
  if (profDir) {
    // The main thread's profile is written first (lowest thread id); the pools' follow.
    const main = readdirSync(profDir).filter((f) => f.endsWith('.cpuprofile')).sort()[0];
    if (main) result.detail.main_thread_profile = summarizeCpuProfile(join(profDir, main), 25);
    console.log(JSON.stringify(result.detail.main_thread_profile, null, 1));
  }
  rmSync(dir, { recursive: true, force: true });

  printTable(
    [
      ['grading', 'figure', 'floor beside it'],
      ['rows graded/s (2 stances)', fmtInt(result.rows_per_s), `backend alone ${fmtInt(result.floor.backend_rows_per_s)} rows/s (${fmtInt(result.floor.backend_calls_per_s)} calls/s at ${opts.concurrency} in flight)`],
      ['event-loop delay p99 while grading', `${fmtMs(result.event_loop_p99_ms)} ms`, `${fmtMs(result.detail.event_loop_alone.p99_ms)} ms with ingest alone`],
      ['ingest p99 while grading', `${fmtMs(result.ingest_p99_ms_while_grading)} ms`, `${fmtMs(result.ingest_p99_ms_alone)} ms alone; target < 50 ms`],
      ['ingest p50 while grading', `${fmtMs(result.detail.ingest_while_grading.p50_ms)} ms`, `${fmtMs(result.detail.ingest_alone.p50_ms)} ms alone`],
    ],
    `gv.grade_pending over ${fmtInt(opts.rows)} held rows, backend answering in ${opts['delay-ms']} ms, ingest at ${opts['ingest-rate']}/s alongside`,
  );
  mkdirSync(join(BENCH_DIR, 'results'), { recursive: true });
  writeFileSync(join(BENCH_DIR, 'results', 'grade.json'), `${JSON.stringify(result, null, 2)}\n`);
  log('wrote bench/results/grade.json');
}

main().catch((error) => {
  process.stderr.write(`grade bench: ${error.stack ?? error}\n`);
  process.exit(1);
});
