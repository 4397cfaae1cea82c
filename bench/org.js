#!/usr/bin/env node
// The organization gate under many member gates: submissions/s and latency through a real
// `gate org serve` process on a real PostgreSQL, outcomes read back, the database's size,
// and beside it the floor of the same INSERTs straight through the driver.
import { generateKeyPairSync, sign } from 'node:crypto';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { readdirSync } from 'node:fs';
import { waitQuiet } from './lib.js';
import { BENCH_DIR, CLK_TCK, REPO_ROOT, gateLaunchFlags, RssSampler, fmtInt, fmtMs, machine, parseOptions, percentiles, pidTicks, printTable, procStatBusy, recordedOptions, round, tempDir } from './lib.js';

const USAGE = `
node bench/org.js [options]

Starts a PostgreSQL cluster of its own (the machine's binaries, as "gate org serve" embeds
them) and one "gate org serve" process on it, registers --members simulated member gates
(each its own Ed25519 key and submit key), and has them PUT --submissions signed
submission/1 bodies concurrently (one closed-loop client per member; bodies are built and
signed before the clock starts, as each member signs on its own machine). Then org
reviewers drain the inbox through /rpc (gv.org_take, gv.org_review, one submission at a
time, as a review key drains it), and each
member pages its signed outcomes back. The floor: the same rows INSERTed into a copy of
the inbox table straight through the driver, --members connections at once.

Writes bench/results/org.json.`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    members: { type: 'number', default: 50, help: 'simulated member gates submitting at once' },
    submissions: { type: 'number', default: 20000, help: 'submissions in all' },
    bytes: { type: 'number', default: 1000, help: 'content bytes per submission' },
    reviewers: { type: 'number', default: 8, help: 'org reviewers deciding at once' },
    profile: { type: 'string', default: '', help: 'write a V8 CPU profile of the org process into this directory' },
    'wait-quiet': { type: 'number', default: 120, help: 'seconds to wait at most, before measuring, for other processes to use < 0.25 core (0: do not wait)' },
    out: { type: 'string', default: join(BENCH_DIR, 'results', 'org.json'), help: 'results file ("" for none)' },
  },
  USAGE,
);
const log = (s) => process.stdout.write(`${s}\n`);
const dist = (p) => import(join(REPO_ROOT, 'dist', p));

const { canonicalJson, sha256Hex } = await dist('src/forms/canonical-json.js');
const { startEmbedded, stopEmbedded } = await dist('src/org/embedded-postgres.js');
const { DeploymentKey } = await dist('src/credentials/deployment-key.js');
const { addMember, issueStaffKey } = await dist('src/org/org-members.js');
const { SUBMISSION_CONTRACT, SUBMISSION_SIGNING_PREFIX } = await dist('src/forms/submission-contract.js');
const pg = (await import('pg')).default;

/** A member gate: its key, and submissions built as src/submission/submission.ts builds them. */
function member(index) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const id = publicKey.export({ format: 'jwk' }).x;
  const signed = (text) => sign(null, Buffer.from(text), privateKey).toString('base64url');
  const submissions = (count) =>
    Array.from({ length: count }, (_, i) => {
      const content = `member ${index} claim ${i} `.padEnd(opts.bytes, 'lorem ipsum dolor sit amet ');
      const artifactId = `sha256:${sha256Hex(content)}`;
      const promote = canonicalJson({ v: 1, seq: i + 1, type: 'promote', ts: Date.now(), prev: null, by: 'key:bench', data: { artifact_id: artifactId, enters: 'ACTIVE', trust_class: 'T-1' } });
      const ingest = canonicalJson({ v: 1, seq: i + 1, type: 'ingest', ts: Date.now(), prev: null, by: 'key:bench', data: { artifact_id: artifactId, content_hash: artifactId, size_bytes: Buffer.byteLength(content), enters: 'L0_RAW', trust_class: 'T-1' } });
      const submission = {
        contract: SUBMISSION_CONTRACT,
        artifact_id: artifactId,
        deployment_id: id,
        envelope: { content_hash: artifactId, content_type: 'memory', kind: 'memory', trust_class: 'T-1', source_uri: 'bench:org', writer_identity: 'key:bench', deployment_id: id, ingest_ts: Date.now(), size_bytes: Buffer.byteLength(content), derives_from: [], space: 'main', workarea: null },
        content: { encoding: 'base64', bytes: Buffer.from(content).toString('base64') },
        approval: { status: 'ai_approved', approved_by: { model: 1, human: 0, authority: 0 }, signers: [] },
        decisions: [],
        promotions: [{ event_id: sha256Hex(promote), event: promote, sig: signed(promote) }],
        ingest: { event_id: sha256Hex(ingest), event: ingest, sig: signed(ingest) },
      };
      const canonical = canonicalJson(submission);
      return { artifactId, text: JSON.stringify({ submission, id: `sha256:${sha256Hex(canonical)}`, sig: signed(SUBMISSION_SIGNING_PREFIX + canonical) }) };
    });
  return { id, submissions };
}

