#!/usr/bin/env node
// Runs every Gate benchmark in sequence, each in a child process, printing its output,
// then a one-table summary from bench/results/*.json. `npm run bench` builds, then runs this.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR, fmtInt, fmtMs, gateBuildStatus, parseOptions, printTable } from './lib.js';

/** Every benchmark, in the order run-all runs them: name, script, and what it measures. */
const PLAN = [
  ['ingest', 'ingest.js', 'claims/s, latency and memory of gv.ingest over /rpc and the socket'],
  ['recall', 'recall.js', 'lexical, vector and hybrid gv.recall at --rows promoted rows (100,000 by default)'],
  ['quality', 'recall-quality-gate.js', 'the labelled set through gv.recall: recall@10 and MRR@10 in each mode'],
  ['locomo', 'recall-quality-public.js', 'LoCoMo dev half (../shared/data/locomo-dev) through gv.recall: evidence recall@10 a mode and category, plain BM25 beside it'],
  ['steering', 'steering.js', 'work-area recall with steering eight levels deep'],
  ['graph', 'graph.js', 'gv.graph at its 2,000-node ceiling'],
  ['bundle', 'bundle.js', 'the bundle and image pools'],
  ['hostile-image', 'hostile-image.js', "the gate's RSS and clean uploads under hostile-EXIF images"],
  ['grade', 'grade.js', 'gv.grade_pending beside an ingest load'],
  ['mcp', 'mcp.js', "the tool endpoint's own cost beside /rpc"],
  ['sign-in', 'sign-in.js', 'person tokens and refresh grants'],
  ['request-parse', 'request-parse.js', 'reading a request strictly (UTF-8, repeated keys, depth) beside bare JSON.parse'],
  ['secure-delete', 'secure-delete.js', 'ingest and promotion with journal.secure_delete on beside off, and one gv.erase'],
  ['org', 'org.js', 'the organization gate on PostgreSQL: 50 member gates submitting, decisions, outcomes read back, beside raw INSERTs'],
  ['read-flood', 'read-flood.js', "another caller's gv.ping while eight callers on one reader key flood gv.events over 120,000 journal events"],
  ['overload', 'overload.js', "the gate's RSS and a bystander's wait under 1,500 stalled connections and 50 parallel 4 MiB ingests"],
  ['scanner', 'scanner-quality.js', 'precision and recall of the scanner on fixtures/scan, and scan cost per KB'],
  ['merkle', 'merkle.js', "the journal's Merkle tree: CPU per appended event with and without it, proof sizes at a million events"],
  ['growth', 'growth.js', 'bytes a claim takes in each part of the home, what erasure and vacuum give back, how fast a start replays the views'],
];

const USAGE = `
node bench/run-all.js [options]        (npm run bench: npm run build, then this)

Runs each benchmark as a child process with its output shown, then prints a summary of
bench/results/*.json:
${PLAN.map(([name, script, what]) => `  ${name.padEnd(9)} bench/${script}: ${what}`).join('\n')}
Each script has its own --help; pass options through with --<name>-args "...". Exit status:
0 when every script exited 0, else 1 (the targets missed do not fail the run: the figures
are reported).`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    only: { type: 'string', default: '', help: `run just these, comma-separated (${PLAN.map(([n]) => n).join(', ')})` },
    ...Object.fromEntries(PLAN.map(([name, script]) => [`${name}-args`, { type: 'string', default: '', help: `extra arguments for ${script}, space-separated` }])),
    summary: { type: 'boolean', default: false, help: 'print the summary of bench/results/ only; run nothing' },
    'timeout-minutes': { type: 'number', default: 30, help: 'each script is stopped (SIGTERM, then SIGKILL) past this' },
  },
  USAGE,
);

const build = gateBuildStatus();
if (!build.ok) {
  process.stderr.write(`run-all: the gate is not built (missing ${build.missing.join(', ')}); run: npm run build\n`);
  process.exit(2);
}

