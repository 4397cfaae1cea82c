import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Every pattern of the scanner runs in time linear in its input (docs/scanner.md, "Bounded
 * scan time"). Each pattern, found without a list: what every module of workers/scan/
 * exports (RegExps, and rules' `.pattern`) and every regular-expression literal written in
 * them, is fed texts built from its own pieces (test/harness/adversarial-inputs.mjs: its
 * prefixes repeated, its open-ended quantifiers pumped), and the work must grow as the text
 * does: at most 40 times for 16 times the text (linear, with slack for a noisy machine),
 * where a pattern that reads the rest of the text again from every start grows 256 times.
 * A pattern built with `new RegExp` must be exported to be read: the first test says which
 * are not.
 *
 * V8 counts no steps, so the work is CPU time, the cheapest of several runs, judged as a
 * ratio, never against a clock. The text grows by 4 at a time from 1 KiB to 64 KiB, each
 * step judged, so that a quadratic pattern fails within seconds rather than running for
 * hours, and the whole judged from 4 KiB to 64 KiB: 16 times the text. Not up to 1 MiB:
 * past 64 KiB V8 itself changes how fast it runs a pattern, by the string and by the
 * pattern's history (measured in a plain node 20 process: the WARNS pattern of
 * command-context.ts over `never\r\t` repeated, which reads three words at most from each
 * start, 0.45 ms at 64 KiB, 0.93 at 128 KiB, 19 at 256 KiB and 78 at 1 MiB; with V8's
 * regexp tier-up off 1.8 ms at 256 KiB, and still 71 at 1 MiB). A ratio across that
 * measures V8's modes, not the pattern, and fails linear ones. bench/scan-time.js records
 * the seconds of every input at 1 MiB, through the whole scanner.
 *
 * The measuring runs in a node process of its own (test/harness/linearity-probe.mjs), so
 * that nothing else of the test run shares its heap or its thread: one process for every
 * module, one module after the other, each test reading its module's verdict as the probe
 * prints it (a process per module paid node's start and the probe's own loading and warming
 * 50 times over: 86 s of CPU against 54 s for one, measured on this suite's machine). A
 * module judged superlinear is probed again alone before it fails.
 */

const ROOT = new URL('../../', import.meta.url);
const PROBE = fileURLToPath(new URL('test/harness/linearity-probe.mjs', ROOT));
const MODULES = readdirSync(new URL('workers/scan/', ROOT))
  .filter((name) => name.endsWith('.ts') && name !== 'pool-entry.ts')
  .sort();

/** Patterns allowed to grow faster, each with why. None: a pattern that needs one would say so here. */
const EXEMPT: ReadonlyMap<string, string> = new Map();

interface Verdict {
  module: string;
  patterns: number;
  unexported: string[];
  failures: string[];
}

const run = promisify(execFile);

async function probe(module: string): Promise<Verdict> {
  const { stdout } = await run(process.execPath, [PROBE, module], { cwd: fileURLToPath(ROOT), maxBuffer: 16 * 1024 * 1024, timeout: 900_000 });
  return JSON.parse(stdout.trim()) as Verdict;
}

/**
 * One probe process for every module: each module's verdict, settled when the probe prints
 * its line; a probe that ends (or fails) before a module's line rejects that module's.
 */
function probeAll(modules: readonly string[]): Map<string, Promise<Verdict>> {
  const settle = new Map<string, { resolve: (v: Verdict) => void; reject: (e: Error) => void }>();
  const verdicts = new Map(modules.map((m) => [m, new Promise<Verdict>((resolve, reject) => settle.set(m, { resolve, reject }))]));
  const child = spawn(process.execPath, [PROBE, ...modules], { cwd: fileURLToPath(ROOT), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const verdict = JSON.parse(line) as Verdict;
    settle.get(verdict.module)?.resolve(verdict);
    settle.delete(verdict.module);
  });
  child.once('close', (code) => {
    for (const [module, { reject }] of settle) reject(new Error(`the probe ended (${code}) before judging ${module}: ${stderr}`));
  });
  probing = child;
  // A module no test asks for (a run filtered by name) must not fail the run when the probe is stopped.
  for (const verdict of verdicts.values()) verdict.catch(() => undefined);
  return verdicts;
}

let probing: ChildProcess | undefined;
let verdicts: Map<string, Promise<Verdict>> | undefined;
/** A module's verdict from the one probe of every module, started by the first test that asks. */
const verdictOf = (module: string): Promise<Verdict> => (verdicts ??= probeAll(MODULES)).get(module)!;

describe('every pattern of the scanner is linear in its input', () => {
  beforeAll(() => {
    const compiled = fileURLToPath(new URL('dist/workers/scan/scan-text.js', ROOT));
    if (!existsSync(compiled)) throw new Error(`${compiled} is missing: compile first with \`npx tsc -p tsconfig.json\` (npm test does this), then rerun.`);
  });
  afterAll(() => {
    probing?.kill();
  });

  for (const module of MODULES) {
    it(`${module}: every pattern is read, and its work grows in proportion to the text`, async () => {
      const verdict = await verdictOf(module);
      expect(verdict.module).toBe(module);
      expect(verdict.unexported, 'export these so that the probe reads them').toEqual([]);
      let failures = verdict.failures.filter((failure) => ![...EXEMPT.keys()].some((name) => failure.startsWith(`${name} `)));
      // A machine saturated by the rest of the suite can slow one size's runs alone (the CPU
      // time of a run includes the caches it lost): a pattern is judged superlinear when a
      // second probe finds it so too. A superlinear pattern fails every time.
      if (failures.length > 0) {
        const again = await probe(module);
        const patternOf = (failure: string) => failure.slice(0, failure.indexOf(' /'));
        const confirmed = new Set(again.failures.map(patternOf));
        failures = failures.filter((failure) => confirmed.has(patternOf(failure)));
      }
      expect(failures, 'superlinear (is dist/ stale? run `npx tsc -p tsconfig.json`)').toEqual([]);
    }, 900_000);
  }

  it('finds the rules where they are: the executable rules, the phrase rules and the personal-data patterns', async () => {
    const counts = await Promise.all(['executable-patterns.ts', 'injection-phrases.ts', 'personal-data.ts'].map(verdictOf));
    for (const verdict of counts) expect(verdict.patterns, verdict.module).toBeGreaterThan(10);
  }, 900_000);
});
