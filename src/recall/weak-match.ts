import type { Signal } from './fusion.js';

/**
 * Below this cosine a hit found by the vector list alone is weak: a neighbour, not an
 * answer. Vector recall always has nearest rows, so a query whose words the store never
 * saw still gets ten hits at fused scores near 1/61; without a mark an agent cannot tell
 * "nothing relevant" from an answer. Measured on the labelled set by
 * `bench/recall-quality-gate.js` (local embedding, 512 dimensions, hybrid k 10): hits of
 * made-up-word queries lie at cosine 0.073-0.200, hits of off-topic queries that matched no
 * word at 0.078-0.225; of 114 relevant hits only 4 matched no query word, at 0.143-0.265.
 * 0.25 marks every hit of the first two weak and 3 of the 114 relevant ones. Another
 * embedding backend has its own scale; the caller's `min_similarity` is the knob for that.
 */
export const WEAK_COSINE = 0.25;

/**
 * Whether a hit is weak: no query word matched it (the lexical list does not hold it) and
 * its cosine to the query is below `floor`. A hit the lexical list holds shares a word
 * with the query, which is evidence of its own, so it is never weak; in lexical mode every
 * hit is such a hit.
 */
export function isWeak(signals: { lexical?: Signal; vector?: Signal; context?: unknown }, floor: number = WEAK_COSINE): boolean {
  // Context is lent only by a row that is not weak (neighbour-context.ts): the claim beside an answer.
  if (signals.lexical !== undefined || signals.context !== undefined) return false;
  return (signals.vector?.score ?? 0) < floor;
}
