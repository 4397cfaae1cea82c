#!/usr/bin/env node
// The bundle and image pools under load: ZIP inspection of a 50 MB bundle of 2,000 files
// (MB/s of archive, members/s) and served copies of 2 MP JPEGs (images/s), through the
// gate's own stages (pipeline/bundle-stage.js, pipeline/image-stage.js, Piscina pools),
// with the main thread's event-loop delay sampled the whole time and the process's peak
// RSS. Each figure is printed beside its floor measured in the same run: yauzl reading and
// hashing the same archive with no checks, and sharp re-encoding the same JPEGs, both
// alone on the main thread. Writes bench/results/bundle.json.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { BENCH_DIR, REPO_ROOT, fmtInt, gateBuildStatus, machine, parseOptions, printTable, rng, round } from './lib.js';
import { yazlZip } from '../fixtures/make-fixtures.js';

const USAGE = `
node bench/bundle.js [options]

Inspects a ~50 MB bundle of 2,000 files in the bundle pool and prepares 2 MP JPEGs in the
image pool, in-process through the gate's stages (run npm run build first), sampling the
main thread's event-loop delay; prints each figure beside its floor and writes
bench/results/bundle.json {mb_per_s, members_per_s, images_per_s, peak_rss_mb,
event_loop_p99_ms}. About a minute at the defaults.`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    files: { type: 'number', default: 2000, help: 'files in the bundle' },
    'archive-mb': { type: 'number', default: 50, help: 'approximate archive size, MB' },
    rounds: { type: 'number', default: 3, help: 'inspections of the bundle' },
    images: { type: 'number', default: 40, help: '2 MP JPEGs to prepare' },
    threads: { type: 'number', default: 1, help: 'threads of each pool (the gate default is 1)' },
  },
  USAGE,
);

const build = gateBuildStatus();
if (!build.ok) {
  process.stderr.write(`bundle: the gate is not built (missing ${build.missing.join(', ')}); run: npm run build\n`);
  process.exit(2);
}
const { BundleStage } = await import(join(REPO_ROOT, 'dist/pipeline/bundle-stage.js'));
const { ImageStage } = await import(join(REPO_ROOT, 'dist/pipeline/image-stage.js'));

// ---------------------------------------------------------------- inputs

/** Files of random bytes (so the archive is as large as its files) with a tail of words (so deflate has work). */
async function makeBundle() {
  const random = rng(6);
  const perFile = Math.round((opts['archive-mb'] * 1_000_000) / opts.files);
  const files = [['bench/SKILL.md', Buffer.from('# bench skill\n')]];
  for (let i = 1; i < opts.files; i++) {
    const words = Buffer.from(Array.from({ length: 200 }, () => `word${Math.floor(random() * 500)} `).join(''));
    const folder = i % 3 === 0 ? 'scripts' : i % 3 === 1 ? 'assets' : 'docs';
    files.push([`bench/${folder}/f${i}.txt`, Buffer.concat([randomBytes(perFile), words])]);
  }
  return yazlZip(files);
}

