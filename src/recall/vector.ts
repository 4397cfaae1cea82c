import type Database from 'better-sqlite3';
import type { RankedRow } from './fusion.js';
import { BRUTE_FORCE_MAX, type PartitionCodes } from './partition-codes.js';
import { AreaRows } from './area-rows.js';
import type { WordWeights } from '../../workers/embed/hashed-ngrams.js';
import { cosine, fromInt8, isZero, ternaryCode, toInt8 } from '../../workers/embed/quantize.js';
import {
  FLAG_PROVISIONAL,
  FLAG_SUPERSEDED,
  heldPartition,
  servedPartition,
  type VectorIndex,
} from './vector-index.js';

export type { RankedRow } from './fusion.js';

export interface VectorQuery {
  text: string;
  spaces: readonly string[];
  limit: number;
  includeProvisional: boolean;
  includeSuperseded: boolean;
  /** Only rows of this work area and the areas below it. */
  workarea?: string;
}

interface CurrentRow {
  state: string;
  space: string;
  workarea: string | null;
  writer_identity: string;
  provisional: number;
}

/**
 * How many code-nearest candidates are re-ranked exactly per wanted row, and at least how
 * many. Measured at a million rows of the bench's synthetic text (the hard case: every
 * similarity small and close to the others), the share of the exact top 10's cosine found
 * was 0.93 with 200 candidates, 0.955 with 500, 0.964 with 1,000, each 1,000 more costing
 * ~3.5 ms warm (each is a read of its stored vector, ~20 us when its page is not cached);
 * on the labelled set's real sentences 200 already find the exact answer. A hybrid recall's
 * vector list is 50 deep but fused, so its lower places need less: 500 serve up to 50.
 */
const RERANK_PER_ROW = 10;
const RERANK_MIN = 500;
/** A search asking for more rows than it kept widens this many times, four-fold each, before it settles for fewer. */
const WIDENINGS = 3;
/** sqlite-vec refuses a KNN k above 4096. */
const KNN_K_MAX = 4096;

const byScore = (a: RankedRow, b: RankedRow) => b.score - a.score || a.rowid - b.rowid;

/**
 * Vector recall over the stored vectors. A partition of at most BRUTE_FORCE_MAX rows is
 * searched exactly by sqlite-vec; a larger one by Hamming distance over binary codes in
 * memory, then exactly over the nearest candidates' int8 vectors. Every row found is
 * checked against its current artifacts row, so a row that left the served states since
 * its vector was placed is never answered (and is handed back to be re-placed).
 */
export class VectorRecall {
  private readonly current: Database.Statement;
  private readonly areaRows: AreaRows;

  constructor(
    db: Database.Database,
    private readonly index: VectorIndex,
    private readonly codes: PartitionCodes,
    private readonly embedQuery: (text: string, weights?: WordWeights) => Promise<Float32Array>,
    private readonly backlog: () => number,
    private readonly misplaced: (rowids: number[]) => void,
  ) {
    this.current = db.prepare('SELECT state, space, workarea, writer_identity, provisional FROM main.artifacts WHERE rowid = ?');
    this.areaRows = new AreaRows(db);
  }

  /** The query's embedding, for promotedNear and ownHeldNear; `weights` weigh its words (query-weights.ts). */
  queryVector(text: string, weights?: WordWeights): Promise<Float32Array> {
    return this.embedQuery(text, weights);
  }

  /** Promoted rows nearest the query, best first: ACTIVE, and SUPERSEDED when asked; provisional ones unless refused. */
  async promoted(q: VectorQuery): Promise<RankedRow[]> {
    if (q.limit <= 0 || q.spaces.length === 0) return [];
    return this.promotedNear(await this.embedQuery(q.text), q);
  }

  /**
   * promoted() for an embedded query. The scans of large partitions are posted to the
   * code-scan worker before this returns, so work the caller does next overlaps them.
   */
  promotedNear(v: Float32Array, q: VectorQuery): Promise<RankedRow[]> {
    if (q.limit <= 0 || q.spaces.length === 0 || isZero(v)) return Promise.resolve([]);
    const skip = (q.includeProvisional ? 0 : FLAG_PROVISIONAL) | (q.includeSuperseded ? 0 : FLAG_SUPERSEDED);
    const spaces = new Set(q.spaces);
    const accept = (row: CurrentRow) =>
      (row.state === 'ACTIVE' || (q.includeSuperseded && row.state === 'SUPERSEDED')) &&
      (q.includeProvisional || row.provisional === 0) &&
      spaces.has(row.space) &&
      inArea(row, q.workarea);
    const area = q.workarea === undefined ? null : this.areaRows.promoted(q.spaces, q.workarea, BRUTE_FORCE_MAX);
    if (area !== null) return Promise.resolve(this.exactly(area, v, q.limit, accept));
    return this.search(q.spaces.map(servedPartition), v, q.limit, skip, accept);
  }

  /** The writer's own rows now in L1_SCANNED nearest the query (never L0, never L1B_FLAGGED, never another writer's). */
  async ownHeld(q: VectorQuery, writer: string): Promise<RankedRow[]> {
    if (!this.holdsAny(q, writer)) return [];
    return this.ownHeldNear(await this.embedQuery(q.text), q, writer);
  }

  /** Whether the writer holds any embedded row a search could find: most callers hold none, and then nothing is embedded. */
  holdsAny(q: VectorQuery, writer: string): boolean {
    return q.limit > 0 && q.spaces.length > 0 && this.codes.count(heldPartition(writer)) > 0;
  }

