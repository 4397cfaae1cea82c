import type { ArtifactReads, ArtifactRow } from '../projections/artifact-reads.js';
import { LEXICAL_WEIGHT, scaledScores, scoreFusion, type FusionWeights, type RankedRow, type Signal } from './fusion.js';
import type { NeighbourContext } from './neighbour-context.js';
import { isWeak } from './weak-match.js';
import type { HeldTextIndex } from './held-text-index.js';
import type { LexicalRecall, TermStats } from './lexical.js';
import type { VectorQuery, VectorRecall } from './vector.js';

export const RECALL_MODES = ['hybrid', 'lexical', 'vector'] as const;
export type RecallMode = (typeof RECALL_MODES)[number];

/** Each list of a hybrid recall is read at least this deep before fusing, so agreement below the top k can count. */
export const HYBRID_DEPTH = 50;

/** What ranked a row: each list's rank and score, and the part of its score its neighbours lent (neighbour-context.ts). */
export interface Signals {
  lexical?: Signal;
  vector?: Signal;
  context?: { score: number };
  /** The re-ranker's place and score for the hit (reranker.ts), when one ordered it. */
  rerank?: Signal;
}

/** A ranked row and how each list ranked it. */
export interface Candidate {
  row: ArtifactRow;
  score: number;
  signals: Signals;
}

interface Ranked {
  rowid: number;
  score: number;
  signals: Signals;
}

/**
 * A single list's rows with their own signal, scored by the list's scores scaled to 0-1 over
 * the rows read (scaledScores, as hybrid's fusion scales each list): what a row lends its
 * neighbours is then a share of how far it stands above the list's last row, not of a raw
 * bm25 or cosine. With raw scores, the 30th row of a list of near-equal bm25 scores lent its
 * neighbours nearly as much as the first (on LoCoMo's dev half, scaling took lexical recall@10
 * from 0.732 to 0.741 and vector from 0.605 to 0.642; docs/recall.md). The signal keeps the
 * list's own score.
 */
function signalled(rows: readonly RankedRow[], signal: 'lexical' | 'vector'): Ranked[] {
  const scaled = scaledScores(rows);
  return rows.map((r, i) => ({ rowid: r.rowid, score: scaled[i]!, signals: { [signal]: { rank: i + 1, score: r.score } } }));
}

export interface SearchRequest {
  mode: RecallMode;
  text: string;
  spaces: readonly string[];
  workarea: string | null;
  limit: number;
  includeProvisional: boolean;
  includeSuperseded: boolean;
}

export interface SearchAnswer {
  candidates: Candidate[];
  /** True when every list ended before the limit: asking for more would find nothing new. */
  exhausted: boolean;
}

interface List {
  rows: RankedRow[];
  exhausted: boolean;
}

/**
 * The ranked lists of one recall mode over promoted rows, or over one writer's held rows:
 * lexical (FTS5 bm25), vector (cosine over the embedded rows), or hybrid (both lists fused
 * by scaled score, fusion.ts, each hit keeping each list's rank and score as its signals).
 * Over promoted rows, a matched row then lends part of its score to its neighbours in its
 * source (neighbour-context.ts).
 */
export class RankedSearch {
  constructor(
    private readonly lexical: LexicalRecall,
    private readonly vector: VectorRecall,
    private readonly artifacts: ArtifactReads,
    private readonly heldText: HeldTextIndex,
    private readonly context: NeighbourContext,
    /** Hybrid's fusion rule and lexical weight, read at each search: a gate's [recall] settings, live keys (src/config/recall-tuning.ts). */
    private readonly fusion: () => FusionWeights = () => ({ fusion: 'scaled', lexicalWeight: LEXICAL_WEIGHT }),
  ) {}

  promoted(req: SearchRequest): Promise<SearchAnswer> {
    return this.search(req, null);
  }

  /** A writer's held rows: every move of a held row told so far is indexed first, so an answered ingest is found. */
  async ownHeld(req: SearchRequest, writer: string): Promise<SearchAnswer> {
    await this.heldText.current();
    return this.search(req, writer);
  }