async function makeJpeg(seed) {
  const width = 1632;
  const height = 1224; // 2.0 megapixels
  const random = rng(seed);
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 3) {
    const x = (i / 3) % width;
    pixels[i] = (x * 255) / width;
    pixels[i + 1] = Math.floor(random() * 64) + 96;
    pixels[i + 2] = 128;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .withExif({ IFD0: { Make: 'BenchCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
    .withIccProfile('p3')
    .jpeg({ quality: 85 })
    .toBuffer();
}

// ---------------------------------------------------------------- floors

function yauzlFloor(archive) {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(archive, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      let members = 0;
      zip.on('entry', (entry) => {
        zip.openReadStream(entry, (err, stream) => {
          if (err) return reject(err);
          const hash = createHash('sha256');
          stream.on('data', (c) => hash.update(c));
          stream.on('end', () => {
            hash.digest();
            members++;
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(members));
      zip.readEntry();
    });
  });
}

// ---------------------------------------------------------------- run

const limits = {
  archiveMaxBytes: 200_000_000,
  entriesMax: 100_000,
  memberMaxBytes: 10_000_000,
  expandedMaxBytes: 500_000_000,
  ratioMax: 100,
  pathMaxBytes: 1024,
  pathMaxSegments: 32,
};

process.stdout.write(`making a bundle of ${opts.files} files and ${opts.images} 2 MP JPEGs...\n`);
const archive = await makeBundle();
const jpegs = await Promise.all(Array.from({ length: Math.min(opts.images, 8) }, (_, i) => makeJpeg(i + 1)));
const images = Array.from({ length: opts.images }, (_, i) => jpegs[i % jpegs.length]);
process.stdout.write(`archive ${round(archive.length / 1e6)} MB; JPEG ${round(jpegs[0].length / 1e3)} KB each\n`);

// Floors first, alone on the main thread.
let started = performance.now();
for (let r = 0; r < opts.rounds; r++) await yauzlFloor(archive);
const floorBundleS = (performance.now() - started) / 1000;
started = performance.now();
for (const jpeg of images) await sharp(jpeg).autoOrient().jpeg({ quality: 90 }).toBuffer();
const floorImagesS = (performance.now() - started) / 1000;

const pool = { threads: opts.threads, queueMax: 4096, retryAfterMs: 1000 };
const bundles = new BundleStage(limits, pool);
const imageStage = new ImageStage(100_000_000, pool);
// Warm each pool's threads (module loading is not what is measured).
await bundles.inspect(await yazlZip([['w/SKILL.md', Buffer.from('#')]]), true);
await imageStage.prepare(Buffer.from(jpegs[0]));

const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
// RSS of the whole process while the pools work (the inputs and the floors came before).
const rssBefore = process.memoryUsage().rss;
let rssPeak = rssBefore;
const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
started = performance.now();
let members = 0;
for (let r = 0; r < opts.rounds; r++) {
  const result = await bundles.inspect(archive, true);
  if (!result.valid) throw new Error(`the bench bundle failed inspection: ${result.detail}`);
  members += result.members.length;
}
const bundleS = (performance.now() - started) / 1000;
started = performance.now();
const prepared = await Promise.all(images.map((jpeg) => imageStage.prepare(Buffer.from(jpeg))));
const imagesS = (performance.now() - started) / 1000;
delay.disable();
clearInterval(sampler);
if (prepared.some((p) => p.outcome !== 'prepared')) throw new Error('an image was not prepared');
await bundles.close();
await imageStage.close();

const result = {
  mb_per_s: round((archive.length * opts.rounds) / 1e6 / bundleS),
  members_per_s: round(members / bundleS, 0),
  images_per_s: round(opts.images / imagesS),
  peak_rss_mb: round(rssPeak / 1048576, 1),
  event_loop_p99_ms: round(delay.percentile(99) / 1e6, 2),
};
const memory = { rss_before_pools_mb: round(rssBefore / 1048576, 1), process_max_rss_mb: round(process.resourceUsage().maxRSS / 1024, 1) };
const floors = {
  yauzl_read_and_hash_mb_per_s: round((archive.length * opts.rounds) / 1e6 / floorBundleS),
  yauzl_read_and_hash_members_per_s: round((opts.files * opts.rounds) / floorBundleS, 0),
  sharp_reencode_images_per_s: round(opts.images / floorImagesS),
};

printTable(
  [
    ['', 'gate (pool)', 'floor (main thread alone)', 'target'],
    ['bundle inspection, MB/s of archive', result.mb_per_s, floors.yauzl_read_and_hash_mb_per_s, ''],
    ['bundle inspection, members/s', fmtInt(result.members_per_s), fmtInt(floors.yauzl_read_and_hash_members_per_s), ''],
    ['2 MP JPEG served copies, images/s', result.images_per_s, floors.sharp_reencode_images_per_s, ''],
    ['main event-loop delay p99, ms', result.event_loop_p99_ms, '', '< 20'],
    ['peak RSS while the pools work, MB', result.peak_rss_mb, `${memory.rss_before_pools_mb} before`, ''],
  ],
  `bundle and image pools (${opts.threads} thread(s) each; floors: yauzl read + sha256, sharp re-encode)`,
);

mkdirSync(join(BENCH_DIR, 'results'), { recursive: true });
writeFileSync(
  join(BENCH_DIR, 'results', 'bundle.json'),
  `${JSON.stringify({ ...result, floors, memory, archive_mb: round(archive.length / 1e6), files: opts.files, rounds: opts.rounds, images: opts.images, threads: opts.threads, machine: machine(), at: new Date().toISOString() }, null, 2)}\n`,
);
process.stdout.write('wrote bench/results/bundle.json\n');
