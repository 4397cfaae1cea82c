#!/usr/bin/env node
// The gate under a hostile-image load (issue 13 §1): attackers upload, in turn, the issue's
// three images whose EXIF claims more than its bytes hold (a 24.7 KB JPEG of 2,000 tags, a
// 60 KB PNG eXIf of 3,000, a 200 KB PNG), while one honest client uploads 1 KB JPEGs one at
// a time. Measures the gate's RSS (VmRSS sampled every 50 ms, VmHWM), the clean uploads'
// latency and the gate's CPU ms per image task, each beside its floor from the same run: the
// same clean uploads on the same gate with no attack, its RSS then, and exif-reader (the
// parser the gate used before) alone on one attack JPEG's segment in this process.
// Writes bench/results/hostile-image.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import exifReader from 'exif-reader';
import {
  BENCH_DIR,
  CpuAccount,
  HttpClient,
  RssSampler,
  SocketClient,
  fmtInt,
  fmtMs,
  gateBuildStatus,
  machine,
  parseOptions,
  percentiles,
  printTable,
  round,
  startGate,
  tempDir,
  waitQuiet,
} from './lib.js';
import { cleanImages, hostileImages } from '../fixtures/hostile-exif.js';
import { createHash } from 'node:crypto';

const USAGE = `
node bench/hostile-image.js [options]

Starts a gate, uploads clean 1 KB JPEGs alone (the floor), then again while --attackers
clients upload the issue's hostile images for --seconds; prints the clean uploads' latency,
the gate's RSS and CPU per image task beside the floors, and writes
bench/results/hostile-image.json. About a minute at the defaults.`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    seconds: { type: 'number', default: 30, help: 'length of the hostile load' },
    attackers: { type: 'number', default: 2, help: 'clients uploading hostile images, one in flight each' },
    'floor-uploads': { type: 'number', default: 100, help: 'clean uploads with no attack' },
    'old-reader': { type: 'boolean', default: true, help: 'also time exif-reader alone on one attack segment (about 4 s, 600 MB in this process); --old-reader=false skips it' },
    'wait-quiet': { type: 'number', default: 60, help: 'wait at most this many s for other processes to quiet down (0: do not wait)' },
  },
  USAGE,
);

const log = (line) => process.stdout.write(`${line}\n`);
const sha256 = (bytes) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

async function uploadOnce(http, key, bytes) {
  const started = performance.now();
  const { body } = await http.send(key, 'gv.upload', { sha256: sha256(bytes), size_bytes: bytes.length, offset: 0, content: bytes.toString('base64') });
  return { ms: performance.now() - started, body };
}

/** `count` distinct clean 1 KB JPEGs (distinct seeds: every upload is new bytes to prepare). */
async function cleanJpegs(count, seedBase) {
  const out = [];
  for (let i = 0; i < count; i++) out.push((await cleanImages(seedBase + i)).jpeg);
  return out;
}

