#!/usr/bin/env node
// The main-thread cost of a request's log line (src/surfaces/request-log.ts), in process,
// beside an empty loop: at the default level (info: a served request writes nothing) and at
// debug (one JSON line through pino's asynchronous destination on fd 2). Run it with stderr
// sent somewhere cheap: node bench/request-log.js 2>/dev/null
import { createLog } from '../dist/src/log.js';
import { logHttpRequest, noteRequest } from '../dist/src/surfaces/request-log.js';

const ITERATIONS = 200_000;
const ROUNDS = 15;

/** What the door hands the line: a served /rpc ingest's request and response. */
function oneRequest(log) {
  const req = { method: 'POST' };
  const res = { writableFinished: true, statusCode: 200 };
  const started = performance.now();
  noteRequest(req, { identity: 'key:61c8f6f73c94' });
  noteRequest(req, { verb: 'gv.ingest', code: undefined });
  logHttpRequest(log, req, res, '/rpc', started);
}

function empty() {
  const req = { method: 'POST' };
  const res = { writableFinished: true, statusCode: 200 };
  return performance.now() + (req.method.length + res.statusCode);
}

function nsPerCall(fn) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < ITERATIONS; i++) fn();
  return Number(process.hrtime.bigint() - t0) / ITERATIONS;
}

async function best(fn) {
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    rounds.push(nsPerCall(fn));
    // Lets the asynchronous destination write what it holds, as the event loop does between requests.
    await new Promise((resolve) => setImmediate(resolve));
  }
  rounds.sort((a, b) => a - b);
  return { best: Math.round(rounds[0]), median: Math.round(rounds[Math.floor(rounds.length / 2)]) };
}

const info = createLog({ level: 'info', format: 'json' });
const debug = createLog({ level: 'debug', format: 'json' });
const results = {
  floor_empty: await best(empty),
  info_served_request: await best(() => oneRequest(info)),
  debug_served_request: await best(() => oneRequest(debug)),
};
debug.flush();
process.stdout.write(`ns per request, best (median) of ${ROUNDS} rounds of ${ITERATIONS.toLocaleString('en')}:\n`);
for (const [name, r] of Object.entries(results)) process.stdout.write(`  ${name.padEnd(22)} ${r.best} (${r.median})\n`);
