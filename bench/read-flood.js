#!/usr/bin/env node
// Another caller's gv.ping while one reader key floods a long read (issue 45 item 7): a
// journal of ~120,000 events, 8 closed-loop gv.events callers (or gv.graph, gv.inventory,
// gv.lineage, gv.pending) on one reader key over POST /rpc, and a bystander (another reader
// key) calling gv.ping one call at a time.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { join, resolve } from 'node:path';
import {
  BENCH_DIR,
  CpuAccount,
  REPO_ROOT,
  SocketClient,
  fmtMs,
  gitShortHead,
  machine,
  parseOptions,
  percentiles,
  printTable,
  round,
  startGate,
  tempDir,
  waitQuiet,
} from './lib.js';

const USAGE = `
node bench/read-flood.js [options]

Fills a gate's journal with --events events (an ingest and its scan per claim, written by the
admin over the socket: nothing a reader key may read, the walk's worst case), then measures a
bystander reader key calling gv.ping over POST /rpc, one call in flight, --ping-every-ms apart:
alone, and each read called alone --solo-calls times (its own cost), then while --flooders closed-loop callers on one other reader key call a long read for
--seconds: gv.events (limit 1000, following next, from the start again once caught up), and
with --reads the others (gv.graph; gv.inventory with a q no row matches, a walk of the whole
view; gv.lineage; gv.pending limit 1000). Each flood runs twice: with the gate's default
long-read budget, and with the budget lifted (GATE_SERVER_LONG_READ_BUDGET_MS), which shows the
chunked reads alone. --root measures other builds' dist/ (say a checkout of main) on the same
home and steps, for a before-and-after; the results name each build by its commit (+changes
when its files differ from it), never its path. A call answered 429 is waited out as its
Retry-After says, as a client would.

Writes bench/results/read-flood.json (the run of each --root given, keyed by build).
Goal: the bystander's p50 under 100 ms while 8 flood.`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    events: { type: 'number', default: 120_000, help: 'journal events to fill (two a claim)' },
    flooders: { type: 'number', default: 8, help: 'concurrent callers of the long read on the one flooding key' },
    seconds: { type: 'number', default: 20, help: 'length of each flood phase' },
    'alone-pings': { type: 'number', default: 300, help: 'bystander pings measured with no flood' },
    reads: { type: 'string', default: 'events', help: 'comma list of the reads flooded in turn: events, graph, inventory, lineage, pending' },
    'ping-every-ms': { type: 'number', default: 20, help: 'pause between two bystander pings' },
    'solo-calls': { type: 'number', default: 5, help: "calls of each read, one at a time with nothing else running (a read's own cost)" },
    root: { type: 'string', default: '', help: 'comma list of checkouts whose dist/ to measure (default: this one)' },
    'wait-quiet': { type: 'number', default: 90, help: 'seconds to wait at most for other processes to quiet down' },
    out: { type: 'string', default: join(BENCH_DIR, 'results', 'read-flood.json'), help: 'results file' },
  },
  USAGE,
);