function call(agent, port, method, path, key, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method, agent, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(body ? { 'content-length': Buffer.byteLength(body) } : {}) } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(Buffer.concat(chunks).toString() || 'null') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const dir = tempDir('gate-bench-org');
chmodSync(dir, 0o755);
const home = join(dir, 'org');
mkdirSync(home, { mode: 0o700 });
const clusterDir = join(dir, 'pg');
mkdirSync(clusterDir);
const { connection } = startEmbedded(clusterDir);
const url = `postgres://${connection.user}@localhost/${connection.database}?host=${encodeURIComponent(connection.host)}`;
const pool = new pg.Pool({ ...connection, max: opts.members });

const profileArgs = opts.profile ? ['--cpu-prof', '--cpu-prof-dir', opts.profile] : [];
const gateMain = join(REPO_ROOT, 'dist/src/cli/main.js');
// The org logs a line a request at its default level, as it runs in production: kept in a file, not on the terminal.
const orgLog = join(dir, 'org-stderr.log');
const child = spawn(process.execPath, [...gateLaunchFlags(gateMain), ...profileArgs, gateMain, 'org', 'serve', '--home', home, '--port', '0', '--database-url', url], {
  stdio: ['ignore', 'pipe', openSync(orgLog, 'w')],
  // One member may send as fast as it can here: the bench measures the door, not the limiter.
  env: { ...process.env, GATE_ORG_MEMBER_RATE_PER_S: '1000000' },
});
const line = await new Promise((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
const port = Number(/:(\d+) deployment/.exec(line)[1]);
const orgKey = DeploymentKey.openOrCreate(join(home, 'deployment.key'));
const rss = new RssSampler(child.pid);
/** The org process's CPU time so far, ms (utime + stime): what it cost, whatever else the machine ran. */
const cpuMs = () => {
  const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
};
const rssStart = rss.rssMb;

/**
 * CPU ticks of the cluster's processes: the postmaster and every process it started
 * (backends, WAL writer, checkpointer, autovacuum workers). A process that exits takes its
 * ticks with it, so each one's last reading is kept and the tree is read every second.
 */
const postmasterPid = Number(readFileSync(join(clusterDir, 'pg', 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
const postgresSeen = new Map();
function postgresTicks() {
  postgresSeen.set(postmasterPid, pidTicks(postmasterPid) ?? postgresSeen.get(postmasterPid) ?? 0);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]) === postmasterPid) postgresSeen.set(Number(entry), pidTicks(Number(entry)) ?? postgresSeen.get(Number(entry)) ?? 0);
    } catch {
      // A process that ended meanwhile: its last reading stays.
    }
  }
  let ticks = 0;
  for (const t of postgresSeen.values()) ticks += t;
  return ticks;
}

/**
 * Where the machine's CPU went over a phase, in cores: the org process, PostgreSQL, this
 * process (the simulated members), everything else (other work on this shared machine);
 * and the 1-minute load average sampled each second.
 */
