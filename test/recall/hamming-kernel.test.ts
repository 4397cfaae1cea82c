import { describe, expect, it } from 'vitest';
import { hammingKernel, writeScanForm } from '../../dist/workers/vector-scan/hamming-kernel.js';
import { BinaryPartition } from '../../dist/src/recall/binary-partition.js';
import { ternaryCode } from '../../dist/workers/embed/quantize.js';

/** A deterministic stream of numbers in [0, 1), so a failure can be run again as it was. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A ternary vector: mostly zero when sparse (a short query), else mostly signed (a long claim). */
function ternary(next: () => number, dims: number, zeroShare: number): number[] {
  return Array.from({ length: dims }, () => (next() < zeroShare ? 0 : next() < 0.5 ? 1 : -1));
}

/** The distance the kernel is defined to give: bits + (dimensions of opposite sign) - (dimensions of the same sign). */
function referenceDistance(row: number[], query: number[], words: number): number {
  let agree = 0;
  let differ = 0;
  for (let i = 0; i < row.length; i++) {
    const product = row[i]! * query[i]!;
    if (product > 0) agree++;
    else if (product < 0) differ++;
  }
  return 64 * words + differ - agree;
}

describe('the Hamming kernel', () => {
  for (const dims of [64, 384, 512, 1000]) {
    it(`gives every slot the reference distance and counts it in the histogram (${dims} dimensions)`, () => {
      const next = seeded(dims);
      const words = Math.ceil(dims / 64);
      const bytes = words * 16;
      const n = 700;
      const rows = Array.from({ length: n }, (_, i) => ternary(next, dims, i % 3 === 0 ? 0.9 : 0.2));
      const flags = Array.from({ length: n }, (_, i) => (i % 11 === 0 ? 2 : i % 13 === 0 ? 4 : 0));
      const query = ternary(next, dims, 0.85);
      const layout = { codes: 0, flags: n * bytes, dist: n * bytes + n + 8, hist: 0, query: 0 };
      layout.hist = layout.dist + n * 2 + 8;
      layout.query = layout.hist + (2 * 64 * words + 1) * 4 + 8;
      const memory = new WebAssembly.Memory({ initial: Math.ceil((layout.query + bytes) / 65536), maximum: 100, shared: true });
      const heap = new Uint8Array(memory.buffer);
      rows.forEach((row, i) => writeScanForm(ternaryCode(row, dims), heap.subarray(i * bytes, (i + 1) * bytes)));
      heap.set(flags, layout.flags);
      writeScanForm(ternaryCode(query, dims), heap.subarray(layout.query, layout.query + bytes));
      const kernel = hammingKernel(memory, words);
      // Slots whose flags meet the mask (2) are skipped; flag 4 is not in the mask, so its slots are scanned.
      kernel.scan(layout.codes, layout.flags, n, layout.query, 2, layout.dist, layout.hist);
      const dist = new Uint16Array(memory.buffer, layout.dist, n);
      const hist = new Uint32Array(memory.buffer, layout.hist, 2 * 64 * words + 1);
      const expectedHist = new Array<number>(hist.length).fill(0);
      for (let i = 0; i < n; i++) {
        if (flags[i] === 2) {
          expect(dist[i]).toBe(0xffff);
          continue;
        }
        const d = referenceDistance(rows[i]!, query, words);
        expect(dist[i], `slot ${i}`).toBe(d);
        expectedHist[d]!++;
      }
      expect(Array.from(hist)).toEqual(expectedHist);
    });
  }

  it('finds the slots nearest the query through a partition, skipping masked and removed rows', () => {
    const next = seeded(7);
    const dims = 512;
    const partition = new BinaryPartition(dims / 64);
    const vectors = new Map<number, number[]>();
    for (let rowid = 1; rowid <= 3000; rowid++) {
      const v = ternary(next, dims, 0.3);
      vectors.set(rowid, v);
      partition.put(rowid, ternaryCode(v, dims), rowid % 5 === 0 ? 2 : 0);
    }
    for (let rowid = 1; rowid <= 3000; rowid += 7) {
      partition.remove(rowid);
      vectors.delete(rowid);
    }
    const query = ternary(next, dims, 0.9);
    const want = 40;
    const found = partition.nearest(ternaryCode(query, dims), 2, want);
    const ranked = [...vectors]
      .filter(([rowid]) => rowid % 5 !== 0)
      .map(([rowid, v]) => ({ rowid, d: referenceDistance(v, query, dims / 64) }))
      .sort((a, b) => a.d - b.d);
    const cut = Math.max(...found.map((rowid) => referenceDistance(vectors.get(rowid)!, query, dims / 64)));
    // Every row strictly nearer than the farthest one found is found, and nothing masked or removed is.
    for (const r of ranked.filter((r) => r.d < cut)) expect(found).toContain(r.rowid);
    for (const rowid of found) expect(rowid % 5 !== 0 && vectors.has(rowid)).toBe(true);
    expect(found.length).toBeGreaterThanOrEqual(want);
    expect(found.length).toBeLessThanOrEqual(2 * want);
  });
});
