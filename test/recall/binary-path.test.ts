import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashedNgrams } from '../../dist/workers/embed/hashed-ngrams.js';
import { toInt8 } from '../../dist/src/recall/quantize.js';
import { BRUTE_FORCE_MAX } from '../../dist/src/recall/partition-codes.js';
import { InProcessGate, query } from './in-process-gate.js';

const fixtures = new URL('../../fixtures/recall-quality/', import.meta.url);
const claims = JSON.parse(readFileSync(new URL('claims.json', fixtures), 'utf8')) as Array<{ text: string }>;
const queries = JSON.parse(readFileSync(new URL('queries.json', fixtures), 'utf8')) as Array<{ text: string }>;

let g: InProcessGate;
const ROWS = BRUTE_FORCE_MAX + 400;

beforeAll(async () => {
  g = InProcessGate.open();
  const ids: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    const claim = claims[i % claims.length]!.text;
    ids.push((await g.ingest(`${claim} Noted in review ${i} by ${['ana', 'bo', 'cy', 'di'][i % 4]}.`)).artifact_id);
  }
  for (const id of ids) await g.promote(id);
  await g.settled(60_000);
}, 120_000);
afterAll(async () => {
  await g?.close();
});

describe('a partition above BRUTE_FORCE_MAX is searched by binary codes, then re-ranked exactly', () => {
  it('answers nearly what the exact sqlite-vec KNN answers', async () => {
    expect(g.gate.vector.ready.indexed).toBe(ROWS);
    const exact = g.gate.db.prepare(
      `SELECT rowid, distance FROM vector_index WHERE e MATCH vec_int8(?) AND k = 10 AND part = 's:main' AND superseded = 0`,
    );
    // Each claim appears about eight times with a different note, so places within a claim's copies are near ties:
    // the measure is the cosine found against the cosine there was to find, and the first place.
    let found = 0;
    let there = 0;
    let firstSame = 0;
    const sample = queries.slice(0, 60);
    for (const q of sample) {
      const truth = exact.all(Buffer.from(toInt8(hashedNgrams(q.text)).buffer)) as Array<{ rowid: number; distance: number }>;
      const got = await g.gate.vector.promoted(query(q.text));
      expect(got).toHaveLength(10);
      found += got.reduce((sum, r) => sum + r.score, 0);
      there += truth.reduce((sum, r) => sum + 1 - r.distance, 0);
      if (Math.abs(got[0]!.score - (1 - truth[0]!.distance)) < 0.005) firstSame++;
    }
    expect(found / there).toBeGreaterThan(0.99);
    expect(firstSame / sample.length).toBeGreaterThan(0.95);
  });
});
