/**
 * Reciprocal rank fusion (Cormack, Clarke and Buettcher, SIGIR 2009): each list adds
 * 1 / (k + rank) for a row it holds, so a row ranked well by either signal rises, and
 * scores on different scales (bm25, cosine) never have to be made comparable. k = 60 is
 * the paper's constant; it damps the difference between the first few ranks of one list
 * so that agreement of both lists outweighs a lone first place.
 */
export const RRF_K = 60;

export interface RankedRow {
  rowid: number;
  /** The list's own score, larger is better (bm25 negated, cosine similarity). */
  score: number;
}

export interface Signal {
  /** 1-based position in its list. */
  rank: number;
  score: number;
}

export interface FusedRow {
  rowid: number;
  /** The fused score: the sum of 1 / (k + rank) over the lists that hold the row. */
  score: number;
  lexical: Signal | null;
  vector: Signal | null;
}

/** Fuses two ranked lists (best first) into one, best first; ties go to the better single rank, then the lower rowid. */
export function reciprocalRankFusion(lexical: readonly RankedRow[], vector: readonly RankedRow[], k: number = RRF_K): FusedRow[] {
  const fused = new Map<number, FusedRow>();
  const take = (list: readonly RankedRow[], signal: 'lexical' | 'vector') => {
    list.forEach((row, i) => {
      let f = fused.get(row.rowid);
      if (!f) fused.set(row.rowid, (f = { rowid: row.rowid, score: 0, lexical: null, vector: null }));
      // A list that names a row twice counts its first (best) place only.
      if (f[signal] !== null) return;
      f[signal] = { rank: i + 1, score: row.score };
      f.score += 1 / (k + i + 1);
    });
  };
  take(lexical, 'lexical');
  take(vector, 'vector');
  const best = (f: FusedRow) => Math.min(f.lexical?.rank ?? Infinity, f.vector?.rank ?? Infinity);
  return [...fused.values()].sort((a, b) => b.score - a.score || best(a) - best(b) || a.rowid - b.rowid);
}
