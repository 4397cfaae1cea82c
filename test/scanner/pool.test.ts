import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanResult } from '../../workers/scan/finding.js';
import { scanText } from '../../workers/scan/scan-text.js';

// The compiled entry, where the gate's ScanStage finds it from dist/pipeline/.
const entry = new URL('../../dist/workers/scan/pool-entry.js', import.meta.url);
const fixtureDir = new URL('../../fixtures/scan/', import.meta.url);

const texts = [
  ...readdirSync(fixtureDir)
    .filter((name) => name !== 'expected.json')
    .sort()
    .map((name) => readFileSync(new URL(name, fixtureDir), 'utf8')),
  '\uFEFFtoken ghp_TestOnlyNotARealTokenx7Kq2Zp9Lm4Rv8W after a byte-order mark',
  '',
];

const toBuffer = (text: string): ArrayBuffer => {
  const bytes = new TextEncoder().encode(text);
  const buffer = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(buffer).set(bytes);
  return buffer;
};

let pool: Piscina;

describe('scan pool', () => {
  beforeAll(() => {
    if (!existsSync(fileURLToPath(entry))) {
      throw new Error(
        `${fileURLToPath(entry)} is missing: compile first with \`npx tsc -p tsconfig.json\` (npm test does this), then rerun.`,
      );
    }
    pool = new Piscina({ filename: entry.href, minThreads: 1, maxThreads: 2, idleTimeout: Infinity });
  });

  afterAll(async () => {
    await pool?.destroy();
  });

  it('scans a batch of transferred buffers exactly as scanText does', async () => {
    const batch = texts.map(toBuffer);
    const results = (await pool.run({ batch }, { transferList: batch })) as ScanResult[];
    // Transferred, not cloned: the buffers now belong to the worker.
    expect(batch.every((buffer) => buffer.byteLength === 0)).toBe(true);
    expect(results).toHaveLength(texts.length);
    const direct = await Promise.all(texts.map((text) => scanText(text)));
    expect(results, 'pool results differ from the source: is dist/ stale? run `npx tsc -p tsconfig.json`').toEqual(direct);
  });

  it('serves several batches at once across threads', async () => {
    const batches = [texts.slice(0, 10), texts.slice(10, 25), texts.slice(25)];
    const runs = batches.map((group) => {
      const batch = group.map(toBuffer);
      return pool.run({ batch }, { transferList: batch }) as Promise<ScanResult[]>;
    });
    const results = (await Promise.all(runs)).flat();
    expect(results.map((r) => r.flagged)).toEqual((await Promise.all(texts.map((t) => scanText(t)))).map((r) => r.flagged));
  });
});
