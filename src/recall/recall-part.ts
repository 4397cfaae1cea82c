import type { HeldTextIndex } from './held-text-index.js';
import type { LexicalRecall } from './lexical.js';
import type { RankedSearch } from './ranked-search.js';
import type { SteeringWalk } from './steering.js';
import type { VectorRecall } from './vector.js';
import type { Reranker } from './reranker.js';

/** The recall part: the lexical and vector halves, their fusion, the steering walk and each writer's held-text index. */
export interface RecallPart {
  readonly lexical: LexicalRecall;
  /** Vector recall over the embedded rows (the vector half of hybrid recall). */
  readonly vector: VectorRecall;
  readonly rankedSearch: RankedSearch;
  readonly steering: SteeringWalk;
  /** held_fts, each writer's scanned held rows for its own recall, written after each commit. */
  readonly heldText: HeldTextIndex;
  /** The optional re-ranking stage (rerank.url), null when off. */
  readonly reranker: Reranker | null;
}