async function main() {
  const build = gateBuildStatus();
  if (!build.ok) {
    process.stderr.write(`hostile-image: the gate is not built (missing ${build.missing.join(', ')}); run: npx tsc -p tsconfig.json\n`);
    process.exit(2);
  }
  const quiet = opts['wait-quiet'] > 0 ? await waitQuiet(opts['wait-quiet'], 0.25, log) : null;
  const hostile = await hostileImages();
  const attacks = Object.entries(hostile);

  let oldReader = null;
  if (opts['old-reader']) {
    const jpeg = hostile['jpeg-2000-tags'];
    const segment = jpeg.subarray(6, 6 + ((jpeg[4] << 8) | jpeg[5]) - 2);
    const rss0 = process.memoryUsage().rss;
    const t = performance.now();
    const parsed = exifReader(Buffer.from(segment));
    const ms = performance.now() - t;
    const values = Object.values(parsed.Image).reduce((n, v) => n + (Array.isArray(v) ? v.length : 1), 0);
    oldReader = { ms: round(ms, 0), values, rss_growth_mb: round((process.memoryUsage().rss - rss0) / 1048576, 0) };
    log(`exif-reader alone on the 2,000-tag segment: ${fmtInt(values)} values, ${fmtMs(ms)} ms, +${oldReader.rss_growth_mb} MB`);
  }

  const dir = tempDir('gate-bench-hostile-image');
  const gate = await startGate({ home: join(dir, 'home'), removeHome: true });
  log(`gate pid ${gate.pid} at ${gate.url}`);
  let result;
  try {
    const admin = await SocketClient.open(gate.socketPath);
    const keys = [];
    for (let i = 0; i <= opts.attackers; i++) keys.push((await admin.call('gv.keys', { action: 'issue', role: 'agent', label: `hostile-image-${i}` })).key);
    admin.close();
    const [honest, ...attackerKeys] = keys;
    const http = new HttpClient(gate.url, { maxSockets: opts.attackers + 2 });

    // Warm: the image worker and sharp loaded, as on any gate that has seen an image.
    await uploadOnce(http, honest, (await cleanImages(0)).jpeg);

    log(`floor: ${opts['floor-uploads']} clean uploads, no attack`);
    const floorImages = await cleanJpegs(opts['floor-uploads'], 1000);
    const rssFloor = new RssSampler(gate.pid, 50);
    const floorCpu = new CpuAccount(gate.pid);
    const floorMs = [];
    for (const jpeg of floorImages) {
      const { ms, body } = await uploadOnce(http, honest, jpeg);
      if (body?.result?.prepared !== true) throw new Error(`a clean upload was not prepared: ${JSON.stringify(body)}`);
      floorMs.push(ms);
    }
    const floorCpuUse = floorCpu.stop();
    const floorRss = { rss_mb: rssFloor.rssMb, peak_mb: rssFloor.peakMb };
    rssFloor.stop();

    log(`hostile load: ${opts.attackers} attacker(s) for ${opts.seconds} s beside one honest client`);
    const rss = new RssSampler(gate.pid, 50);
    const rssBefore = rss.rssMb;
    const cpu = new CpuAccount(gate.pid);
    const until = performance.now() + opts.seconds * 1000;
    const reasons = {};
    const refusalMs = [];
    const attacker = async (key, start) => {
      for (let i = start; performance.now() < until; i++) {
        const [, bytes] = attacks[i % attacks.length];
        const { ms, body } = await uploadOnce(http, key, bytes);
        const reason = body?.error ? `${body.error.code} ${body.error.data?.reason ?? ''}`.trim() : 'accepted';
        reasons[reason] = (reasons[reason] ?? 0) + 1;
        refusalMs.push(ms);
      }
    };
    const cleanMs = [];
    let cleanFailed = 0;
    const honestClient = async () => {
      for (let i = 0; performance.now() < until; i++) {
        // New bytes each time (made before the clock starts): a repeat would be answered from the finished upload.
        const jpeg = (await cleanImages(100_000 + i)).jpeg;
        const { ms, body } = await uploadOnce(http, honest, jpeg);
        if (body?.result?.prepared === true) cleanMs.push(ms);
        else cleanFailed++;
      }
    };
    await Promise.all([...attackerKeys.map((k, i) => attacker(k, i)), honestClient()]);
    const cpuUse = cpu.stop();
    const peakRss = rss.peakMb;
    const rssAfter = rss.rssMb;
    rss.stop();
    http.close();

    const tasks = refusalMs.length + cleanMs.length + cleanFailed;
    const { 50: cleanP50, 99: cleanP99 } = percentiles(cleanMs);
    const { 50: floorP50, 99: floorP99 } = percentiles(floorMs);
    const { 50: refusalP50, 99: refusalP99 } = percentiles(refusalMs);
    result = {
      hostile_uploads: refusalMs.length,
      hostile_refusals: reasons,
      hostile_refusal_p50_ms: round(refusalP50, 1),
      hostile_refusal_p99_ms: round(refusalP99, 1),
      clean_uploads: cleanMs.length,
      clean_failed: cleanFailed,
      clean_p50_ms: round(cleanP50, 1),
      clean_p99_ms: round(cleanP99, 1),
      clean_max_ms: round(Math.max(...cleanMs), 1),
      gate_rss_before_mb: rssBefore,
      gate_peak_rss_mb: peakRss,
      gate_rss_after_mb: rssAfter,
      gate_cpu_ms_per_task: round((cpuUse.gate_cores * cpuUse.seconds * 1000) / tasks, 2),
      cpu: cpuUse,
    };
    const floors = {
      clean_p50_ms: round(floorP50, 1),
      clean_p99_ms: round(floorP99, 1),
      gate_rss_mb: floorRss.rss_mb,
      gate_cpu_ms_per_task: round((floorCpuUse.gate_cores * floorCpuUse.seconds * 1000) / floorMs.length, 2),
      exif_reader_alone: oldReader,
    };
    printTable(
      [
        ['', 'under the hostile load', 'floor (same gate, no attack)', 'bound'],
        ['clean 1 KB JPEG upload p50 / p99, ms', `${fmtMs(result.clean_p50_ms)} / ${fmtMs(result.clean_p99_ms)} (max ${fmtMs(result.clean_max_ms)})`, `${fmtMs(floors.clean_p50_ms)} / ${fmtMs(floors.clean_p99_ms)}`, '< image.deadline_ms'],
        ['hostile upload refused p50 / p99, ms', `${fmtMs(result.hostile_refusal_p50_ms)} / ${fmtMs(result.hostile_refusal_p99_ms)}`, oldReader ? `exif-reader alone: ${fmtInt(oldReader.ms)} ms, +${oldReader.rss_growth_mb} MB` : '', ''],
        ['gate RSS before / peak / after, MB', `${rssBefore} / ${peakRss} / ${rssAfter}`, `${floors.gate_rss_mb}`, ''],
        ['gate CPU per image task, ms', result.gate_cpu_ms_per_task, floors.gate_cpu_ms_per_task, ''],
        ['refusals', Object.entries(reasons).map(([r, n]) => `${r}: ${fmtInt(n)}`).join(', '), '', 'all -32602 metadata_invalid'],
      ],
      `hostile images (${opts.attackers} attacker(s), ${opts.seconds} s; machine busy ${cpuUse.machine_busy_cores} cores, others ${cpuUse.other_processes_cores})`,
    );
    mkdirSync(join(BENCH_DIR, 'results'), { recursive: true });
    writeFileSync(
      join(BENCH_DIR, 'results', 'hostile-image.json'),
      `${JSON.stringify({ ...result, floors, attackers: opts.attackers, seconds: opts.seconds, quiet, machine: machine(), at: new Date().toISOString() }, null, 2)}\n`,
    );
    log('wrote bench/results/hostile-image.json');
  } finally {
    await gate.stop();
  }
}

await main();
