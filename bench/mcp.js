#!/usr/bin/env node
// The tool endpoint's own cost: remember and recall through POST /mcp (gate.remember,
// gate.recall) beside the same verbs through POST /rpc (gv.ingest, gv.recall), same gate,
// same clients, same claims, so the difference is the door.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ADMIN_PROMOTES_ENV,
  BENCH_DIR,
  HttpClient,
  SocketClient,
  corpus,
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
  readAndPromote,
} from './lib.js';

const USAGE = `
node bench/mcp.js [options]

remember: --clients concurrent keep-alive clients (one request in flight each, an agent key
          each) send --count unique ~1 KB claims through /rpc (gv.ingest) and through /mcp
          (tools/call gate.remember, as a bare client: no protocol header, no _meta), in
          alternating rounds so drift on the shared machine falls on both alike.
recall:   --recall-rows claims are promoted, then --queries 2-3 word queries (k 10) are asked
          at the same concurrency through /rpc (gv.recall) and /mcp (gate.recall).
Writes bench/results/mcp.json {mcp: {remember_per_s, recall_p50_ms, recall_p99_ms}, rpc: {...}}.
Target: the door costs under 15% of throughput against /rpc.`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    count: { type: 'number', default: 8_000, help: 'claims per remember round and surface' },
    rounds: { type: 'number', default: 2, help: 'alternating rounds per surface' },
    clients: { type: 'number', default: 32, help: 'concurrent clients' },
    'recall-rows': { type: 'number', default: 5_000, help: 'promoted claims recall searches' },
    queries: { type: 'number', default: 3_000, help: 'recall queries per surface' },
    'wait-quiet': { type: 'number', default: 60, help: 'seconds to wait at most for other processes to use < 0.25 core (0: do not wait)' },
    out: { type: 'string', default: join(BENCH_DIR, 'results', 'mcp.json'), help: 'results file ("" to write none)' },
  },
  USAGE,
);
const log = (s) => process.stdout.write(`${s}\n`);

/** The answer's result; a refusal, a tool error or a status other than 200 fails the run. */
class Poster {
  constructor(url, clients) {
    this.client = new HttpClient(url, { maxSockets: clients });
  }

  async post(path, key, message) {
    const { status, body } = await this.client.post(path, key, message);
    if (status !== 200 || body?.error || body?.result?.isError) throw new Error(`${path} ${status}: ${JSON.stringify(body).slice(0, 300)}`);
    return body.result;
  }
}

const remember = {
  rpc: (p, key, text, i) => p.post('/rpc', key, { method: 'gv.ingest', params: { content: text, kind: 'memory', source_uri: `bench://mcp/${i}`, workarea: `bench/w${i % 8}` } }),
  mcp: (p, key, text, i) =>
    p.post('/mcp', key, { method: 'tools/call', params: { name: 'gate.remember', arguments: { content: text, content_type: 'memory', source_uri: `bench://mcp/${i}`, workarea: `bench/w${i % 8}` } } }),
};
const recall = {
  rpc: (p, key, query) => p.post('/rpc', key, { method: 'gv.recall', params: { query, k: 10 } }),
  mcp: (p, key, query) => p.post('/mcp', key, { method: 'tools/call', params: { name: 'gate.recall', arguments: { query, k: 10 } } }),
};

