import { afterEach, describe, expect, it } from 'vitest';
import { hashedNgrams } from '../../dist/workers/embed/hashed-ngrams.js';
import { ternaryCode, toInt8 } from '../../dist/workers/embed/quantize.js';
import { InProcessGate } from '../harness/in-process-gate.js';

/**
 * Rows' vectors are quantized in the embed pool (int8 and the two-plane sign code travel
 * back instead of floats): what is stored must be exactly the quantizing of the row's
 * embedding, whichever thread made it.
 */
let g: InProcessGate | undefined;
afterEach(async () => {
  await g?.close();
  g = undefined;
});

const stored = (gate: InProcessGate, rowid: number) =>
  gate.gate.db
    .prepare('SELECT v.e AS vector, c.code AS code, c.part AS part FROM main.vector_values v JOIN main.vector_codes c ON c.rowid = v.rowid WHERE v.rowid = ?')
    .get(rowid) as { vector: Buffer; code: Buffer; part: string } | undefined;

describe('a stored vector', () => {
  it('is the int8 quantizing of the row\'s embedding with its sign code, in the partition its state puts it', async () => {
    g = InProcessGate.open();
    const texts = [
      `vectorform${Date.now().toString(36)} the quarterly report names three suppliers and their lead times`,
      'a second note about copper prices, smelters and freight rates in the northern ports',
      // No content word: the zero vector, stored apart and similar to nothing.
      'the and of it',
    ];
    const rows = [];
    for (const text of texts) rows.push(await g.ingest(text));
    await g.settled();
    rows.forEach((row, i) => {
      const expected = toInt8(hashedNgrams(texts[i]!));
      const got = stored(g!, row.rowid);
      expect(got, `row ${i} has a stored vector`).toBeDefined();
      expect(new Int8Array(got!.vector.buffer, got!.vector.byteOffset, got!.vector.byteLength)).toEqual(expected);
      expect(new Uint8Array(got!.code)).toEqual(ternaryCode(expected, expected.length));
      expect(got!.part).toBe(i === 2 ? '-' : `h:${g!.agent.identity}`);
    });
    expect(rows.slice(0, 2).every((r) => stored(g!, r.rowid)!.vector.some((b) => b !== 0))).toBe(true);
    expect((await g.call(g.admin, 'gv.rebuild', {})).vectors).toMatchObject({ checked: 3, equal: 3, rewritten: 0 });
  });
});
