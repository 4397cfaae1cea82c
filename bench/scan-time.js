#!/usr/bin/env node
// Bounded scan time (docs/scanner.md, "Bounded scan time"): the seconds the whole scanner
// takes on every pattern's adversarial inputs at 1 MiB, and how long a 4 MiB claim delays
// another writer's ingest through a real gate. Writes bench/results/scan-time.json.
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  BENCH_DIR,
  HttpClient,
  REPO_ROOT,
  SocketClient,
  fmtMs,
  gateBuildStatus,
  gitShortHead,
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
import { adversarialShapes, describeShape, exportedPatterns, inputOf, matchAllOf, regexLiteralsIn } from '../test/harness/adversarial-inputs.mjs';

const usage = `
node bench/scan-time.js [options]

Two parts, after npm run build (both run dist/):

  rules  Every pattern of workers/scan/ (what its modules export and the literals written in
         them, as test/scanner/linear-rules.test.ts finds them) gives its adversarial inputs
         (test/harness/adversarial-inputs.mjs); the slowest for the pattern alone at 16 KiB,
         and its whole matches repeated, are scanned by the whole scanner (scanText, in this
         process) at 64 KiB and at --size-kib. Records the seconds of each (wall and CPU),
         the ratio, and the slowest. Target: every 1 MiB input under 1 s.
  gate   A real gate (its own home, loopback): writer B ingests ~1 KB claims in a closed loop
         while writer A ingests a --claim-mib claim (the rules part's slowest input the gate accepts, and
         prose), --rounds times. Records B's latency before and during A's ingest, and in a
         window as long right after (what B meets on this machine without A); the delay is
         B's longest ingest during A's less B's median before. Target: under 1 s.
`;

const spec = {
  part: { type: 'string', default: 'all', help: 'rules, gate or all' },
  'size-kib': { type: 'number', default: 1024, help: 'size of the adversarial inputs scanned, KiB' },
  only: { type: 'string', default: '', help: 'rules part: only patterns whose name holds this text' },
  inputs: { type: 'string', default: 'both', help: "rules part: 'slowest' (each pattern's slowest input alone) or 'both' (and its whole matches repeated)" },
  'claim-mib': { type: 'number', default: 4, help: 'gate part: size of the large claim, MiB' },
  rounds: { type: 'number', default: 2, help: 'gate part: large claims ingested, each kind' },
  'small-writers': { type: 'number', default: 2, help: "gate part: writer B's requests in flight" },
  'scan-threads': { type: 'number', default: -1, help: 'gate part: GATE_SCAN_THREADS (-1: the default, every core)' },
  'wait-quiet': { type: 'number', default: 60, help: 'seconds to wait for other processes to quiet down first' },
  out: { type: 'string', default: join(BENCH_DIR, 'results', 'scan-time.json'), help: 'where the results go' },
};

const opts = parseOptions(process.argv.slice(2), spec, usage);
if (!['rules', 'gate', 'all'].includes(opts.part)) throw new Error(`--part must be rules, gate or all, not ${opts.part}`);
const log = (line) => process.stderr.write(`${line}\n`);
const KIB = 1024;

async function patterns() {
  const dir = join(REPO_ROOT, 'workers/scan');
  const found = [];
  const seen = new Set();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'pool-entry.ts').sort()) {
    const namespace = await import(join(REPO_ROOT, 'dist/workers/scan', file.replace(/\.ts$/, '.js')));
    for (const p of [...exportedPatterns(file, namespace), ...(await regexLiteralsIn(file, readFileSync(join(dir, file), 'utf8')))]) {
      const key = `${p.regex.source}/${p.regex.flags}`;
      if (seen.has(key)) continue;
      seen.add(key);
      found.push(p);
    }
  }
  return found;
}

function fastestMs(run, runs = 3) {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    run();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

async function timedScan(scanText, text) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await scanText(text, { contentType: 'memory' });
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { wall_s: round(wall, 3), cpu_s: round((cpu.user + cpu.system) / 1e6, 3), findings: result.findings.length };
}

