#!/usr/bin/env node
// Overload: what hostile or heavy clients cost the gate's memory and every other caller's
// wait. Two loads, each beside a bystander (another key calling gv.ping one call at a time),
// each also run against a bare node:http server that reads whole bodies (the floor).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import {
  BENCH_DIR,
  REPO_ROOT,
  SocketClient,
  fmtInt,
  fmtMs,
  machine,
  parseOptions,
  percentiles,
  printTable,
  recordedOptions,
  round,
  startGate,
  tempDir,
  waitQuiet,
} from './lib.js';

const USAGE = `
node bench/overload.js [options]

stalls:  --connections raw connections at once, in thirds: headers never finished; POST /rpc
         with one agent key spelled in every letter case of "Bearer", each sending 5 bytes of
         a declared 100-byte body and nothing more; keyless POST /mcp doing the same. Held for
         --hold-s seconds or until the gate closes them.
ingests: --ingests parallel gv.ingest calls of --ingest-mib MiB each over POST /rpc, one agent
         key each; those refused (429/503) retry after Retry-After until all are in.
Both: a bystander key calls gv.ping, one call in flight, all along. Figures: the gate's peak
RSS (/proc/PID/status VmRSS sampled every 20 ms), the bystander's statuses and latency, how
the stalled connections ended. Floors, same run: a bare node:http server reading whole
bodies under the same two loads (its peak RSS; the bystander's latency against it).
Writes bench/results/overload.json.`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    connections: { type: 'number', default: 1500, help: 'stalled or slow connections at once' },
    'hold-s': { type: 'number', default: 15, help: 'longest a stalled connection is held open by the bench' },
    ingests: { type: 'number', default: 50, help: 'parallel large ingests' },
    'ingest-mib': { type: 'number', default: 4, help: 'MiB of each ingest request (the default request limit is 4 MiB)' },
    root: { type: 'string', default: REPO_ROOT, help: 'the checkout whose dist/ is run (another build, to compare)' },
    'wait-quiet': { type: 'number', default: 60, help: 'seconds to wait at most for other processes to use < 0.25 core (0: do not wait)' },
    out: { type: 'string', default: join(BENCH_DIR, 'results', 'overload.json'), help: 'results file ("" to write none)' },
  },
  USAGE,
);
const log = (s) => process.stdout.write(`${s}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- measuring

/** Peak VmRSS of a process over a phase (VmHWM is the lifetime peak, so it cannot tell phases apart). */
class PhasePeak {
  constructor(pid) {
    this.pid = pid;
    this.peakKb = 0;
    this.timer = setInterval(() => this.sample(), 20);
    this.sample();
  }
  sample() {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'))?.[1] ?? 0);
      this.peakKb = Math.max(this.peakKb, kb);
    } catch {}
  }
  stop() {
    clearInterval(this.timer);
    this.sample();
    return round(this.peakKb / 1024, 1);
  }
}

const rssMb = (pid) => round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024, 1);

/** One POST on a fresh connection; resolves {status, retryAfter, ms, body}; never rejects. */
function post(port, path, headers, payload) {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...headers } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, retryAfter: res.headers['retry-after'], ms: performance.now() - t0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', () => resolve({ status: 'reset', ms: performance.now() - t0 }));
    });
    req.on('error', (e) => resolve({ status: e.code ?? 'error', ms: performance.now() - t0 }));
    req.end(payload);
  });
}

/** gv.ping by one caller, one call in flight, until stop(): what every other caller meets meanwhile. */
function bystander(port, key) {
  const lat = [];
  const statuses = {};
  let running = true;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const payload = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'gv.ping' });
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      const status = await new Promise((resolve) => {
        const req = http.request({ host: '127.0.0.1', port, path: '/rpc', method: 'POST', agent, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': payload.length } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode));
        });
        req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
        req.on('error', (e) => resolve(e.message === 'timeout' ? 'timeout' : 'error'));
        req.end(payload);
      });
      lat.push(performance.now() - t0);
      statuses[status] = (statuses[status] ?? 0) + 1;
      await sleep(20);
    }
  })();
  return async () => {
    running = false;
    await loop;
    agent.destroy();
    const p = percentiles(lat, [50, 99, 100]);
    return { calls: lat.length, statuses, p50_ms: round(p[50], 2), p99_ms: round(p[99], 2), max_ms: round(p[100], 2) };
  };
}

/** Every letter-case spelling of "Bearer" (the scheme is case-insensitive; 64 of them). */
const bearerSpellings = () => Array.from({ length: 64 }, (_, n) => [...'bearer'].map((c, i) => ((n >> i) & 1 ? c.toUpperCase() : c)).join(''));

/**
 * `count` raw connections in thirds (unfinished headers; keyed /rpc and keyless /mcp
 * bodies that stop after 5 bytes), held at most `holdMs`. Resolves how they ended.
 */
async function stall(port, key, count, holdMs) {
  const spellings = bearerSpellings();
  // answered: by the first status line each connection got (a 429 leaves it open on keep-alive).
  const ended = { answered: {}, closed_without_answer: 0, still_open_at_end: 0 };
  const releaseMs = [];
  const t0 = performance.now();
  const sockets = [];
  const done = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 3;
    const s = connect(port, '127.0.0.1');
    sockets.push(s);
    let head;
    if (kind === 0) head = `POST /rpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n`;
    else if (kind === 1) head = `POST /rpc HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${spellings[i % spellings.length]} ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jso`;
    else head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jso`;
    let answer = null;
    done.push(
      new Promise((resolve) => {
        s.on('connect', () => s.write(head));
        s.on('data', (d) => {
          answer ??= /^HTTP\/1\.1 (\d{3})/.exec(d.toString('latin1'))?.[1] ?? 'other';
        });
        s.on('error', () => {});
        s.on('close', () => {
          const at = performance.now() - t0;
          if (answer !== null) ended.answered[answer] = (ended.answered[answer] ?? 0) + 1;
          else if (at >= holdMs) ended.still_open_at_end++;
          else ended.closed_without_answer++;
          if (at < holdMs) releaseMs.push(at);
          resolve();
        });
      }),
    );
    // Connections answered (429) stay open on keep-alive: they hold nothing of the gate's.
    if (i % 100 === 99) await sleep(5);
  }
  const timer = setTimeout(() => {
    for (const s of sockets) s.destroy();
  }, holdMs);
  await Promise.all(done);
  clearTimeout(timer);
  return { ...ended, last_released_ms: releaseMs.length ? round(Math.max(...releaseMs), 0) : null };
}