function cpuPhase() {
  const t0 = performance.now();
  const stat0 = procStatBusy();
  const org0 = pidTicks(child.pid);
  const mainFile = `/proc/${child.pid}/task/${child.pid}/stat`;
  const main0 = pidTicks(child.pid, mainFile);
  const pg0 = postgresTicks();
  const self0 = process.cpuUsage();
  const loads = [];
  const sampler = setInterval(() => {
    loads.push(Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]));
    postgresTicks();
  }, 1000);
  return (units) => {
    clearInterval(sampler);
    const seconds = (performance.now() - t0) / 1000;
    const stat = procStatBusy();
    const orgMs = ((pidTicks(child.pid) - org0) * 1000) / CLK_TCK;
    const mainMs = ((pidTicks(child.pid, mainFile) - main0) * 1000) / CLK_TCK;
    const pgMs = ((postgresTicks() - pg0) * 1000) / CLK_TCK;
    const self = process.cpuUsage(self0);
    const selfMs = (self.user + self.system) / 1000;
    const busyMs = ((stat.busy - stat0.busy) * 1000) / CLK_TCK;
    const cores = (ms) => round(ms / 1000 / seconds, 2);
    return {
      cores: { machine_busy: cores(busyMs), org_process: cores(orgMs), org_main_thread: cores(mainMs), postgres: cores(pgMs), bench_members: cores(selfMs), other_processes: cores(Math.max(0, busyMs - orgMs - pgMs - selfMs)) },
      cpu_ms_each: { org_process: round(orgMs / units, 3), org_main_thread: round(mainMs / units, 3), org_check_workers: round((orgMs - mainMs) / units, 3), postgres: round(pgMs / units, 3), org_and_postgres: round((orgMs + pgMs) / units, 3) },
      loadavg_1m: loads.length === 0 ? null : { min: Math.min(...loads), mean: round(loads.reduce((a, b) => a + b, 0) / loads.length, 2), max: Math.max(...loads) },
    };
  };
}

