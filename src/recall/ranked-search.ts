import type { ArtifactReads, ArtifactRow } from '../projections/artifact-reads.js';
import { reciprocalRankFusion, type RankedRow, type Signal } from './fusion.js';
import type { HeldTextIndex } from './held-text-index.js';
import type { LexicalRecall } from './lexical.js';
import type { VectorQuery, VectorRecall } from './vector.js';

export const RECALL_MODES = ['hybrid', 'lexical', 'vector'] as const;
export type RecallMode = (typeof RECALL_MODES)[number];

/** Each list of a hybrid recall is read at least this deep before fusing, so agreement below the top k can count. */
export const HYBRID_DEPTH = 50;

/** A ranked row and how each list ranked it. */
export interface Candidate {
  row: ArtifactRow;
  score: number;
  signals: { lexical?: Signal; vector?: Signal };
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
 * by reciprocal rank, each hit keeping each list's rank and score as its signals).
 */
export class RankedSearch {
  constructor(
    private readonly lexical: LexicalRecall,
    private readonly vector: VectorRecall,
    private readonly artifacts: ArtifactReads,
    private readonly heldText: HeldTextIndex,
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
    if (req.mode === 'lexical') return this.single('lexical', this.lexicalList(req, req.limit, writer));
    if (req.mode === 'vector') return this.single('vector', await this.vectorList(req, req.limit, writer));
    const depth = Math.max(req.limit, HYBRID_DEPTH);
    // Embedded first, so the vector list's code scans run in their worker while this thread ranks the lexical list.
    const v = this.searchesVectors(req, depth, writer) ? await this.vector.queryVector(req.text) : null;
    const vectorPending = this.vectorListNear(req, v, depth, writer);
    // Read 50 deep for the fusion, but widened past all-terms matches only to fill the k shown.
    const lexical = this.lexicalList(req, depth, writer, req.limit);
    const vector = await vectorPending;
    const fused = reciprocalRankFusion(lexical.rows, vector.rows).slice(0, req.limit);
    return {
      candidates: fused.map((f) => ({
        row: this.artifacts.byRowid(f.rowid)!,
        score: f.score,
        signals: { ...(f.lexical ? { lexical: f.lexical } : {}), ...(f.vector ? { vector: f.vector } : {}) },
      })),
      exhausted: lexical.exhausted && vector.exhausted && fused.length < req.limit,
    };
  }

  private single(signal: 'lexical' | 'vector', list: List): SearchAnswer {
    return {
      candidates: list.rows.map((r, i) => ({
        row: this.artifacts.byRowid(r.rowid)!,
        score: r.score,
        signals: { [signal]: { rank: i + 1, score: r.score } },
      })),
      exhausted: list.exhausted,
    };
  }

  private lexicalList(req: SearchRequest, limit: number, writer: string | null, widenBelow = limit): List {
    const query = {
      query: req.text,
      spaces: req.spaces,
      k: limit,
      widenBelow,
      includeProvisional: req.includeProvisional,
      includeSuperseded: req.includeSuperseded,
      ...(req.workarea === null ? {} : { workarea: req.workarea }),
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
    const v = this.searchesVectors(req, limit, writer) ? await this.vector.queryVector(req.text) : null;
    return this.vectorListNear(req, v, limit, writer);
  }

  /** The vector list for an embedded query (null: nothing to search); its code scans are posted before it returns. */
  private async vectorListNear(req: SearchRequest, v: Float32Array | null, limit: number, writer: string | null): Promise<List> {
    if (v === null) return { rows: [], exhausted: true };
    const query = this.vectorQuery(req, limit);
    const rows = await (writer === null ? this.vector.promotedNear(v, query) : this.vector.ownHeldNear(v, query, writer));
    return { rows, exhausted: rows.length < limit };
  }
}
