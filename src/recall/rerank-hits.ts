import type { Candidate } from './ranked-search.js';
import type { Reranker } from './reranker.js';

interface Hit {
  candidate: Candidate;
  hidden: string;
}

/**
 * The hits in the re-ranker's order: the best `topN` that are not lowered by a hide are
 * scored by it and put in its order (a text it left unscored after the scored ones, in the
 * recall's order), each carrying `signals.rerank` {rank, score}; the rest, and every lowered
 * hit, stay after them as they were. Without an answer to use, the hits as they were.
 */
export async function rerankedHits<H extends Hit>(reranker: Reranker, query: string, hits: readonly H[], bodyOf: (c: Candidate) => string): Promise<H[]> {
  const shown = hits.filter((h) => h.hidden !== 'lowered').slice(0, reranker.topN);
  const rest = hits.filter((h) => !shown.includes(h));
  const scores = await reranker.scores(query, shown.map((h) => bodyOf(h.candidate)));
  if (scores === null || shown.length === 0) return [...hits];
  const order = shown
    .map((hit, i) => ({ hit, i, score: scores[i] ?? null }))
    .sort((a, b) => (a.score === null ? (b.score === null ? a.i - b.i : 1) : b.score === null ? -1 : b.score - a.score || a.i - b.i));
  const reordered = order.map(({ hit, score }, rank) =>
    score === null ? hit : { ...hit, candidate: { ...hit.candidate, signals: { ...hit.candidate.signals, rerank: { rank: rank + 1, score } } } },
  );
  return [...reordered, ...rest];
}