async function rulesPart() {
  const { scanText } = await import(join(REPO_ROOT, 'dist/workers/scan/scan-text.js'));
  const size = opts['size-kib'] * KIB;
  const rows = [];
  const all = (await patterns()).filter((p) => opts.only === '' || p.name.includes(opts.only));
  log(`rules: ${all.length} patterns, inputs at ${opts['size-kib']} KiB`);
  await scanText('warm up the scanner', { contentType: 'memory' });
  for (const [i, p] of all.entries()) {
    const shapes = adversarialShapes(p.regex);
    const slowest = shapes
      .map((shape) => ({ shape, ms: fastestMs(() => matchAllOf(p.regex, inputOf(shape, 16 * KIB))) }))
      .sort((a, b) => b.ms - a.ms)[0];
    const picked = [slowest?.shape, opts.inputs === 'both' ? shapes.find((s) => s.shape === 'repeat') : undefined].filter((s, k, list) => s !== undefined && list.indexOf(s) === k);
    for (const shape of picked) {
      const small = await timedScan(scanText, inputOf(shape, 64 * KIB));
      const large = await timedScan(scanText, inputOf(shape, size));
      if (large.wall_s >= 0.5) log(`  ${p.name}: ${large.wall_s} s (CPU ${large.cpu_s} s) at ${opts['size-kib']} KiB on ${describeShape(shape)}`);
      rows.push({
        pattern: p.name,
        input: describeShape(shape),
        scan_64kib_s: small.wall_s,
        [`scan_${opts['size-kib']}kib_s`]: large.wall_s,
        cpu_s: large.cpu_s,
        findings: large.findings,
        ratio: round(large.wall_s / Math.max(0.001, small.wall_s), 1),
        shape,
      });
    }
    if ((i + 1) % 20 === 0) log(`  ${i + 1} of ${all.length} patterns`);
  }
  const key = `scan_${opts['size-kib']}kib_s`;
  rows.sort((a, b) => b[key] - a[key]);
  printTable(
    [['pattern', 'input', '64 KiB s', `${opts['size-kib']} KiB s`, 'ratio', 'findings'], ...rows.slice(0, 15).map((r) => [r.pattern, r.input.slice(0, 50), r.scan_64kib_s, r[key], r.ratio, r.findings])],
    `the 15 slowest of ${rows.length} inputs through the whole scanner`,
  );
  return {
    patterns: all.length,
    inputs: rows.length,
    size_kib: opts['size-kib'],
    slowest_s: rows[0]?.[key] ?? null,
    all_under_1s: rows.every((r) => r[key] < 1),
    rows: rows.map(({ shape, ...r }) => r),
    slowest_shape: rows[0]?.shape ?? null,
    // The gate refuses a request holding a lone surrogate (it has no UTF-8 form), so the
    // gate part sends the slowest input that is well formed.
    slowest_sendable: rows.find((r) => inputOf(r.shape, 1024).isWellFormed())?.pattern ?? null,
    slowest_sendable_shape: rows.find((r) => inputOf(r.shape, 1024).isWellFormed())?.shape ?? null,
  };
}

/** Prose of about `bytes` bytes: ordinary notes, the text a large claim mostly is. */
function prose(bytes) {
  const words = 'the build runs tests before each release and the cache is cleared when the lockfile changes so a fresh install reads every package again'.split(' ');
  let out = '';
  for (let i = 0; out.length < bytes; i++) out += (i % 17 === 16 ? '.\n' : ' ') + words[(i * 7) % words.length];
  return out.slice(0, bytes);
}

