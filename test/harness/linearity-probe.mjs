#!/usr/bin/env node
// Judges whether the patterns of scanner modules run in time linear in their input, in a
// process of its own: node test/harness/linearity-probe.mjs <module.ts>... prints one JSON
// line per module, { module, patterns, unexported, failures }. The patterns are what the
// compiled module (dist/workers/scan/) exports and the literals its source writes; run
// `npx tsc -p tsconfig.json` first. test/scanner/linear-rules.test.ts runs it and says why
// the measuring happens here rather than in the test's own process.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  adversarialShapes,
  builtPatternConstants,
  describeShape,
  exportedPatterns,
  inputOf,
  matchAllOf,
  regexLiteralsIn,
} from './adversarial-inputs.mjs';

const ROOT = new URL('../../', import.meta.url);
const KIB = 1024;
/** Growth allowed for 4 times the text, and for 16 times: linear, with slack for a noisy machine. */
export const STEP_LIMIT = 10;
export const LIMIT = 40;
const SIZES = [1 * KIB, 4 * KIB, 16 * KIB, 64 * KIB];
/** Of a pattern's inputs, those slowest at 16 KiB are grown (the rest cost the same per character or less). */
const GROWN_PER_PATTERN = 3;
// A floor under each time, so that a pattern with nothing to do (a few µs) is not judged on timer noise.
const FLOOR_MS = 0.05;

/** CPU time of this process, ms: what a run cost, whatever else the machine is running. */
function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * The cheapest of several runs, in CPU ms: at least 3 runs and 40 ms of them, at most 25
 * runs or 4 s. CPU time rather than the clock: on a machine shared with other work a run
 * waits for a core, and the wait is no part of the pattern's work.
 */
function fastest(run) {
  run();
  let best = Infinity;
  let total = 0;
  for (let n = 0; n < 25 && (n < 3 || total < 40) && total < 4000; n++) {
    const t0 = cpuMs();
    run();
    const took = cpuMs() - t0;
    best = Math.min(best, took);
    total += took;
  }
  return best;
}

/** Times at growing sizes, stopping at the first step past STEP_LIMIT; null when every step and the whole are within limits. */
function overgrowth(regex, shape, sizes, whole) {
  const times = new Map();
  for (const [i, size] of sizes.entries()) {
    const text = inputOf(shape, size);
    times.set(size, Math.max(FLOOR_MS, fastest(() => matchAllOf(regex, text))));
    const step = i === 0 ? 1 : times.get(size) / times.get(sizes[i - 1]);
    const ratio = size === whole[1] ? times.get(size) / times.get(whole[0]) : 1;
    if (step > STEP_LIMIT || ratio > LIMIT) {
      return `${describeShape(shape)}: ${[...times].map(([n, ms]) => `${ms.toFixed(2)} ms at ${n / KIB} KiB`).join(', ')}`;
    }
  }
  return null;
}

/** Why a pattern's slowest inputs grew too fast, or null: linear. */
export function judge(regex) {
  const screened = adversarialShapes(regex)
    .map((shape) => {
      const text = inputOf(shape, 16 * KIB);
      return { shape, ms: fastest(() => matchAllOf(regex, text)) };
    })
    .sort((a, b) => b.ms - a.ms)
    .slice(0, GROWN_PER_PATTERN);
  for (const { shape } of screened) {
    const over = overgrowth(regex, shape, SIZES, [4 * KIB, 64 * KIB]);
    if (over !== null) return over;
  }
  return null;
}

/** Every pattern of one module of workers/scan/: exported (compiled) and written as literals (source). */
export async function modulePatterns(file) {
  const namespace = await import(new URL(`dist/workers/scan/${file.replace(/\.ts$/, '.js')}`, ROOT).href);
  const source = readFileSync(new URL(`workers/scan/${file}`, ROOT), 'utf8');
  const patterns = [...exportedPatterns(file, namespace), ...(await regexLiteralsIn(file, source))];
  const unexported = (await builtPatternConstants(file, source)).filter((name) => !(name in namespace));
  return { patterns, unexported };
}

async function main(files) {
  for (const file of files) {
    const { patterns, unexported } = await modulePatterns(file);
    const failures = [];
    for (const { name, regex } of patterns) {
      const why = judge(regex);
      if (why !== null) failures.push(`${name} /${regex.source.slice(0, 80)}/${regex.flags} on ${why}`);
    }
    process.stdout.write(`${JSON.stringify({ module: file, patterns: patterns.length, unexported, failures })}\n`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exit(1);
  });
}