const log = (m) => process.stderr.write(`${m}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** One JSON-RPC call over POST /rpc on a keep-alive agent: {status, ms, body, retryAfter}. */
function rpc(agent, port, key, method, params) {
  const payload = JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) });
  const t0 = performance.now();
  return new Promise((resolveCall) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: '/rpc', method: 'POST', agent, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          let body = null;
          try {
            body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            body = null;
          }
          resolveCall({ status: res.statusCode, ms: performance.now() - t0, body, retryAfter: res.headers['retry-after'] });
        });
      },
    );
    req.setTimeout(120_000, () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolveCall({ status: e.message === 'timeout' ? 'timeout' : 'error', ms: performance.now() - t0, body: null }));
    req.end(payload);
  });
}

/** gv.ping by one caller, one call in flight, `everyMs` apart, until stop() or `count` calls. */
function bystander(port, key, everyMs, count = Infinity) {
  const lat = [];
  const statuses = {};
  let running = true;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const loop = (async () => {
    while (running && lat.length < count) {
      const r = await rpc(agent, port, key, 'gv.ping');
      lat.push(r.ms);
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      await sleep(everyMs);
    }
  })();
  const summary = () => {
    const p = percentiles(lat, [50, 99, 100]);
    return { calls: lat.length, statuses, p50_ms: round(p[50], 2), p99_ms: round(p[99], 2), max_ms: round(p[100], 2) };
  };
  return {
    done: loop.then(() => (agent.destroy(), summary())),
    async stop() {
      running = false;
      await loop;
      agent.destroy();
      return summary();
    },
  };
}

/** What each flood calls: the reads that walk the journal or a view, as a reader key asks them. */
const READS = {
  events: { method: 'gv.events', params: { limit: 1000 } },
  graph: { method: 'gv.graph', params: {} },
  inventory: { method: 'gv.inventory', params: { q: 'no-such-writer' } },
  lineage: { method: 'gv.lineage', params: {} },
  pending: { method: 'gv.pending', params: { limit: 1000 } },
};

/**
 * `n` closed-loop callers of one read on one key. gv.events follows `next` and walks the
 * journal from the start again once caught up; a 429 is waited out as its Retry-After says.
 */
function flood(port, key, n, read) {
  const { method, params } = READS[read];
  let running = true;
  const statuses = {};
  const lat = [];
  let events = 0;
  const retryAfter = new Set();
  const agent = new http.Agent({ keepAlive: true, maxSockets: n });
  const loops = Array.from({ length: n }, async () => {
    let since;
    while (running) {
      const r = await rpc(agent, port, key, method, { ...params, ...(since === undefined ? {} : { since }) });
      lat.push(r.ms);
      const code = r.body?.error?.code;
      const label = code === undefined ? String(r.status) : `${r.status} ${code}`;
      statuses[label] = (statuses[label] ?? 0) + 1;
      if (r.retryAfter !== undefined) retryAfter.add(r.retryAfter);
      const result = r.body?.result;
      if (result && read === 'events') {
        events += result.events.length;
        since = result.caught_up ? undefined : result.next;
      } else if (r.status === 429) {
        // As a client honouring Retry-After would: the flood resumes when the gate says.
        await sleep(Number(r.retryAfter ?? 1) * 1000);
      }
    }
  });
  return async () => {
    running = false;
    await Promise.all(loops);
    agent.destroy();
    const p = percentiles(lat, [50, 99]);
    return {
      read: method,
      calls: lat.length,
      statuses,
      ...(read === 'events' ? { events_served: events } : {}),
      call_p50_ms: round(p[50], 1),
      call_p99_ms: round(p[99], 1),
      retry_after_s: [...retryAfter].sort(),
    };
  };
}

/**
 * One read's cost with nothing else running: --solo-calls calls one after another by a key of
 * its own (so the flooding key's budget is untouched), each from the start of the journal.
 */
async function soloCalls(port, key, read) {
  const { method, params } = READS[read];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const lat = [];
  const statuses = {};
  for (let i = 0; i < opts['solo-calls']; i++) {
    const r = await rpc(agent, port, key, method, params);
    lat.push(r.ms);
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  }
  agent.destroy();
  const p = percentiles(lat, [50, 100]);
  return { read: method, calls: lat.length, statuses, p50_ms: round(p[50], 1), max_ms: round(p[100], 1) };
}

/** Fills the journal: `claims` ingests by the admin over `conns` socket connections, `depth` pipelined each. */
async function fill(socketPath, claims, conns = 4, depth = 16) {
  const clients = await Promise.all(Array.from({ length: conns }, () => SocketClient.open(socketPath)));
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    clients.flatMap((c) =>
      Array.from({ length: depth }, async () => {
        while (next < claims) {
          const i = next++;
          await c.call('gv.ingest', { content: `Flood claim ${i}: the gauge on line ${i % 211} read ${i % 97} bar at shift ${i % 3}.`, workarea: `fill/${i % 16}`, kind: 'memory', source_uri: `bench://read-flood/${i}` });
          if (i > 0 && i % 10_000 === 0) log(`  ${i} claims`);
        }
      }),
    ),
  );
  for (const c of clients) c.close();
  return round((performance.now() - t0) / 1000, 1);
}

const GATE_ENV = { GATE_QUARANTINE_MAX_DEPTH: '10000000', GATE_REVIEW_GRADE_EVERY: 'off', GATE_LOG_LEVEL: 'warn' };
/** The budget lifted: a day of main-thread time a window, which no flood of --seconds can spend. */
const BUDGET_LIFTED = { GATE_SERVER_LONG_READ_BUDGET_MS: String(86_400_000) };

/** Fills a new home's journal (with this checkout's build) and issues the two reader keys. */
async function prepare(home) {
  const gate = await startGate({ home, env: GATE_ENV });
  try {
    const admin = await SocketClient.open(gate.socketPath);
    const issue = async (label) => (await admin.call('gv.keys', { action: 'issue', role: 'reader', label })).key;
    const keys = { flood: await issue('flood'), bystander: await issue('bystander'), solo: await issue('solo') };
    admin.close();
    log(`filling ${opts.events} journal events`);
    const fillS = await fill(gate.socketPath, Math.ceil(opts.events / 2));
    return { keys, fillS };
  } finally {
    await gate.stop();
  }
}

/** One flood phase on a running gate: the flood of one read and the bystander beside it for --seconds. */
async function floodPhase(gate, keys, read) {
  const port = Number(new URL(gate.url).port);
  const cpu = new CpuAccount(gate.pid);
  const stopFlood = flood(port, keys.flood, opts.flooders, read);
  const by = bystander(port, keys.bystander, opts['ping-every-ms']);
  await sleep(opts.seconds * 1000);
  const bystanderPings = await by.stop();
  return { bystander: bystanderPings, flood: await stopFlood(), cpu: cpu.stop() };
}