try {
  log(`building and signing ${fmtInt(opts.submissions)} submissions for ${opts.members} members`);
  const perMember = Math.ceil(opts.submissions / opts.members);
  const members = [];
  for (let m = 0; m < opts.members; m++) {
    const mm = member(m);
    const { key } = await addMember(pool, orgKey, mm.id, `bench member ${m}`, 'bench');
    members.push({ ...mm, key, items: mm.submissions(Math.min(perMember, opts.submissions - m * perMember)) });
  }
  const reviewerKeys = [];
  for (let r = 0; r < opts.reviewers; r++) reviewerKeys.push((await issueStaffKey(pool, orgKey, 'review', `bench reviewer ${r}`, 'bench')).key);
  const dbSize = async () => Number((await pool.query('SELECT pg_database_size(current_database()) AS n')).rows[0].n);
  const sizeBefore = await dbSize();

  const quiet = opts['wait-quiet'] > 0 ? await waitQuiet(opts['wait-quiet'], 0.25, log) : null;
  if (quiet && !quiet.quiet) log(`the machine is still busy (${quiet.busy_cores} cores used by other processes): measuring anyway`);

  // Submissions: one closed-loop client per member, all at once.
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.members });
  const latencies = [];
  const statuses = {};
  const rssAlong = [];
  const loadBefore = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
  let cpu0 = cpuMs();
  const submitPhase = cpuPhase();
  let t0 = performance.now();
  await Promise.all(
    members.map(async (m) => {
      for (const s of m.items) {
        const t = performance.now();
        const res = await call(agent, port, 'PUT', `/submissions/${encodeURIComponent(s.artifactId)}`, m.key, s.text);
        latencies.push(performance.now() - t);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        // The org's memory at each tenth of the run: flat is the claim.
        if (latencies.length % Math.ceil(opts.submissions / 10) === 0) rssAlong.push(rss.rssMb);
      }
    }),
  );
  const submitMs = performance.now() - t0;
  const submitCpuMs = cpuMs() - cpu0;
  const total = latencies.length;
  const submitCpu = submitPhase(total);
  const submitPct = percentiles(latencies, [50, 99]);
  const rssAfterSubmit = rss.rssMb;
  const sizeAfter = await dbSize();
  const inboxBytes = Number((await pool.query("SELECT pg_total_relation_size('submissions') AS n")).rows[0].n);
  log(`submitted ${fmtInt(total)} in ${fmtMs(submitMs)} ms: ${JSON.stringify(statuses)}`);

  // Decisions: reviewers drain the inbox, one take and one countersign at a time.
  cpu0 = cpuMs();
  const decidePhase = cpuPhase();
  t0 = performance.now();
  let decided = 0;
  await Promise.all(
    reviewerKeys.map(async (key) => {
      for (;;) {
        const taken = await call(agent, port, 'POST', '/rpc', key, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'gv.org_take', params: {} }));
        const item = taken.body.result.item;
        if (item === null) return;
        const params = { member_deployment_id: item.member_deployment_id, artifact_id: item.artifact_id, decision: 'countersign' };
        const r = await call(agent, port, 'POST', '/rpc', key, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'gv.org_review', params }));
        if (r.body.result?.changed) decided++;
      }
    }),
  );
  const decideMs = performance.now() - t0;
  const decideCpuMs = cpuMs() - cpu0;
  const decideCpu = decidePhase(Math.max(1, decided));
  const logBytes = Number((await pool.query("SELECT pg_total_relation_size('org_log') + pg_total_relation_size('outcomes') AS n")).rows[0].n);

  // Outcomes read back: every member pages its own, 500 a page.
  t0 = performance.now();
  let outcomes = 0;
  await Promise.all(
    members.map(async (m) => {
      let since = 0;
      for (;;) {
        const page = await call(agent, port, 'GET', `/outcomes?since=${since}&limit=500`, m.key);
        if (page.body.events.length === 0) return;
        outcomes += page.body.events.length;
        since = page.body.next;
      }
    }),
  );
  const outcomesMs = performance.now() - t0;
  const rssEnd = rss.rssMb;
  const rssPeak = rss.peakMb;

  // The floor: the same rows, INSERTed straight through the driver into a copy of the inbox table.
  await pool.query('CREATE TABLE floor_submissions (LIKE submissions INCLUDING DEFAULTS INCLUDING INDEXES)');
  const floorLat = [];
  t0 = performance.now();
  await Promise.all(
    members.map(async (m) => {
      for (const s of m.items) {
        const t = performance.now();
        await pool.query("INSERT INTO floor_submissions (deployment_id, artifact_id, submission_id, trust_class, body, state) VALUES ($1, $2, $3, 'T-1', $4, 'leased')", [m.id, s.artifactId, s.artifactId, s.text]);
        floorLat.push(performance.now() - t);
      }
    }),
  );
  const floorMs = performance.now() - t0;
  const floorPct = percentiles(floorLat, [50, 99]);

  // The batched floor: the same rows again, 50 to a multi-row INSERT (one statement, one commit), as many at once as members.
  await pool.query('TRUNCATE floor_submissions');
  const rows = members.flatMap((m) => m.items.map((s) => [m.id, s.artifactId, s.text]));
  const batchLat = [];
  let next = 0;
  t0 = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(opts.members, 8) }, async () => {
      for (;;) {
        const chunk = rows.slice(next, next + 50);
        next += 50;
        if (chunk.length === 0) return;
        const t = performance.now();
        await pool.query(
          "INSERT INTO floor_submissions (deployment_id, artifact_id, submission_id, trust_class, body, state) SELECT d, a, a, 'T-1', b, 'leased' FROM unnest($1::text[], $2::text[], $3::text[]) AS t(d, a, b)",
          [chunk.map((r) => r[0]), chunk.map((r) => r[1]), chunk.map((r) => r[2])],
        );
        batchLat.push(performance.now() - t);
      }
    }),
  );
  const batchFloorMs = performance.now() - t0;
  const batchPct = percentiles(batchLat, [50, 99]);

  const results = {
    bench: 'org',
    date: new Date().toISOString(),
    machine: machine(),
    postgres: (await pool.query('SHOW server_version')).rows[0].server_version,
    options: recordedOptions(opts),
    submissions: {
      count: total,
      statuses,
      per_s: round(total / (submitMs / 1000), 0),
      p50_ms: round(submitPct[50], 2),
      p99_ms: round(submitPct[99], 2),
      org_process_cpu_ms_each: round(submitCpuMs / total, 3),
      ...submitCpu,
    },
    decisions: { count: decided, per_s: round(decided / (decideMs / 1000), 0), org_process_cpu_ms_each: round(decideCpuMs / Math.max(1, decided), 3), ...decideCpu },
    loadavg_1m_before_submissions: Number(loadBefore),
    outcomes_read: { count: outcomes, per_s: round(outcomes / (outcomesMs / 1000), 0) },
    database: {
      bytes_per_100k_submissions: Math.round(((sizeAfter - sizeBefore) / total) * 100_000),
      inbox_table_bytes_per_100k: Math.round((inboxBytes / total) * 100_000),
      log_and_outcomes_bytes_per_100k_decisions: Math.round((logBytes / Math.max(1, decided)) * 100_000),
    },
    org_rss_mb: { start: rssStart, each_tenth_of_submissions: rssAlong, after_submissions: rssAfterSubmit, end: rssEnd, peak: rssPeak },
    machine_before: quiet,
    floor_raw_insert: { per_s: round(total / (floorMs / 1000), 0), p50_ms: round(floorPct[50], 2), p99_ms: round(floorPct[99], 2), how: 'one INSERT per submission, one connection per member' },
    floor_batched_insert: { per_s: round(total / (batchFloorMs / 1000), 0), batch_p50_ms: round(batchPct[50], 2), batch_p99_ms: round(batchPct[99], 2), how: '50 rows per INSERT ... SELECT FROM unnest, 8 at once' },
  };
  printTable(
    [
      ['', 'rate', 'p50 ms', 'p99 ms'],
      [`PUT /submissions (${opts.members} members)`, `${fmtInt(results.submissions.per_s)}/s`, fmtMs(results.submissions.p50_ms), fmtMs(results.submissions.p99_ms)],
      ['floor: raw INSERT, same rows', `${fmtInt(results.floor_raw_insert.per_s)}/s`, fmtMs(results.floor_raw_insert.p50_ms), fmtMs(results.floor_raw_insert.p99_ms)],
      ['floor: 50-row INSERTs, same rows', `${fmtInt(results.floor_batched_insert.per_s)}/s`, '', ''],
      [`gv.org_review (${opts.reviewers} reviewers)`, `${fmtInt(results.decisions.per_s)}/s`, '', ''],
      ['GET /outcomes read back', `${fmtInt(results.outcomes_read.per_s)}/s`, '', ''],
    ],
    'organization gate',
  );
  log(`CPU per submission (ms): ${JSON.stringify(submitCpu.cpu_ms_each)}; cores: ${JSON.stringify(submitCpu.cores)}; load average: ${JSON.stringify(submitCpu.loadavg_1m)}`);
  log(`CPU per decision (ms): ${JSON.stringify(decideCpu.cpu_ms_each)}; cores: ${JSON.stringify(decideCpu.cores)}`);
  log(`database: ${JSON.stringify(results.database)}; org RSS MB: ${JSON.stringify(results.org_rss_mb)}`);
  if (opts.out) {
    mkdirSync(join(BENCH_DIR, 'results'), { recursive: true });
    writeFileSync(opts.out, `${JSON.stringify(results, null, 2)}\n`);
  }
  agent.destroy();
} finally {
  rss.stop();
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  await pool.end();
  stopEmbedded(clusterDir);
}