  private async search(req: SearchRequest, writer: string | null): Promise<SearchAnswer> {
    // A promoted search reads each list deeper than it shows, so a row lifted by its neighbours can come from below the k shown.
    const depth = writer === null || req.mode === 'hybrid' ? Math.max(req.limit, HYBRID_DEPTH) : req.limit;
    let ranked: Ranked[];
    let exhausted: boolean;
    if (req.mode === 'lexical') {
      const lexical = this.lexicalList(req, depth, writer, req.limit);
      ranked = signalled(lexical.rows, 'lexical');
      exhausted = lexical.exhausted;
    } else if (req.mode === 'vector') {
      const vector = await this.vectorList(req, depth, writer);
      ranked = signalled(vector.rows, 'vector');
      exhausted = vector.exhausted;
    } else {
      // Over promoted rows the terms' frequencies are read once: they weigh the query vector and
      // score the lexical list. (A writer's held rows are read only when they hold any: each list checks.)
      const stats = writer === null ? this.lexical.termStats(req.text) : undefined;
      // Embedded first, so the vector list's code scans run in their worker while this thread ranks the lexical list.
      const v = await this.queryVector(req, depth, writer, stats);
      const vectorPending = this.vectorListNear(req, v, depth, writer);
      // Read 50 deep for the fusion, but widened past all-terms matches only to fill the k shown.
      const lexical = this.lexicalList(req, depth, writer, req.limit, stats?.frequencies);
      const vector = await vectorPending;
      ranked = scoreFusion(lexical.rows, vector.rows, this.fusion()).map((f) => ({
        rowid: f.rowid,
        score: f.score,
        signals: { ...(f.lexical ? { lexical: f.lexical } : {}), ...(f.vector ? { vector: f.vector } : {}) },
      }));
      exhausted = lexical.exhausted && vector.exhausted;
    }
    if (writer === null) ranked = this.withContext(req, ranked);
    const shown = ranked.slice(0, req.limit);
    return {
      candidates: shown.map((r) => ({ row: this.artifacts.byRowid(r.rowid)!, score: r.score, signals: r.signals })),
      exhausted: exhausted && ranked.length < req.limit,
    };
  }

  /** Neighbour context (neighbour-context.ts) over a promoted search's ranked rows: only a row that is not weak lends. */
  private withContext(req: SearchRequest, ranked: readonly Ranked[]): Ranked[] {
    const byRowid = new Map(ranked.map((r) => [r.rowid, r]));
    const spread = this.context.spread(ranked, (rowid) => !isWeak(byRowid.get(rowid)!.signals), req);
    return spread.map((w) => {
      const signals = byRowid.get(w.rowid)?.signals ?? {};
      return { rowid: w.rowid, score: w.score, signals: w.context === undefined ? signals : { ...signals, context: { score: w.context } } };
    });
  }

  /** The query's vector, its words weighed by their rarity in the index searched; null when there is nothing to search. */
  private async queryVector(req: SearchRequest, limit: number, writer: string | null, stats?: TermStats): Promise<Float32Array | null> {
    if (!this.searchesVectors(req, limit, writer)) return null;
    return this.vector.queryVector(req.text, (stats ?? this.lexical.termStats(req.text, writer === null ? 'recall_fts' : 'held_fts')).weights);
  }

  private lexicalList(req: SearchRequest, limit: number, writer: string | null, widenBelow = limit, frequencies?: readonly number[]): List {
    const query = {
      query: req.text,
      spaces: req.spaces,
      k: limit,
      widenBelow,
      includeProvisional: req.includeProvisional,
      includeSuperseded: req.includeSuperseded,
      ...(req.workarea === null ? {} : { workarea: req.workarea }),
      ...(frequencies === undefined ? {} : { frequencies }),
    };
    const hits = writer === null ? this.lexical.promoted(query) : this.lexical.ownHeld(query, writer);
    // Fewer than widenBelow: every level ran and found no more. Otherwise a wider level may have been left out.
    return { rows: hits.map((h) => ({ rowid: h.row.rowid, score: h.score })), exhausted: hits.length < Math.min(widenBelow, limit) };
  }

  private vectorQuery(req: SearchRequest, limit: number): VectorQuery {
    return {
      text: req.text,
      spaces: req.spaces,
      limit,
      includeProvisional: req.includeProvisional,
      includeSuperseded: req.includeSuperseded,
      ...(req.workarea === null ? {} : { workarea: req.workarea }),
    };
  }

  /** Whether a vector list could hold anything: a writer's held rows are usually none, and then nothing is embedded for the query. */
  private searchesVectors(req: SearchRequest, limit: number, writer: string | null): boolean {
    return writer === null || this.vector.holdsAny(this.vectorQuery(req, limit), writer);
  }

  private async vectorList(req: SearchRequest, limit: number, writer: string | null): Promise<List> {
    return this.vectorListNear(req, await this.queryVector(req, limit, writer), limit, writer);
  }

  /** The vector list for an embedded query (null: nothing to search); its code scans are posted before it returns. */
  private async vectorListNear(req: SearchRequest, v: Float32Array | null, limit: number, writer: string | null): Promise<List> {
    if (v === null) return { rows: [], exhausted: true };
    const query = this.vectorQuery(req, limit);
    const rows = await (writer === null ? this.vector.promotedNear(v, query) : this.vector.ownHeldNear(v, query, writer));
    return { rows, exhausted: rows.length < limit };
  }
}