/** A checkout's commit, marked when its files differ from it (the figures are then of uncommitted code). */
function buildName(root) {
  const head = gitShortHead(root) ?? 'unknown';
  try {
    return execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).trim() === '' ? head : `${head}+changes`;
  } catch {
    return head;
  }
}

/**
 * Starts one build on the filled home. Its gate.toml goes first: each build writes its own
 * (with the keys it knows) and refuses a key it does not know, such as another build's.
 */
function startOn(home, root, env) {
  rmSync(join(home, 'gate.toml'), { force: true });
  return startGate({ home, root, env });
}

/** The steps on one build's dist/, on the filled home: the bystander alone, then each read's flood under the default budget and lifted. */
async function measureBuild(root, home, keys, reads) {
  const build = buildName(root);
  const out = { build, floods: {} };
  for (const lifted of [false, true]) {
    const gate = await startOn(home, root, lifted ? { ...GATE_ENV, ...BUDGET_LIFTED } : GATE_ENV);
    try {
      if (!lifted) {
        out.quiet = await waitQuiet(opts['wait-quiet'], 0.25, log);
        log(`${build}: bystander alone`);
        out.alone = await bystander(Number(new URL(gate.url).port), keys.bystander, opts['ping-every-ms'], opts['alone-pings']).done;
      }
      if (!lifted) {
        out.alone_calls = {};
        for (const read of reads) out.alone_calls[read] = await soloCalls(Number(new URL(gate.url).port), keys.solo, read);
      }
      for (const read of reads) {
        log(`${build}: ${opts.flooders} ${READS[read].method} callers on one key for ${opts.seconds} s, ${lifted ? 'the budget lifted' : 'the default budget'}, a bystander beside them`);
        (out.floods[read] ??= {})[lifted ? 'budget_lifted' : 'default_budget'] = await floodPhase(gate, keys, read);
      }
    } finally {
      await gate.stop();
    }
  }
  return out;
}

const roots = opts.root === '' ? [REPO_ROOT] : opts.root.split(',').map((r) => resolve(r));
const reads = opts.reads.split(',').map((r) => r.trim());
const unknown = reads.find((r) => !(r in READS));
if (unknown !== undefined) throw new Error(`--reads names ${unknown}; the reads are ${Object.keys(READS).join(', ')}`);
const home = tempDir('gate-read-flood');
const runs = {};
let fillS;
try {
  const prepared = await prepare(home);
  fillS = prepared.fillS;
  for (const root of roots) {
    const run = await measureBuild(root, home, prepared.keys, reads);
    runs[run.build] = run;
    const row = (label, b) => [label, fmtMs(b.p50_ms), fmtMs(b.p99_ms), fmtMs(b.max_ms), String(b.calls)];
    printTable(
      [
        ['bystander gv.ping (ms)', 'p50', 'p99', 'max', 'calls'],
        row('alone', run.alone),
        ...reads.flatMap((read) => [
          row(`${opts.flooders} x ${read}, default budget`, run.floods[read].default_budget.bystander),
          row(`${opts.flooders} x ${read}, budget lifted`, run.floods[read].budget_lifted.bystander),
        ]),
      ],
      `build ${run.build}: ${opts.events} events`,
    );
    printTable([['one call alone (ms)', 'p50', 'max'], ...reads.map((read) => [read, fmtMs(run.alone_calls[read].p50_ms), fmtMs(run.alone_calls[read].max_ms)])]);
    printTable(
      [
        ['flood', 'calls', 'answers', 'call p50 ms'],
        ...reads.flatMap((read) =>
          ['default_budget', 'budget_lifted'].map((b) => {
            const f = run.floods[read][b].flood;
            return [`${read}, ${b.replace('_', ' ')}`, String(f.calls), Object.entries(f.statuses).map(([k, v]) => `${k}: ${v}`).join(', '), fmtMs(f.call_p50_ms)];
          }),
        ),
      ],
    );
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}
const result = {
  bench: 'read-flood',
  when: new Date().toISOString(),
  machine: machine(),
  goal: 'bystander p50 < 100 ms while 8 flood',
  events: opts.events,
  reads,
  flooders: opts.flooders,
  seconds: opts.seconds,
  fill_s: fillS,
  runs,
};
mkdirSync(join(BENCH_DIR, 'results'), { recursive: true });
writeFileSync(opts.out, `${JSON.stringify(result, null, 2)}\n`);
log(`wrote ${opts.out.startsWith(REPO_ROOT) ? opts.out.slice(REPO_ROOT.length + 1) : opts.out}`);