function run(script, args) {
  return new Promise((resolve) => {
    process.stdout.write(`\n=== node bench/${script} ${args.join(' ')}\n`);
    const child = spawn(process.execPath, [join(BENCH_DIR, script), ...args], { stdio: 'inherit' });
    const limit = opts['timeout-minutes'] * 60_000;
    let killer;
    const timer = setTimeout(() => {
      process.stderr.write(`run-all: ${script} ran past ${opts['timeout-minutes']} min: SIGTERM\n`);
      child.kill('SIGTERM');
      killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    }, limit);
    const forward = (sig) => child.kill(sig);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(killer);
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code === 0 ? 0 : (code ?? (signal ? 1 : 1)));
    });
  });
}

const split = (s) => s.split(/\s+/).filter(Boolean);
const only = split(opts.only.replaceAll(',', ' '));
const unknown = only.filter((n) => !PLAN.some(([name]) => name === n));
if (unknown.length > 0) {
  process.stderr.write(`run-all: --only names no benchmark ${unknown.join(', ')}; they are ${PLAN.map(([n]) => n).join(', ')}\n`);
  process.exit(2);
}
const plan = PLAN.filter(([name]) => !opts.summary && (only.length === 0 || only.includes(name))).map(([name, script]) => [name, script, split(opts[`${name}-args`])]);

let failed = 0;
const t0 = Date.now();
for (const [name, script, args] of plan) {
  const code = await run(script, args);
  if (code !== 0) {
    failed++;
    process.stderr.write(`run-all: ${name} exited ${code}\n`);
  }
}

