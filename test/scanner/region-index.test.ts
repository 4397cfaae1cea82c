import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Region } from '../../workers/scan/mention-context.js';
import { RegionIndex } from '../../workers/scan/region-index.js';

// The index answers what filtering and sorting the list answered, for any list: regions in
// a few ordered runs (what the detectors give), overlapping every way, and more chains than
// it keeps (then it reads the list whole).
const smallestAlone = (regions: readonly Region[], start: number, end: number) =>
  regions.filter(([s, e]) => s <= start && end <= e).sort((a, b) => a[1] - a[0] - (b[1] - b[0]))[0];
const withinAlone = (regions: readonly Region[], start: number, end: number) => regions.filter(([s, e]) => start <= s && e <= end);

function regionsOf(seed: number): Region[] {
  let state = seed >>> 0;
  const next = (n: number): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return Math.floor((state / 2 ** 32) * n);
  };
  const regions: Region[] = [];
  const runs = 1 + next(seed % 5 === 0 ? 60 : 6);
  for (let r = 0; r < runs; r++) {
    // A run in order and apart, as one pattern's matches are; some runs are nested or shuffled.
    let at = next(50);
    const run: Region[] = [];
    for (let k = 0, n = next(30); k < n; k++) {
      const length = next(r % 3 === 0 ? 40 : 6);
      run.push([at, at + length]);
      at += length + next(4);
    }
    if (seed % 7 === 0) run.reverse();
    regions.push(...run);
  }
  return regions;
}

describe('the regions around and inside a stretch', () => {
  it('finds the shortest holding region and the regions inside as the filtered list does', () => {
    let asked = 0;
    // Every answer compared, the differing ones named: one expect for 50,000 and more questions,
    // where an expect each spent most of the test's time in the matcher.
    const differing: string[] = [];
    for (let seed = 1; seed <= 400; seed++) {
      const regions = regionsOf(seed);
      const index = new RegionIndex(regions);
      for (let start = 0; start < 160; start += 1 + (seed % 3)) {
        for (const length of [0, 1, 2, 5, 13, 40]) {
          const [holding, holdingAlone] = [index.smallestHolding(start, start + length), smallestAlone(regions, start, start + length)];
          if (holding !== holdingAlone) differing.push(`seed ${seed} smallestHolding(${start}, ${start + length}): ${JSON.stringify(holding)}, the list ${JSON.stringify(holdingAlone)}`);
          const [within, inAlone] = [index.allWithin(start, start + length * 3), withinAlone(regions, start, start + length * 3)];
          if (!isDeepStrictEqual(within, inAlone)) differing.push(`seed ${seed} allWithin(${start}, ${start + length * 3}): ${JSON.stringify(within)}, the list ${JSON.stringify(inAlone)}`);
          asked++;
        }
      }
    }
    expect(differing.slice(0, 10), `${differing.length} answers differ`).toEqual([]);
    expect(asked).toBeGreaterThan(50_000);
  });

  it('keeps the first of the list among regions as short', () => {
    const regions: Region[] = [
      [0, 10],
      [5, 15],
      [5, 15],
      [2, 12],
    ];
    const index = new RegionIndex(regions);
    expect(index.smallestHolding(6, 9)).toBe(regions[0]);
    expect(index.smallestHolding(11, 12)).toBe(regions[1]);
  });
});
