import { describe, expect, it } from 'vitest';
import { AGREEMENT_DEPTH, LEXICAL_WEIGHT, listAgreement, scaledScores, scoreFusion } from '../../src/recall/fusion.js';

describe('scaled-score fusion', () => {
  it('scales each list to 0-1 and sums the weighted scales, keeping each list rank and score', () => {
    const lexical = [
      { rowid: 7, score: 12 },
      { rowid: 3, score: 8 },
      { rowid: 5, score: 2 },
    ];
    const vector = [
      { rowid: 3, score: 0.9 },
      { rowid: 9, score: 0.5 },
      { rowid: 7, score: 0.4 },
    ];
    const fused = scoreFusion(lexical, vector);
    const w = LEXICAL_WEIGHT;
    // 7: lexical 1, vector 0; 3: lexical 0.6, vector 1; 9: vector 0.2; 5: lexical 0.
    const expected = new Map([
      [7, w],
      [3, w * 0.6 + (1 - w)],
      [9, (1 - w) * 0.2],
      [5, 0],
    ]);
    for (const f of fused) expect(f.score).toBeCloseTo(expected.get(f.rowid)!, 12);
    expect(fused.map((f) => f.rowid)).toEqual([...expected].sort((a, b) => b[1] - a[1]).map(([id]) => id));
    expect(fused.find((f) => f.rowid === 3)).toMatchObject({ lexical: { rank: 2, score: 8 }, vector: { rank: 1, score: 0.9 } });
    expect(fused.find((f) => f.rowid === 9)).toMatchObject({ lexical: null, vector: { rank: 2, score: 0.5 } });
  });

  it('keeps a lexical first place far ahead of the rest ahead of a vector first place among near-equal cosines', () => {
    // Rank fusion gave both first places the same 1/61; scaled scores keep the lexical lead.
    const fused = scoreFusion(
      [{ rowid: 1, score: 20 }, { rowid: 2, score: 3 }, { rowid: 3, score: 2.9 }],
      [{ rowid: 4, score: 0.31 }, { rowid: 2, score: 0.3 }, { rowid: 1, score: 0.1 }],
    );
    expect(fused[0]!.rowid).toBe(1);
  });

  it('answers one list alone in its own order, a list of equal scores all at 1', () => {
    expect(scaledScores([{ rowid: 1, score: 0.5 }, { rowid: 2, score: 0.5 }])).toEqual([1, 1]);
    expect(scoreFusion([], [{ rowid: 6, score: 0.7 }, { rowid: 8, score: 0.2 }]).map((f) => f.rowid)).toEqual([6, 8]);
  });

  it('breaks a tie by the better single rank, then by the lower rowid', () => {
    const fused = scoreFusion([{ rowid: 5, score: 1 }, { rowid: 2, score: 1 }], [], 1);
    expect(fused.map((f) => f.rowid)).toEqual([5, 2]);
    const even = scoreFusion([{ rowid: 5, score: 2 }, { rowid: 2, score: 1 }], [{ rowid: 6, score: 2 }, { rowid: 1, score: 1 }], 0.5);
    expect(even.map((f) => f.rowid)).toEqual([5, 6, 1, 2]);
  });

  it('counts a row named twice in one list at its first place only', () => {
    const fused = scoreFusion([{ rowid: 4, score: 2 }, { rowid: 4, score: 1 }], []);
    expect(fused).toEqual([{ rowid: 4, score: LEXICAL_WEIGHT, lexical: { rank: 1, score: 2 }, vector: null }]);
  });

  it('under the agreement rule weighs the vector list by the share of the lexical top it holds in its own top', () => {
    const rows = (ids: number[]) => ids.map((rowid, i) => ({ rowid, score: 10 - i }));
    expect(AGREEMENT_DEPTH).toBe(10);
    expect(listAgreement(rows([1, 2, 3, 4]), rows([4, 9, 2, 8]))).toBe(0.5);
    // Compared only as deep as the shorter list; an empty list leaves the other trusted.
    expect(listAgreement(rows([1, 2, 3]), rows([3]))).toBe(0);
    expect(listAgreement([], rows([3]))).toBe(1);
    // Lexical 1 and 2 of 4 rows; the vector list holds 2 of the lexical top 4: its weight halves.
    const lexical = rows([1, 2, 3, 4]);
    const vector = rows([4, 9, 2, 8]);
    const agreed = scoreFusion(lexical, vector, { fusion: 'agreement', lexicalWeight: 0.6 });
    const fixed = scoreFusion(lexical, vector, { fusion: 'scaled', lexicalWeight: 0.6 });
    const score = (fused: typeof agreed, id: number) => fused.find((f) => f.rowid === id)!.score;
    expect(score(agreed, 9)).toBeCloseTo(0.4 * 0.5 * (2 / 3), 12);
    expect(score(fixed, 9)).toBeCloseTo(0.4 * (2 / 3), 12);
    expect(score(agreed, 1)).toBeCloseTo(0.6, 12);
    // A vector list that holds none of the lexical top weighs nothing: its rows score 0 (ties by rank).
    const apart = scoreFusion(rows([1, 2]), rows([7, 8]), { fusion: 'agreement', lexicalWeight: 0.6 });
    expect(apart.map((f) => [f.rowid, f.score])).toEqual([[1, 0.6], [7, 0], [2, 0], [8, 0]]);
  });
});
