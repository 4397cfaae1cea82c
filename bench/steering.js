#!/usr/bin/env node
// Work-area recall with steering at depth 8: gv.recall over the socket from a work area eight
// segments deep, where every level holds promoted steering rows and promoted claims.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
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
  rng,
  round,
  startGate,
  tempDir,
  waitQuiet,
  readAndPromote,
} from './lib.js';

const USAGE = `
node bench/steering.js [options]

Builds a gate whose main space holds --claims promoted claims spread over a tree of work
areas eight segments deep (fan-out --fanout per level), plus --steering-per-level promoted
steering rows at every area on the measured path and its siblings. Then measures, over the
unix socket with one call in flight:
  steering_only   gv.recall {workarea: <depth 8>}: the steering in force, no query
  closest_lexical gv.recall {query, workarea: <depth 8>, mode: lexical}: hits walked up + steering
  closest_hybrid  the same with the default mode
The floor is a gv.ping round trip on the same connection (the transport) and the bare SQL
of the steering walk (eight indexed SELECTs) on the gate's own database, read-only, in this
process. Merges the key steering_depth8 into bench/results/recall.json (other keys kept).`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    claims: { type: 'number', default: 20_000, help: 'promoted claims in the tree' },
    fanout: { type: 'number', default: 3, help: 'child areas per area' },
    'steering-per-level': { type: 'number', default: 3, help: 'steering rows at each area of the measured path' },
    queries: { type: 'number', default: 1_000, help: 'measured calls per case' },
    warmup: { type: 'number', default: 100, help: 'calls before measuring' },
    'wait-quiet': { type: 'number', default: 60, help: 'seconds to wait at most for other processes to go quiet (0: do not)' },
    out: { type: 'string', default: join(BENCH_DIR, 'results', 'recall.json'), help: 'results file to merge into ("" for none)' },
  },
  USAGE,
);

const log = (s) => process.stdout.write(`${s}\n`);
const DEPTH = 8;

/** A path of `depth` segments through a tree with `fanout` children per area. */
function areaOf(r, depth) {
  const segs = [];
  for (let d = 0; d < depth; d++) segs.push(`l${d}n${Math.floor(r() * opts.fanout)}`);
  return segs.join('/');
}