/** Closed loop: `clients` workers, each sending its next request when the last is answered. */
async function closedLoop(count, clients, send) {
  const lat = new Float64Array(count);
  let next = 0;
  let done = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, w) => {
      while (next < count) {
        const i = next++;
        const s = performance.now();
        await send(i, w);
        lat[done++] = performance.now() - s;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const p = percentiles(lat.subarray(0, done));
  return { per_s: done / seconds, p50_ms: p[50], p99_ms: p[99] };
}

async function main() {
  if (opts['wait-quiet'] > 0) await waitQuiet(opts['wait-quiet'], 0.25, log);
  const home = tempDir('gate-bench-mcp');
  const gate = await startGate({ home, removeHome: true, env: { ...ADMIN_PROMOTES_ENV, GATE_QUARANTINE_MAX_DEPTH: '10000000' } });
  const admin = await SocketClient.open(gate.socketPath);
  try {
    const keys = [];
    for (let i = 0; i < opts.clients; i++) keys.push((await admin.call('gv.keys', { action: 'issue', role: 'agent', label: `bench ${i}` })).key);
    const poster = new Poster(gate.url, opts.clients);
    const gen = corpus({ tag: 'mcp' });
    let serial = 0;
    const rounds = { rpc: [], mcp: [] };
    // Warm both paths (JIT, connections) before anything is measured.
    for (const s of ['rpc', 'mcp']) await closedLoop(500, opts.clients, (i, w) => remember[s](poster, keys[w], gen.claim(serial++), serial));
    for (let r = 0; r < opts.rounds; r++) {
      for (const s of r % 2 === 0 ? ['rpc', 'mcp'] : ['mcp', 'rpc']) {
        const res = await closedLoop(opts.count, opts.clients, (i, w) => remember[s](poster, keys[w], gen.claim(serial++), serial));
        rounds[s].push(res);
        log(`remember round ${r + 1} ${s}: ${fmtInt(res.per_s)}/s p50 ${fmtMs(res.p50_ms)} ms p99 ${fmtMs(res.p99_ms)} ms`);
      }
    }

    log(`promoting ${fmtInt(opts['recall-rows'])} claims for recall`);
    const words = [];
    const ids = [];
    for (let i = 0; i < opts['recall-rows']; i++) {
      const text = gen.claim(serial++);
      if (i % 10 === 0) words.push(text.split(/\W+/).filter((w) => w.length > 5).slice(0, 3).join(' '));
      ids.push((await remember.rpc(poster, keys[i % keys.length], text, serial)).artifact_id);
    }
    for (let i = 0; i < ids.length; i += 1) await readAndPromote(admin, ids[i]);
    const queries = Array.from({ length: opts.queries }, (_, i) => words[i % words.length]);
    const recalls = {};
    for (const s of ['rpc', 'mcp']) await closedLoop(300, opts.clients, (i, w) => recall[s](poster, keys[w], queries[i % queries.length]));
    for (const s of ['rpc', 'mcp']) {
      recalls[s] = await closedLoop(opts.queries, opts.clients, (i, w) => recall[s](poster, keys[w], queries[i]));
      log(`recall ${s}: p50 ${fmtMs(recalls[s].p50_ms)} ms p99 ${fmtMs(recalls[s].p99_ms)} ms (${fmtInt(recalls[s].per_s)}/s)`);
    }

    const best = (list) => list.reduce((a, b) => (b.per_s > a.per_s ? b : a));
    const figures = Object.fromEntries(
      ['mcp', 'rpc'].map((s) => [
        s,
        {
          remember_per_s: round(best(rounds[s]).per_s, 0),
          remember_p50_ms: round(best(rounds[s]).p50_ms, 3),
          remember_p99_ms: round(best(rounds[s]).p99_ms, 3),
          remember_rounds_per_s: rounds[s].map((x) => round(x.per_s, 0)),
          recall_p50_ms: round(recalls[s].p50_ms, 3),
          recall_p99_ms: round(recalls[s].p99_ms, 3),
          recall_per_s: round(recalls[s].per_s, 0),
        },
      ]),
    );
    const cost = round((1 - figures.mcp.remember_per_s / figures.rpc.remember_per_s) * 100, 1);
    const recallCost = round((1 - figures.mcp.recall_per_s / figures.rpc.recall_per_s) * 100, 1);
    printTable(
      [
        ['', 'remember/s', 'p50 ms', 'p99 ms', 'recall p50 ms', 'recall p99 ms', 'recall/s'],
        ...['rpc', 'mcp'].map((s) => [s === 'rpc' ? '/rpc (floor)' : '/mcp', fmtInt(figures[s].remember_per_s), fmtMs(figures[s].remember_p50_ms), fmtMs(figures[s].remember_p99_ms), fmtMs(figures[s].recall_p50_ms), fmtMs(figures[s].recall_p99_ms), fmtInt(figures[s].recall_per_s)]),
      ],
      `${opts.clients} clients; the door's cost against /rpc: ${cost}% of remember throughput, ${recallCost}% of recall throughput (target < 15%)`,
    );
    const result = {
      when: new Date().toISOString(),
      machine: machine(),
      options: recordedOptions(opts),
      ...figures,
      door_cost_pct: { remember: cost, recall: recallCost },
      target: { door_cost_pct_below: 15, met: cost < 15 },
    };
    if (opts.out) {
      mkdirSync(join(BENCH_DIR, 'results'), { recursive: true });
      writeFileSync(opts.out, `${JSON.stringify(result, null, 2)}\n`);
      log(`wrote ${opts.out}`);
    }
  } finally {
    admin.close();
    await gate.stop();
  }
}

await main();