  /** ownHeld() for an embedded query; like promotedNear, large scans are on their way when it returns. */
  ownHeldNear(v: Float32Array, q: VectorQuery, writer: string): Promise<RankedRow[]> {
    if (!this.holdsAny(q, writer) || isZero(v)) return Promise.resolve([]);
    const spaces = new Set(q.spaces);
    const accept = (row: CurrentRow) =>
      row.state === 'L1_SCANNED' && row.writer_identity === writer && spaces.has(row.space) && inArea(row, q.workarea);
    const area = q.workarea === undefined ? null : this.areaRows.ownHeld(q.spaces, q.workarea, writer, BRUTE_FORCE_MAX);
    if (area !== null) return Promise.resolve(this.exactly(area, v, q.limit, accept));
    return this.search([heldPartition(writer)], v, q.limit, 0, accept);
  }

  /** The `limit` rows of a small set nearest the query, each compared exactly; rows not embedded yet are left out. */
  private exactly(rowids: readonly number[], v: Float32Array, limit: number, accept: (row: CurrentRow) => boolean): RankedRow[] {
    const scored: RankedRow[] = [];
    for (const { rowid, vector } of this.index.vectors(rowids)) if (!isZero(vector)) scored.push({ rowid, score: cosine(v, vector) });
    scored.sort(byScore);
    const kept: RankedRow[] = [];
    for (const r of scored) {
      if (kept.length === limit) break;
      const row = this.current.get(r.rowid) as CurrentRow | undefined;
      if (row !== undefined && accept(row)) kept.push(r);
    }
    return kept;
  }

  /** ACTIVE rows of the spaces at least `minCosine` similar to the row, best first, the row itself left out. */
  async similarTo(rowid: number, spaces: readonly string[], limit: number, minCosine: number): Promise<RankedRow[]> {
    const stored = this.index.vector(rowid);
    if (stored === undefined || isZero(stored) || limit <= 0) return [];
    const inSpaces = new Set(spaces);
    const near = await this.search(spaces.map(servedPartition), fromInt8(stored), limit + 1, FLAG_SUPERSEDED, (row) =>
      row.state === 'ACTIVE' && inSpaces.has(row.space),
    );
    return near.filter((r) => r.rowid !== rowid && r.score >= minCosine).slice(0, limit);
  }

  /**
   * The cosine of the nearest ACTIVE row of the space (0 when there is none), or null while
   * the row has no stored vector: what the local reviewer reads as novelty.
   */
  async nearestPromoted(rowid: number, space: string): Promise<number | null> {
    const stored = this.index.vector(rowid);
    if (stored === undefined) return null;
    return (await this.similarTo(rowid, [space], 1, -1))[0]?.score ?? 0;
  }

  get ready(): { model: string; indexed: number; pending: number } {
    return { model: this.index.model, indexed: this.codes.searchable, pending: this.backlog() };
  }

  /** Posts every partition's scan before its first await (see promotedNear). */
  private async search(parts: readonly string[], v: Float32Array, limit: number, skip: number, accept: (row: CurrentRow) => boolean): Promise<RankedRow[]> {
    const q8 = toInt8(v);
    const code = ternaryCode(q8, this.index.dims);
    let want = limit;
    for (let widening = 0; ; widening++) {
      const searches = parts.map((part) => this.searchPartition(part, v, q8, code, want, skip));
      const found: RankedRow[] = [];
      let complete = true;
      for (const r of await Promise.all(searches)) {
        found.push(...r.rows);
        if (!r.complete) complete = false;
      }
      found.sort(byScore);
      const kept: RankedRow[] = [];
      const misplaced: number[] = [];
      for (const r of found) {
        const row = this.current.get(r.rowid) as CurrentRow | undefined;
        if (row !== undefined && accept(row)) kept.push(r);
        else if (row === undefined || !stillPlaced(row, parts)) misplaced.push(r.rowid);
        if (kept.length === limit) break;
      }
      if (misplaced.length > 0) this.misplaced(misplaced);
      if (kept.length >= limit || complete || widening === WIDENINGS) return kept;
      want = Math.min(want * 4, KNN_K_MAX);
    }
  }

  /**
   * The `want` best rows of one partition; complete when the partition holds no further
   * candidate. A small partition is searched exactly, here; a large one's code scan is
   * posted synchronously and its candidates re-ranked when the scan answers.
   */
  private async searchPartition(
    part: string,
    v: Float32Array,
    q8: Int8Array,
    code: Uint8Array,
    want: number,
    skip: number,
  ): Promise<{ rows: RankedRow[]; complete: boolean }> {
    const pool = Math.max(RERANK_MIN, want * RERANK_PER_ROW);
    const scan = this.codes.nearest(part, code, v, skip, pool, want);
    if (scan === undefined) {
      if (this.codes.count(part) === 0) return { rows: [], complete: true };
      const k = Math.min(want, KNN_K_MAX);
      const rows = this.index.nearest(part, q8, k, skip).map((r) => ({ rowid: r.rowid, score: 1 - r.distance }));
      return { rows, complete: rows.length < k };
    }
    const { rows, candidates } = await scan;
    return { rows, complete: candidates < pool };
  }
}

const inArea = (row: CurrentRow, area: string | undefined) =>
  area === undefined || row.workarea === area || (row.workarea !== null && row.workarea.startsWith(`${area}/`));

/** Whether a row refused by a search still belongs where it was found (refused only by the query's own filters). */
function stillPlaced(row: CurrentRow, parts: readonly string[]): boolean {
  if (row.state === 'ACTIVE' || row.state === 'SUPERSEDED') return parts.includes(servedPartition(row.space));
  if (row.state === 'L1_SCANNED') return parts.includes(heldPartition(row.writer_identity));
  return false;
}