async function main() {
  const home = tempDir('gate-bench-steering');
  const gate = await startGate({ home: join(home, 'home'), removeHome: true, env: { ...ADMIN_PROMOTES_ENV, GATE_QUARANTINE_MAX_DEPTH: String(opts.claims * 2) } });
  try {
    const admin = await SocketClient.open(gate.socketPath);
    const keys = [];
    for (let i = 0; i < 8; i++) keys.push((await admin.call('gv.keys', { action: 'issue', role: 'agent', label: `steer-${i}` })).key);
    const http = new HttpClient(gate.url, { maxSockets: keys.length });
    const gen = corpus({ tag: 'st' });
    const r = rng(99);
    const measured = Array.from({ length: DEPTH }, (_, d) => `l${d}n0`).join('/');
    const jobs = [];
    for (let i = 0; i < opts.claims; i++) {
      jobs.push({ content: gen.claim(i).slice(0, 400), workarea: areaOf(r, 1 + Math.floor(r() * DEPTH)), kind: 'memory' });
    }
    // Steering at every area of the measured path, and at each area's first sibling.
    for (let d = 1; d <= DEPTH; d++) {
      const path = measured.split('/').slice(0, d);
      const sibling = [...path.slice(0, -1), `l${d - 1}n1`].join('/');
      for (let s = 0; s < opts['steering-per-level']; s++) {
        jobs.push({ content: `steering ${s} at depth ${d}: ${gen.claim(opts.claims + d * 10 + s).slice(0, 200)}`, workarea: path.join('/'), kind: 'steering' });
        jobs.push({ content: `sibling steering ${s} at depth ${d}: ${gen.claim(opts.claims + 500 + d * 10 + s).slice(0, 200)}`, workarea: sibling, kind: 'steering' });
      }
    }
    const t0 = performance.now();
    const ids = [];
    let next = 0;
    await Promise.all(
      keys.map(async (key) => {
        while (next < jobs.length) {
          const job = jobs[next++];
          const { body } = await http.send(key, 'gv.ingest', { ...job, source_uri: 'bench://steering' });
          if (body.error) throw new Error(`ingest: ${JSON.stringify(body.error)}`);
          ids.push(body.result.artifact_id);
        }
      }),
    );
    http.close();
    const conns = await Promise.all(Array.from({ length: 8 }, () => SocketClient.open(gate.socketPath)));
    next = 0;
    await Promise.all(
      conns.map(async (c) => {
        while (next < ids.length) await readAndPromote(c, ids[next++]);
      }),
    );
    for (const c of conns) c.close();
    log(`built ${fmtInt(jobs.length)} promoted rows in ${((performance.now() - t0) / 1000).toFixed(0)} s; measuring at ${measured}`);
    if (opts['wait-quiet'] > 0) await waitQuiet(opts['wait-quiet'], 0.25, log);

    const words = corpus({ tag: 'st' }).words;
    const qr = rng(7);
    const query = () => `${words[1000 + Math.floor(qr() * 3000)]} ${words[Math.floor(qr() * 200)]}`;
    const time = async (params) => {
      for (let i = 0; i < opts.warmup; i++) await admin.call(params.method, params.make());
      const ms = [];
      let last;
      for (let i = 0; i < opts.queries; i++) {
        const t = performance.now();
        last = await admin.call(params.method, params.make());
        ms.push(performance.now() - t);
      }
      const p = percentiles(ms, [50, 99]);
      return { p50_ms: round(p[50], 3), p99_ms: round(p[99], 3), last };
    };
    const cases = {
      steering_only: await time({ method: 'gv.recall', make: () => ({ workarea: measured }) }),
      closest_lexical: await time({ method: 'gv.recall', make: () => ({ query: query(), workarea: measured, mode: 'lexical' }) }),
      closest_hybrid: await time({ method: 'gv.recall', make: () => ({ query: query(), workarea: measured }) }),
      ping_floor: await time({ method: 'gv.ping', make: () => ({}) }),
    };
    const shown = cases.steering_only.last;
    if (shown.steering.length !== 5 || shown.steering_omitted !== DEPTH * opts['steering-per-level'] - 5) {
      throw new Error(`unexpected steering answer: ${shown.steering.length} shown, ${shown.steering_omitted} omitted`);
    }
    admin.close();

    // The bare steering walk on the gate's own database, read-only, beside the running gate.
    const db = new Database(join(gate.home, 'gate.db'), { readonly: true });
    const at = db.prepare(
      `SELECT rowid FROM artifacts WHERE kind = 'steering' AND space = 'main' AND workarea = ? AND state = 'ACTIVE' ORDER BY promoted_seq DESC`,
    );
    const places = measured.split('/').map((_, i, segs) => segs.slice(0, segs.length - i).join('/'));
    const sqlMs = [];
    for (let i = 0; i < opts.queries; i++) {
      const t = performance.now();
      for (const place of places) at.all(place);
      sqlMs.push(performance.now() - t);
    }
    db.close();
    const sqlP = percentiles(sqlMs, [50, 99]);
    const sqlFloor = { p50_ms: round(sqlP[50], 4), p99_ms: round(sqlP[99], 4) };

    printTable(
      [
        ['case', 'p50 ms', 'p99 ms'],
        ...Object.entries(cases).map(([name, c]) => [name, fmtMs(c.p50_ms), fmtMs(c.p99_ms)]),
        ['floor: bare steering SQL (8 places)', fmtMs(sqlFloor.p50_ms), fmtMs(sqlFloor.p99_ms)],
      ],
      `gv.recall at depth ${DEPTH} (${fmtInt(jobs.length)} promoted rows, ${opts.queries} calls per case, socket, one in flight)`,
    );
    const result = {
      measured_at: new Date().toISOString(),
      machine: machine(),
      rows: jobs.length,
      depth: DEPTH,
      steering_in_force: DEPTH * opts['steering-per-level'],
      p50_ms: cases.closest_hybrid.p50_ms,
      p99_ms: cases.closest_hybrid.p99_ms,
      cases: Object.fromEntries(Object.entries(cases).map(([k, { p50_ms, p99_ms }]) => [k, { p50_ms, p99_ms }])),
      floor: { ping: { p50_ms: cases.ping_floor.p50_ms, p99_ms: cases.ping_floor.p99_ms }, steering_sql: sqlFloor },
    };
    if (opts.out) {
      const all = existsSync(opts.out) ? JSON.parse(readFileSync(opts.out, 'utf8')) : {};
      all.steering_depth8 = result;
      writeFileSync(opts.out, `${JSON.stringify(all, null, 2)}\n`);
      log(`\nmerged steering_depth8 into ${opts.out}`);
    }
  } finally {
    await gate.stop();
  }
}

main().catch((e) => {
  process.stderr.write(`${e.stack ?? e}\n`);
  process.exit(1);
});
