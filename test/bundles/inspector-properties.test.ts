import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../harness/gate-process.js';
import { rawZip } from '../../fixtures/raw-zip.js';
import { yazlZip } from '../../fixtures/make-fixtures.js';
import { inspectArchive, type Inspection } from '../../workers/bundle/inspect-archive.js';
import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from '../../workers/bundle/archive-limits.js';
import { ARCHIVE_FAILURES } from '../../workers/bundle/archive-failures.js';

/** Small limits, so the memory bound is tight enough to matter in a few hundred runs. */
const LIMITS: ArchiveLimits = { ...DEFAULT_ARCHIVE_LIMITS, memberMaxBytes: 50_000, expandedMaxBytes: 120_000, entriesMax: 64 };
const KNOWN = new Set<string>(ARCHIVE_FAILURES);

/** The inspector's contract: valid, or one named failure; never an exception; never past its memory bound. */
async function holdsContract(bytes: Uint8Array, skill: boolean): Promise<Inspection> {
  const result = await inspectArchive(bytes, LIMITS, { skill });
  if (result.valid) {
    const total = result.members.reduce((n, m) => n + m.size_bytes, 0);
    expect(total).toBeLessThanOrEqual(LIMITS.expandedMaxBytes);
    for (const m of result.members) expect(m.size_bytes).toBeLessThanOrEqual(LIMITS.memberMaxBytes);
  } else {
    expect(KNOWN.has(result.detail), result.detail).toBe(true);
  }
  expect(result.peak_buffered_bytes).toBeLessThanOrEqual(LIMITS.expandedMaxBytes);
  return result;
}

const segment = fc.string({ unit: fc.constantFrom(...'abcXYZ019._- '.split('')), minLength: 1, maxLength: 8 });
const hostileSegment = fc.oneof(segment, fc.constantFrom('..', '.', '', 'CON', 'a:b', 'a\\b', '\u202e', 'ß', 'SS', 'skill.md', 'SKILL.md'));
const path = fc.array(fc.oneof({ weight: 4, arbitrary: segment }, { weight: 1, arbitrary: hostileSegment }), { minLength: 1, maxLength: 5 }).map((s) => s.join('/'));
const content = fc.oneof(fc.uint8Array({ maxLength: 3000 }), fc.integer({ min: 0, max: 80_000 }).map((n) => new Uint8Array(n)));

const rawEntry = fc.record({
  name: path,
  data: content.map((b) => Buffer.from(b)),
  method: fc.constantFrom(0, 8, 8, 12),
  flags: fc.constantFrom(0x0800, 0x0800, 0x0801, 0x0000),
  unixMode: fc.option(fc.constantFrom(0o100644, 0o120777, 0o040755, 0o010644), { nil: undefined }),
  lie: fc.option(fc.integer({ min: 0, max: 200_000 }), { nil: undefined }),
});

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 16 }) }),
);

function mutate(bytes: Buffer, mutations: Array<{ kind: string; at: number; value?: number; bytes?: Uint8Array }>): Buffer {
  let out = Buffer.from(bytes);
  for (const m of mutations) {
    const at = out.length === 0 ? 0 : m.at % out.length;
    if (m.kind === 'flip') out[at] = m.value!;
    else if (m.kind === 'truncate') out = out.subarray(0, at);
    else out = Buffer.concat([out.subarray(0, at), Buffer.from(m.bytes!), out.subarray(at)]);
  }
  return out;
}

describe('the inspector on random and mutated archives (fast-check)', () => {
  it('random bytes', async () => {
    await fc.assert(fc.asyncProperty(fc.uint8Array({ maxLength: 4096 }), fc.boolean(), (b, skill) => holdsContract(b, skill).then(() => true)), { numRuns: 300 });
  });

  it('archives written by a real zip writer, then mutated', async () => {
    const files = fc.uniqueArray(fc.tuple(path.filter((p) => !p.includes('..')), fc.uint8Array({ maxLength: 2000 })), { minLength: 1, maxLength: 6, selector: ([p]) => p.toLowerCase() });
    await fc.assert(
      fc.asyncProperty(files, fc.array(mutation, { maxLength: 3 }), async (entries, mutations) => {
        let zip: Buffer;
        try {
          zip = await yazlZip(entries.map(([p, b]) => [p, Buffer.from(b)]));
        } catch {
          // yazl refuses some names itself (absolute, backslash); those are the raw writer's job below.
          return true;
        }
        await holdsContract(mutate(zip, mutations), true);
        return true;
      }),
      { numRuns: 200 },
    );
  });

  it('hostile entries written byte for byte: lying sizes, methods, flags, modes and names', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(rawEntry, { minLength: 1, maxLength: 5 }), fc.boolean(), async (entries, zip64) => {
        const bytes = rawZip(
          entries.map((e) => ({ ...e, ...(e.lie === undefined ? {} : { uncompressedSize: e.lie }) })),
          { zip64 },
        );
        await holdsContract(bytes, false);
        return true;
      }),
      { numRuns: 300 },
    );
  });

  it('the valid fixture, mutated anywhere, is still valid or a named failure', async () => {
    const zip = readFileSync(join(ROOT, 'fixtures/bundles/skill-valid.zip'));
    await fc.assert(fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 4 }), (m) => holdsContract(mutate(zip, m), true).then(() => true)), { numRuns: 300 });
  });
});
