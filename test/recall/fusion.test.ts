import { describe, expect, it } from 'vitest';
import { RRF_K, reciprocalRankFusion } from '../../src/recall/fusion.js';

describe('reciprocal rank fusion', () => {
  it('sums 1/(k + rank) over both lists and keeps each list rank and score', () => {
    const lexical = [
      { rowid: 7, score: 12.5 },
      { rowid: 3, score: 9 },
    ];
    const vector = [
      { rowid: 3, score: 0.91 },
      { rowid: 9, score: 0.8 },
      { rowid: 7, score: 0.4 },
    ];
    const fused = reciprocalRankFusion(lexical, vector);
    expect(fused.map((f) => f.rowid)).toEqual([3, 7, 9]);
    expect(fused[0]).toEqual({
      rowid: 3,
      score: 1 / (RRF_K + 2) + 1 / (RRF_K + 1),
      lexical: { rank: 2, score: 9 },
      vector: { rank: 1, score: 0.91 },
    });
    expect(fused[2]).toEqual({ rowid: 9, score: 1 / (RRF_K + 2), lexical: null, vector: { rank: 2, score: 0.8 } });
  });

  it('breaks a tie by the better single rank, then by the lower rowid', () => {
    // Row 5 is first in one list only; rows 1 and 2 are second in one list each.
    const fused = reciprocalRankFusion([{ rowid: 5, score: 1 }, { rowid: 2, score: 0.5 }], [{ rowid: 6, score: 1 }, { rowid: 1, score: 0.5 }]);
    expect(fused.map((f) => f.rowid)).toEqual([5, 6, 1, 2]);
  });

  it('counts a row named twice in one list at its first place only', () => {
    const fused = reciprocalRankFusion([{ rowid: 4, score: 2 }, { rowid: 4, score: 1 }], []);
    expect(fused).toEqual([{ rowid: 4, score: 1 / (RRF_K + 1), lexical: { rank: 1, score: 2 }, vector: null }]);
  });
});