const read = (f) => {
  const p = join(BENCH_DIR, 'results', f);
  return existsSync(p) ? JSON.parse(readFileSync(p, 'utf8')) : null;
};
const ingest = read('ingest.json');
const recall = read('recall.json');
const rows = [['benchmark', 'figure', 'target', 'floor beside it', 'measured at']];
if (ingest?.http) {
  const f = ingest.floor ?? {};
  rows.push(['ingest http', `${fmtInt(ingest.http.claims_per_s)} claims/s, p50 ${fmtMs(ingest.http.p50_ms)} ms, p99 ${fmtMs(ingest.http.p99_ms)} ms, peak RSS ${ingest.http.peak_rss_mb} MB`,
    '>= 2,000/s, p99 < 50 ms', `append ${fmtInt(f.append_per_s)}/s (1/tx), ${fmtInt(f.append_batched_per_s)}/s (100/tx)`, ingest.measured_at]);
  rows.push(['ingest socket', `${fmtInt(ingest.socket.claims_per_s)} claims/s, p50 ${fmtMs(ingest.socket.p50_ms)} ms, p99 ${fmtMs(ingest.socket.p99_ms)} ms`,
    '', `sign ${fmtInt(f.sign_per_s)}/s`, ingest.measured_at]);
  rows.push(['ingest RSS (10/50/100%)', `${ingest.http.rss_mb_at.p10} / ${ingest.http.rss_mb_at.p50} / ${ingest.http.rss_mb_at.p100} MB over ${fmtInt(ingest.http.claims)} claims`, '', '', '']);
  if (ingest.http.anon_mb_at) {
    const a = ingest.http.anon_mb_at;
    const f = ingest.http.file_mb_at;
    rows.push(['  of it anon (own memory)', `${a.p10} / ${a.p50} / ${a.p100} MB`, 'flat', '', '']);
    rows.push(['  of it gate.db via mmap', `${f.p10} / ${f.p50} / ${f.p100} MB (file cache, grows with the database)`, '', '', '']);
  }
}
const pp = (r) => `p50 ${fmtMs(r.p50_ms)} ms, p99 ${fmtMs(r.p99_ms)} ms`;
for (const key of Object.keys(recall ?? {}).filter((k) => /^(lexical|vector|hybrid)_\d+[km]$/.test(k))) {
  const r = recall[key];
  const target = key.startsWith('lexical') ? 'p50 < 5 ms' : key === 'hybrid_1m' ? 'p50 < 20 ms, p99 < 60 ms' : '';
  const sizeFloor = recall[`details_${key.split('_')[1]}`]?.floor ?? recall.floor;
  const floor = key.startsWith('lexical') && sizeFloor ? `FTS5 ${pp({ p50_ms: sizeFloor.fts5_p50_ms, p99_ms: sizeFloor.fts5_p99_ms })}` : '';
  rows.push([`recall ${key}`, `${pp(r)}${r.queries ? ` (${fmtInt(r.queries)} queries)` : ''}`, target, floor, r.measured_at ?? recall.measured_at]);
}
if (recall?.steering_depth8) {
  const r = recall.steering_depth8;
  rows.push(['recall steering_depth8', `${pp(r)} (closest hybrid, ${fmtInt(r.rows)} rows)`, '', `bare steering SQL ${pp(r.floor.steering_sql)}`, r.measured_at]);
}
if (recall?.graph_2000) {
  const r = recall.graph_2000;
  rows.push(['gv.graph graph_2000', pp(r), '< 100 ms', `SELECT + JSON ${pp({ p50_ms: r.floor.select_and_json_p50_ms, p99_ms: r.floor.select_and_json_p99_ms })}`, r.measured_at ?? '']);
}
const bundle = read('bundle.json');
if (bundle) {
  rows.push(['bundle and image pools', `${bundle.mb_per_s} MB/s, ${fmtInt(bundle.members_per_s)} members/s, ${bundle.images_per_s} images/s (2 MP), loop p99 ${bundle.event_loop_p99_ms} ms, RSS ${bundle.peak_rss_mb} MB`,
    'loop p99 < 20 ms', `yauzl ${bundle.floors.yauzl_read_and_hash_mb_per_s} MB/s, sharp ${bundle.floors.sharp_reencode_images_per_s} images/s`, bundle.at]);
}
const hostileImage = read('hostile-image.json');
if (hostileImage) {
  const h = hostileImage;
  rows.push(['hostile images (issue 13 §1)', `clean upload p99 ${fmtMs(h.clean_p99_ms)} ms, RSS peak ${h.gate_peak_rss_mb} MB, ${fmtInt(h.hostile_uploads)} refused`,
    'clean p99 < image.deadline_ms', `no attack: p99 ${fmtMs(h.floors.clean_p99_ms)} ms, RSS ${h.floors.gate_rss_mb} MB`, h.at]);
}
const grade = read('grade.json');
if (grade) {
  rows.push(['grade_pending', `${fmtInt(grade.rows_per_s)} rows/s at concurrency ${grade.concurrency}; loop p99 ${fmtMs(grade.event_loop_p99_ms)} ms; ingest p99 ${fmtMs(grade.ingest_p99_ms_while_grading)} ms (alone ${fmtMs(grade.ingest_p99_ms_alone)})`,
    'ingest p99 < 50 ms while grading', `backend alone ${fmtInt(grade.floor.backend_rows_per_s)} rows/s`, grade.measured_at]);
}
const mcp = read('mcp.json');
if (mcp?.mcp && mcp?.rpc) {
  rows.push(['mcp door', `remember ${fmtInt(mcp.mcp.remember_per_s)}/s vs /rpc ${fmtInt(mcp.rpc.remember_per_s)}/s; cost ${JSON.stringify(mcp.door_cost_pct)} %`,
    'door < 15% of /rpc', '/rpc in the same run', mcp.when ?? mcp.measured_at ?? '']);
}
const signIn = read('sign-in.json');
if (signIn?.rpc_person_token) {
  rows.push(['sign-in', `person token ${fmtInt(signIn.rpc_person_token.per_s)} calls/s (${pp(signIn.rpc_person_token)}); refresh ${fmtInt(signIn.refresh.per_s)}/s`,
    '', `jose verify ${fmtInt(signIn.floors.jose_jwt_verify_per_s)}/s`, signIn.when ?? '']);
}
const parse = read('request-parse.json');
if (parse?.results?.ingest_1kb) {
  const x = (body) => `${parse.results[body].x_floor.door}x`;
  rows.push(['request parse', `door ${x('ingest_1kb')} of JSON.parse on 1 KB ingest bodies, ${x('ingest_4mib')} on 4 MiB of prose, ${x('map_4mib')} on 4 MiB of small objects`,
    '', `JSON.parse ${parse.results.ingest_1kb.us.floor} us / 1 KB`, parse.when ?? '']);
}
const overload = read('overload.json');
if (overload?.gate) {
  const g = overload.gate;
  const f = overload.floor;
  rows.push(['overload stalls', `${fmtInt(overload.options.connections)} stalled connections: peak RSS ${g.stalls.peak_rss_mb} MB; bystander p99 ${fmtMs(g.stalls.bystander.p99_ms)} ms ${JSON.stringify(g.stalls.bystander.statuses)}`,
    'others served', `bare node:http ${f.stalls.peak_rss_mb} MB`, overload.when]);
  rows.push(['overload ingests', `${overload.options.ingests} x ${overload.options['ingest-mib']} MiB: peak RSS ${g.ingests.peak_rss_mb} MB, first round ${JSON.stringify(g.ingests.first_round)}; bystander ${JSON.stringify(g.ingests.bystander.statuses)}`,
    'RSS bounded, others served', `bare node:http ${f.ingests.peak_rss_mb} MB`, overload.when]);
}
const readFlood = read('read-flood.json');
for (const [build, run] of Object.entries(readFlood?.runs ?? {})) {
  const flood = run.floods?.events;
  if (!flood) continue;
  const by = (b) => `p50 ${fmtMs(b.p50_ms)} ms, p99 ${fmtMs(b.p99_ms)} ms`;
  rows.push([`read flood (${build})`, `bystander gv.ping beside ${readFlood.flooders} gv.events callers: ${by(flood.budget_lifted.bystander)} (budget lifted), ${by(flood.default_budget.bystander)} (default budget)`,
    'p50 < 100 ms', `alone ${by(run.alone)}`, readFlood.when]);
}
const scanner = read('scanner-quality.json');
if (scanner?.overall) {
  rows.push(['scanner on fixtures/scan', `precision ${scanner.overall.precision}, recall ${scanner.overall.recall} (${scanner.fixtures} fixtures); ${fmtMs(scanner.cost.plain_1kb_ms_per_kb)} ms per KB of plain claims`,
    '', `executable detector alone ${fmtMs(scanner.cost.plain_1kb_executable_ms_per_kb)} ms per KB`, scanner.measured_at]);
}
const locomo = read('recall-quality-public.json');
if (locomo?.modes) {
  const m = locomo.modes;
  rows.push(['LoCoMo evidence recall@10', `lexical ${m.lexical.recall_at_10}, vector ${m.vector.recall_at_10}, hybrid ${m.hybrid.recall_at_10} (${locomo.counts.questions} questions)`,
    '', `plain BM25 ${locomo.bm25_reference.recall_at_10}`, locomo.measured_at]);
}
const merkle = read('merkle.json');
if (merkle?.append) {
  const a = merkle.append;
  const s = merkle.at_scale;
  rows.push(['merkle tree', `+${a.tree_us_per_event.best_minus_best} µs CPU an appended event (best of rounds; journal append ${a.without_tree_us_per_event.best} µs); at ${fmtInt(s.leaves)}: inclusion ${s.inclusion.hashes_max} hashes (${s.inclusion.json_bytes_max} B), ${s.tree_bytes_per_event} B of tree an event`,
    'within the noise of ingest', `sha256 of a node ${fmtInt(merkle.floors.sha256_node_per_s)}/s`, merkle.measured_at]);
}
const growth = read('growth.json');
if (growth?.bytes_per_claim) {
  const b = growth.bytes_per_claim;
  rows.push(['growth a claim', `gate.db ${fmtInt(b.gate_db_file)} B (journal ${fmtInt(b.journal)}, content ${fmtInt(b.content_store)}, FTS ${fmtInt(b.recall_fts)}, vectors ${fmtInt(b.vectors)}); a year at 10k/day ${growth.year.at_10k_per_day.gate_db_gib} GiB; replay ${fmtInt(growth.replay.events_per_s)} events/s`,
    '', `claim bytes ${fmtInt(growth.content_bytes_per_claim)}`, growth.measured_at]);
}
if (rows.length > 1) printTable(rows, `Summary (${Math.round((Date.now() - t0) / 1000)} s)`);
process.exit(failed ? 1 : 0);