/** One unique claim whose request body is `bytes` long: pseudo-words, so the scanner works on text. */
function bigIngestPayload(bytes, i, tag) {
  const head = { jsonrpc: '2.0', id: i, method: 'gv.ingest', params: { workarea: `bench/o${i % 8}`, kind: 'memory', source_uri: `bench://overload/${tag}/${i}`, content: '' } };
  const room = bytes - Buffer.byteLength(JSON.stringify(head)) - 1;
  const words = ['gate', 'claim', 'review', 'quorum', 'signed', 'journal', 'recall', 'steering', 'bundle', 'memory'];
  let text = `claim ${tag} ${i}:`;
  let n = i * 7919;
  const parts = [text];
  let len = text.length;
  while (len < room) {
    n = (n * 1103515245 + 12345) >>> 0;
    const w = ` ${words[n % words.length]}${n % 97}`;
    parts.push(w);
    len += w.length;
  }
  text = parts.join('').slice(0, room);
  head.params.content = text;
  return JSON.stringify(head);
}

/** `count` parallel large posts, one key each; refused ones retry after Retry-After until all are in or `capMs`. */
async function ingestBurst(port, keys, payloads, capMs) {
  const t0 = performance.now();
  const first = {};
  let attempts = 0;
  const refusedRetryAfter = new Set();
  const inAtMs = [];
  await Promise.all(
    payloads.map(async (payload, i) => {
      for (let round = 0; performance.now() - t0 < capMs; round++) {
        attempts++;
        const r = await post(port, '/rpc', keys[i] ? { authorization: `Bearer ${keys[i]}` } : {}, payload);
        if (round === 0) first[r.status] = (first[r.status] ?? 0) + 1;
        if (r.status === 200) {
          inAtMs.push(performance.now() - t0);
          return;
        }
        if (r.status === 429 || r.status === 503) refusedRetryAfter.add(r.retryAfter ?? 'none');
        await sleep(1000 * Number(r.retryAfter ?? 1));
      }
    }),
  );
  return {
    first_round: first,
    retry_after_seen: [...refusedRetryAfter],
    attempts,
    ingested: inAtMs.length,
    all_in_ms: inAtMs.length === payloads.length ? round(Math.max(...inAtMs), 0) : null,
  };
}

// ---------------------------------------------------------------- the floor

