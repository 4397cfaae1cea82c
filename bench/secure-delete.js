#!/usr/bin/env node
// What erasure that is real costs the rest of the time: ingest and promotion with
// journal.secure_delete on (PRAGMA secure_delete and FTS5 secure-delete) beside the same
// gate with it off, in the same run, and what one gv.erase takes. In process: two gates
// opened from dist/ on temp homes, worked in alternating rounds so the machine's load falls
// on both alike.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR, REPO_ROOT, corpus, fmtMs, machine, parseOptions, percentiles, printTable, recordedOptions, round, runPool, tempDir } from './lib.js';

const USAGE = `
node bench/secure-delete.js [options]

Two gates in this process, journal.secure_delete true and false, each fed the same ~1 KB
claims in alternating rounds: --round claims ingested (--concurrency in flight) through the
real dispatcher, then each read and promoted by a reviewer (a promotion deletes the row
from the held-row index, the delete secure-delete makes dearer). Reported per setting: the
median over rounds of ms per claim for the ingest phase and for the promote phase, and the
process CPU per claim. Then --erase rows of the secure gate are erased one at a time:
gv.erase p50 and p99 (the commit, the unlinks, the TRUNCATE checkpoint).
Writes bench/results/secure-delete.json.`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    rounds: { type: 'number', default: 8, help: 'rounds per setting (alternating)' },
    round: { type: 'number', default: 500, help: 'claims per round' },
    concurrency: { type: 'number', default: 16, help: 'ingests in flight' },
    erase: { type: 'number', default: 50, help: 'erasures measured on the secure gate' },
    out: { type: 'string', default: join(BENCH_DIR, 'results', 'secure-delete.json'), help: 'result file ("" to write none)' },
  },
  USAGE,
);

const dist = (p) => join(REPO_ROOT, 'dist', 'src', p);
const { Gate } = await import(dist('gate.js'));
const { resolveHome } = await import(dist('config/home.js'));
const { loadConfig } = await import(dist('config/load-config.js'));
const { call } = await import(dist('verbs/dispatch.js'));

const quiet = { info() {}, warn() {}, debug() {}, error: (m, e) => console.error(m, e), enabled: () => false, flush() {} };
const who = (identity, role) => ({ identity, role, kind: 'program', scope: null, demo: false, surface: 'http' });
const agent = who('key:bench-agent', 'agent');
const reviewer = who('key:bench-reviewer', 'reviewer');
const admin = who('uid:0', 'admin');

function open(root, secure) {
  const home = join(root, secure ? 'secure' : 'plain');
  mkdirSync(home, { recursive: true });
  const paths = resolveHome(home);
  const { config } = loadConfig(paths.config, {}, {
    'spaces.main_policy': 'auto',
    'review.quorum_profile': 'solo-reviewer',
    'quarantine.max_depth': 10_000_000,
    'journal.secure_delete': secure,
  });
  return Gate.open(paths, config, { log: quiet });
}

const root = tempDir('gate-bench-secure-delete');
const gates = { on: open(root, true), off: open(root, false) };
const text = corpus({ tag: 'sd' });
const samples = { on: { ingest: [], promote: [], cpu: [] }, off: { ingest: [], promote: [], cpu: [] } };
const ids = { on: [], off: [] };
let next = 0;

async function feed(setting) {
  const gate = gates[setting];
  const first = next;
  next += opts.round;
  const made = new Array(opts.round);
  const cpu0 = process.cpuUsage();
  const ingestMs = await runPool(opts.round, opts.concurrency, async (i) => {
    const r = await call(gate, agent, 'gv.ingest', { content: text.claim(first + i), workarea: 'bench/sd', kind: 'memory', source_uri: 'bench://sd' });
    made[i] = r.artifact_id;
  });
  const promoteMs = await runPool(opts.round, opts.concurrency, async (i) => {
    await call(gate, reviewer, 'gv.node', { artifact_id: made[i], body: true });
    await call(gate, reviewer, 'gv.promote', { artifact_id: made[i] });
  });
  const cpu = process.cpuUsage(cpu0);
  samples[setting].ingest.push(ingestMs / opts.round);
  samples[setting].promote.push(promoteMs / opts.round);
  samples[setting].cpu.push((cpu.user + cpu.system) / 1000 / opts.round);
  ids[setting].push(...made);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  for (let r = 0; r < opts.rounds; r++) {
    // Alternate which goes first, so neither always meets a warmer cache.
    for (const setting of r % 2 === 0 ? ['on', 'off'] : ['off', 'on']) await feed(setting);
  }
  const eraseMs = [];
  for (const id of ids.on.slice(0, opts.erase)) {
    const t0 = performance.now();
    await call(gates.on, admin, 'gv.erase', { artifact_id: id, reason: 'bench' });
    eraseMs.push(performance.now() - t0);
  }
  const figure = (setting) => ({
    ingest_ms_per_claim: round(median(samples[setting].ingest), 3),
    promote_ms_per_claim: round(median(samples[setting].promote), 3),
    cpu_ms_per_claim: round(median(samples[setting].cpu), 3),
  });
  const on = figure('on');
  const off = figure('off');
  const { 50: p50, 99: p99 } = percentiles(eraseMs, [50, 99]);
  const result = {
    bench: 'secure-delete',
    at: new Date().toISOString(),
    machine: machine(),
    options: recordedOptions(opts),
    rows_per_gate: ids.on.length,
    secure_delete_on: on,
    secure_delete_off: off,
    cost: {
      ingest: round(on.ingest_ms_per_claim / off.ingest_ms_per_claim - 1, 3),
      promote: round(on.promote_ms_per_claim / off.promote_ms_per_claim - 1, 3),
      cpu: round(on.cpu_ms_per_claim / off.cpu_ms_per_claim - 1, 3),
    },
    erase_ms: { p50: round(p50, 2), p99: round(p99, 2), n: eraseMs.length },
  };
  printTable(
    [
      ['', 'ingest ms/claim', 'promote ms/claim', 'CPU ms/claim'],
      ['secure_delete on', on.ingest_ms_per_claim, on.promote_ms_per_claim, on.cpu_ms_per_claim],
      ['secure_delete off', off.ingest_ms_per_claim, off.promote_ms_per_claim, off.cpu_ms_per_claim],
      ['cost (on / off - 1)', result.cost.ingest, result.cost.promote, result.cost.cpu],
    ],
    `medians of ${opts.rounds} alternating rounds of ${opts.round} claims (load average ${result.machine.loadavg_1m})`,
  );
  console.log(`gv.erase at ${ids.on.length} rows: p50 ${fmtMs(p50)} ms, p99 ${fmtMs(p99)} ms`);
  if (opts.out !== '') writeFileSync(opts.out, `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await Promise.all(Object.values(gates).map((g) => g.close()));
  rmSync(root, { recursive: true, force: true });
}