async function gatePart(slowestShape) {
  const claimBytes = opts['claim-mib'] * 1024 * KIB;
  const large = [
    ...(slowestShape ? [{ kind: `slowest rule input: ${describeShape(slowestShape)}`, text: (n) => `${n} ${inputOf(slowestShape, claimBytes - 16)}` }] : []),
    { kind: 'prose', text: (n) => `${n} ${prose(claimBytes - 16)}` },
  ];
  // The request limit is the largest claim as sent: JSON writes a lone surrogate (tag
  // characters' halves) in six bytes, so a 4 MiB input of them is a 24 MiB request.
  const requestBytes = Math.max(claimBytes * 2, ...large.map(({ text }) => Buffer.byteLength(JSON.stringify(text('round x 0')))));
  const env = {
    GATE_MCP_MAX_REQUEST_BYTES: String(requestBytes + 64 * KIB),
    GATE_SERVER_MAX_BODY_BYTES_PER_IDENTITY: String(requestBytes * 2),
    GATE_QUARANTINE_MAX_DEPTH: '1000000',
    ...(opts['scan-threads'] >= 0 ? { GATE_SCAN_THREADS: String(opts['scan-threads']) } : {}),
  };
  const gate = await startGate({ home: tempDir('gate-bench-scan-time'), removeHome: true, env });
  const rounds = [];
  try {
    const admin = await SocketClient.open(gate.socketPath);
    const keyA = (await admin.call('gv.keys', { action: 'issue', role: 'agent', label: 'bench-large' })).key;
    const keyB = (await admin.call('gv.keys', { action: 'issue', role: 'agent', label: 'bench-small' })).key;
    const describe = await admin.call('gv.describe', {}).catch(() => null);
    admin.close();
    const client = new HttpClient(gate.url, { maxSockets: opts['small-writers'] + 2 });
    let seq = 0;
    for (const { kind, text } of large) {
      for (let r = 0; r < opts.rounds; r++) {
        const latencies = [];
        let stop = false;
        const smallWriter = async () => {
          while (!stop) {
            const t0 = performance.now();
            const { status, body } = await client.send(keyB, 'gv.ingest', { content: `note ${seq++} ${prose(900)}`, kind: 'memory', workarea: 'bench/small', source_uri: 'bench://scan-time' });
            if (status !== 200 || body.error) throw new Error(`writer B's ingest failed: ${status} ${JSON.stringify(body.error ?? body)}`);
            latencies.push({ start: t0, end: performance.now() });
          }
        };
        const writers = Array.from({ length: opts['small-writers'] }, smallWriter);
        await new Promise((res) => setTimeout(res, 3000));
        const content = text(`round ${kind} ${r}`);
        const a0 = performance.now();
        const { status, body } = await client.send(keyA, 'gv.ingest', { content, kind: 'memory', workarea: 'bench/large', source_uri: 'bench://scan-time' });
        const a1 = performance.now();
        if (status !== 200 || body.error) {
          // B's writers end first: stopped by the gate's shutdown, they would fail in its place.
          stop = true;
          await Promise.allSettled(writers);
          throw new Error(`writer A's ingest failed: ${status} ${JSON.stringify(body.error ?? body)}`);
        }
        // A control window as long as A's ingest, right after it: what B meets on this machine without A.
        const c0 = performance.now() + 200;
        const c1 = c0 + Math.max(1500, a1 - a0);
        await new Promise((res) => setTimeout(res, c1 - performance.now() + 100));
        stop = true;
        await Promise.all(writers);
        const before = latencies.filter((l) => l.end < a0).map((l) => l.end - l.start);
        const during = latencies.filter((l) => l.end > a0 && l.start < a1).map((l) => l.end - l.start);
        const control = latencies.filter((l) => l.start >= c0 && l.end <= c1).map((l) => l.end - l.start);
        const base = percentiles(before, [50])[50];
        const worst = Math.max(...during);
        const row = {
          claim: kind,
          claim_bytes: Buffer.byteLength(content),
          large_ingest_ms: round(a1 - a0, 0),
          large_state: body.result?.state ?? null,
          small_before_p50_ms: round(base, 1),
          small_during: during.length,
          small_during_p99_ms: round(percentiles(during, [99])[99], 1),
          small_during_max_ms: round(worst, 1),
          small_control_max_ms: round(Math.max(...control), 1),
          delay_ms: round(worst - base, 0),
        };
        rounds.push(row);
        log(`  ${kind.slice(0, 40)} #${r + 1}: A ${row.large_ingest_ms} ms (${row.large_state}); B ${row.small_during} ingests during, longest ${fmtMs(worst)} ms (median before ${fmtMs(base)} ms, longest in as long a window after ${fmtMs(row.small_control_max_ms)} ms): delay ${row.delay_ms} ms`);
      }
    }
    return { scan_threads: describe?.config?.scan?.threads ?? null, claim_mib: opts['claim-mib'], rounds, max_delay_ms: Math.max(...rounds.map((r) => r.delay_ms)), under_1s: rounds.every((r) => r.delay_ms < 1000) };
  } finally {
    await gate.stop();
  }
}

async function main() {
  const build = gateBuildStatus();
  if (!build.ok) throw new Error(`the gate is not built: missing ${build.missing.join(', ')} (run: npm run build)`);
  const quiet = await waitQuiet(opts['wait-quiet'], 0.25, log);
  const results = { measured_at: new Date().toISOString(), build: gitShortHead(), machine: machine(), quiet, options: recordedOptions(opts) };
  let slowest = null;
  if (opts.part !== 'gate') {
    results.rules = await rulesPart();
    slowest = results.rules.slowest_sendable_shape;
  }
  if (opts.part !== 'rules') {
    if (slowest === null) {
      // Without the rules part, the large claim is prose only.
      log('gate part alone: the large claim is prose only (run --part all for the slowest rule input too)');
    }
    results.gate = await gatePart(slowest);
  }
  mkdirSync(join(BENCH_DIR, 'results'), { recursive: true });
  writeFileSync(opts.out, `${JSON.stringify(results, null, 2)}\n`);
  log(`wrote ${opts.out}`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