/** A bare node:http server in its own process that reads every body whole and answers a small JSON. */
async function startFloorServer() {
  const src = `
    const http = require('node:http');
    const s = http.createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => { const b = Buffer.concat(chunks); const t = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { bytes: b.length } }); res.writeHead(200, { 'content-type': 'application/json', 'content-length': t.length }); res.end(t); });
    });
    s.headersTimeout = 10000; s.requestTimeout = 60000;
    s.listen(0, '127.0.0.1', () => console.log(s.address().port));`;
  const child = spawn(process.execPath, ['-e', src], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
  return { pid: child.pid, port, stop: () => child.kill('SIGKILL') };
}

// ---------------------------------------------------------------- the runs

async function measure(target, keys, label) {
  const out = { rss_idle_mb: rssMb(target.pid) };
  log(`${label}: ${opts.connections} stalled connections for up to ${opts['hold-s']} s, a bystander beside them`);
  let peak = new PhasePeak(target.pid);
  let stopBystander = bystander(target.port, keys.bystander);
  const stalls = await stall(target.port, keys.attacker, opts.connections, opts['hold-s'] * 1000);
  out.stalls = { peak_rss_mb: peak.stop(), connections: stalls, bystander: await stopBystander() };
  await sleep(1000);
  log(`${label}: ${opts.ingests} parallel ${opts['ingest-mib']} MiB ingests, a bystander beside them`);
  const tag = `${label}-${Date.now().toString(36)}`;
  const payloads = Array.from({ length: opts.ingests }, (_, i) => bigIngestPayload(Math.floor(opts['ingest-mib'] * 2 ** 20), i, tag));
  out.rss_before_ingests_mb = rssMb(target.pid);
  peak = new PhasePeak(target.pid);
  stopBystander = bystander(target.port, keys.bystander);
  const burst = await ingestBurst(target.port, keys.ingest, payloads, 180_000);
  out.ingests = { peak_rss_mb: peak.stop(), ...burst, bystander: await stopBystander() };
  return out;
}

async function main() {
  const quiet = opts['wait-quiet'] > 0 ? await waitQuiet(opts['wait-quiet'], 0.25, log) : null;
  const floorServer = await startFloorServer();
  const floor = await measure(floorServer, { attacker: 'gk_floor', bystander: 'gk_floor', ingest: [] }, 'floor (bare node:http)');
  floorServer.stop();

  const home = tempDir('gate-bench-overload');
  const gate = await startGate({ home, root: opts.root, removeHome: true, env: { GATE_REVIEW_GRADE_EVERY: 'off' } });
  const port = Number(new URL(gate.url).port);
  let result;
  try {
    const admin = await SocketClient.open(gate.socketPath);
    const issue = async () => {
      const r = await admin.send('gv.keys', { action: 'issue', role: 'agent' });
      if (r.error) throw new Error(`key issue: ${r.error.message}`);
      return r.result.key;
    };
    const keys = { attacker: await issue(), bystander: await issue(), ingest: [] };
    for (let i = 0; i < opts.ingests; i++) keys.ingest.push(await issue());
    admin.close();
    const measured = await measure({ pid: gate.pid, port }, keys, 'gate');
    result = { gate: measured, floor };
  } catch (error) {
    process.stderr.write(`overload bench failed: ${error.stack ?? error}\n--- gate stderr (tail) ---\n${gate.stderrTail()}\n`);
    await gate.stop();
    process.exit(1);
  }
  await gate.stop();

  const g = result.gate;
  const by = (b) => `${fmtInt(b.calls)} calls ${JSON.stringify(b.statuses)}, p50 ${fmtMs(b.p50_ms)} ms, p99 ${fmtMs(b.p99_ms)} ms, max ${fmtMs(b.max_ms)} ms`;
  printTable(
    [
      ['load', 'gate', 'floor: bare node:http (same run)'],
      ['RSS idle, MB', g.rss_idle_mb, floor.rss_idle_mb],
      [`${opts.connections} stalled connections: peak RSS, MB`, g.stalls.peak_rss_mb, floor.stalls.peak_rss_mb],
      ['  how they ended', JSON.stringify({ ...g.stalls.connections.answered, closed: g.stalls.connections.closed_without_answer, open: g.stalls.connections.still_open_at_end }), JSON.stringify({ ...floor.stalls.connections.answered, closed: floor.stalls.connections.closed_without_answer, open: floor.stalls.connections.still_open_at_end })],
      ['  last released after, ms', g.stalls.connections.last_released_ms, floor.stalls.connections.last_released_ms],
      ['  bystander gv.ping', by(g.stalls.bystander), by(floor.stalls.bystander)],
      [`${opts.ingests} x ${opts['ingest-mib']} MiB ingests: peak RSS, MB`, g.ingests.peak_rss_mb, floor.ingests.peak_rss_mb],
      ['  first round', JSON.stringify(g.ingests.first_round), JSON.stringify(floor.ingests.first_round)],
      ['  all in after, ms (retrying)', `${g.ingests.all_in_ms} (${g.ingests.attempts} attempts)`, `${floor.ingests.all_in_ms}`],
      ['  bystander gv.ping', by(g.ingests.bystander), by(floor.ingests.bystander)],
    ],
    'Overload',
  );
  const record = { when: new Date().toISOString(), machine: machine(), quiet, options: recordedOptions(opts), ...result };
  if (opts.out) {
    mkdirSync(dirname(opts.out), { recursive: true });
    writeFileSync(opts.out, `${JSON.stringify(record, null, 2)}\n`);
    log(`wrote ${opts.out}`);
  }
}

main().catch((error) => {
  process.stderr.write(`overload bench: ${error.stack ?? error}\n`);
  process.exit(1);
});
