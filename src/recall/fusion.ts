import { DEFAULT_RECALL_TUNING } from '../config/recall-tuning.js';
/**
 * Hybrid recall's fusion: each list's scores scaled to 0-1 over the list (min-max: its best
 * row 1, its last 0), then summed with fixed weights. Reciprocal rank fusion, used before,
 * throws the scores away: a lexical first place far ahead of the rest counted no more than
 * a vector first place among near-equal cosines, and on LoCoMo's questions the fused list
 * found less than the lexical list alone (docs/recall.md has the figures). Scaled scores
 * keep how far ahead a row is, and the weights let the stronger list lead.
 *
 * The lexical weight, 0.7, was chosen on LoCoMo's dev half (hybrid recall@10 0.741 at 0.6,
 * 0.746 at 0.7 and at 0.75, with bm25 at k1 0.9 and b 0.4): our own fixtures find as much at
 * 0.7 as at 0.6 (0.804 offline, 0.796 through the gate), and less at 0.75 (0.796 offline).
 *
 * The weights are the same for every query. Weighing the vector list per query (left out
 * where the lexical best leads its second by a fifth or more, or where its own cosines are
 * flat) was measured leave-one-conversation-out and not kept: it moved two LoCoMo questions
 * of 760 and cost our paraphrased fixtures, where the vector list finds what the words miss
 * (docs/recall.md, "Fusion that never loses to its best list").
 */
export const LEXICAL_WEIGHT = DEFAULT_RECALL_TUNING.lexicalWeight;

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
  /** The fused score: the weighted sum of the row's scaled score in each list holding it, 0-1. */
  score: number;
  lexical: Signal | null;
  vector: Signal | null;
}

/** Each row's score scaled over the list to 0 (the list's lowest) - 1 (its highest); a list of equal scores is all 1. */
export function scaledScores(list: readonly RankedRow[]): number[] {
  if (list.length === 0) return [];
  let high = -Infinity;
  let low = Infinity;
  for (const r of list) {
    high = Math.max(high, r.score);
    low = Math.min(low, r.score);
  }
  return list.map((r) => (high === low ? 1 : (r.score - low) / (high - low)));
}

/** How deep the agreement rule compares the two lists (agreement below). */
export const AGREEMENT_DEPTH = 10;

/**
 * How far the two lists agree: the share of the lexical list's best AGREEMENT_DEPTH rows
 * (or fewer, when either list is shorter) that the vector list also holds among its best
 * AGREEMENT_DEPTH. 1 when either list is empty: with nothing to compare, the list there is
 * is trusted (a query of words the store never saw has only its vector list).
 */
export function listAgreement(lexical: readonly RankedRow[], vector: readonly RankedRow[], depth: number = AGREEMENT_DEPTH): number {
  const n = Math.min(depth, lexical.length, vector.length);
  if (n === 0) return 1;
  const near = new Set(vector.slice(0, depth).map((r) => r.rowid));
  return lexical.slice(0, n).filter((r) => near.has(r.rowid)).length / n;
}

export interface FusionWeights {
  /** scaled: fixed weights; agreement: the vector list's weight times listAgreement (src/config/recall-tuning.ts). */
  fusion: 'scaled' | 'agreement';
  lexicalWeight: number;
}

/**
 * Fuses two ranked lists (best first) into one, best first: lexicalWeight x the lexical
 * scaled score + (1 - lexicalWeight) x the vector one; under the agreement rule the vector
 * part is also multiplied by how far the lists agree (listAgreement). Ties go to the better
 * single rank, then the lower rowid.
 */
export function scoreFusion(
  lexical: readonly RankedRow[],
  vector: readonly RankedRow[],
  weights: number | FusionWeights = LEXICAL_WEIGHT,
): FusedRow[] {
  const rule = typeof weights === 'number' ? { fusion: 'scaled' as const, lexicalWeight: weights } : weights;
  const vectorWeight = (1 - rule.lexicalWeight) * (rule.fusion === 'agreement' ? listAgreement(lexical, vector) : 1);
  const fused = new Map<number, FusedRow>();
  const take = (list: readonly RankedRow[], signal: 'lexical' | 'vector', weight: number) => {
    const scaled = scaledScores(list);
    list.forEach((row, i) => {
      let f = fused.get(row.rowid);
      if (!f) fused.set(row.rowid, (f = { rowid: row.rowid, score: 0, lexical: null, vector: null }));
      // A list that names a row twice counts its first (best) place only.
      if (f[signal] !== null) return;
      f[signal] = { rank: i + 1, score: row.score };
      f.score += weight * scaled[i]!;
    });
  };
  take(lexical, 'lexical', rule.lexicalWeight);
  take(vector, 'vector', vectorWeight);
  const best = (f: FusedRow) => Math.min(f.lexical?.rank ?? Infinity, f.vector?.rank ?? Infinity);
  return [...fused.values()].sort((a, b) => b.score - a.score || best(a) - best(b) || a.rowid - b.rowid);
}
