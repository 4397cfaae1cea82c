import type Database from 'better-sqlite3';
import type { RankedRow } from './fusion.js';
import type { PartitionCodes } from './partition-codes.js';
import { cosine, fromInt8, isZero, ternaryCode, toInt8 } from './quantize.js';
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

/** How many binary-nearest candidates are re-ranked exactly per wanted row, and at least how many. */
const RERANK_PER_ROW = 10;
const RERANK_MIN = 200;
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

  constructor(
    db: Database.Database,
    private readonly index: VectorIndex,
    private readonly codes: PartitionCodes,
    private readonly embedQuery: (text: string) => Promise<Float32Array>,
    private readonly backlog: () => number,
    private readonly misplaced: (rowids: number[]) => void,
  ) {
    this.current = db.prepare('SELECT state, space, workarea, writer_identity, provisional FROM main.artifacts WHERE rowid = ?');
  }

  /** Promoted rows nearest the query, best first: ACTIVE, and SUPERSEDED when asked; provisional ones unless refused. */
  async promoted(q: VectorQuery): Promise<RankedRow[]> {
    if (q.limit <= 0 || q.spaces.length === 0) return [];
    const v = await this.embedQuery(q.text);
    if (isZero(v)) return [];
    const skip = (q.includeProvisional ? 0 : FLAG_PROVISIONAL) | (q.includeSuperseded ? 0 : FLAG_SUPERSEDED);
    const spaces = new Set(q.spaces);
    return this.search(
      q.spaces.map(servedPartition),
      v,
      q.limit,
      skip,
      (row) =>
        (row.state === 'ACTIVE' || (q.includeSuperseded && row.state === 'SUPERSEDED')) &&
        (q.includeProvisional || row.provisional === 0) &&
        spaces.has(row.space) &&
        inArea(row, q.workarea),
    );
  }

  /** The writer's own rows now in L1_SCANNED nearest the query (never L0, never L1B_FLAGGED, never another writer's). */
  async ownHeld(q: VectorQuery, writer: string): Promise<RankedRow[]> {
    if (q.limit <= 0 || q.spaces.length === 0) return [];
    const part = heldPartition(writer);
    if (this.codes.count(part) === 0) return [];
    const v = await this.embedQuery(q.text);
    if (isZero(v)) return [];
    const spaces = new Set(q.spaces);
    return this.search([part], v, q.limit, 0, (row) =>
      row.state === 'L1_SCANNED' && row.writer_identity === writer && spaces.has(row.space) && inArea(row, q.workarea),
    );
  }

  /** ACTIVE rows of the spaces at least `minCosine` similar to the row, best first, the row itself left out. */
  similarTo(rowid: number, spaces: readonly string[], limit: number, minCosine: number): RankedRow[] {
    const stored = this.index.vector(rowid);
    if (stored === undefined || isZero(stored) || limit <= 0) return [];
    const inSpaces = new Set(spaces);
    return this.search(spaces.map(servedPartition), fromInt8(stored), limit + 1, FLAG_SUPERSEDED, (row) =>
      row.state === 'ACTIVE' && inSpaces.has(row.space),
    )
      .filter((r) => r.rowid !== rowid && r.score >= minCosine)
      .slice(0, limit);
  }

  get ready(): { model: string; indexed: number; pending: number } {
    return { model: this.index.model, indexed: this.codes.searchable, pending: this.backlog() };
  }

  private search(parts: readonly string[], v: Float32Array, limit: number, skip: number, accept: (row: CurrentRow) => boolean): RankedRow[] {
    const q8 = toInt8(v);
    const code = ternaryCode(q8, this.index.dims);
    let want = limit;
    for (let widening = 0; ; widening++) {
      const found: RankedRow[] = [];
      let complete = true;
      for (const part of parts) {
        const r = this.searchPartition(part, v, q8, code, want, skip);
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

  /** The `want` best rows of one partition; complete when the partition holds no further candidate. */
  private searchPartition(
    part: string,
    v: Float32Array,
    q8: Int8Array,
    code: Uint8Array,
    want: number,
    skip: number,
  ): { rows: RankedRow[]; complete: boolean } {
    const binary = this.codes.binary(part);
    if (binary === undefined) {
      if (this.codes.count(part) === 0) return { rows: [], complete: true };
      const k = Math.min(want, KNN_K_MAX);
      const rows = this.index.nearest(part, q8, k, skip).map((r) => ({ rowid: r.rowid, score: 1 - r.distance }));
      return { rows, complete: rows.length < k };
    }
    const pool = Math.max(RERANK_MIN, want * RERANK_PER_ROW);
    const candidates = binary.nearest(code, skip, pool);
    const rows: RankedRow[] = [];
    for (const rowid of candidates) {
      const stored = this.index.vector(rowid);
      if (stored !== undefined) rows.push({ rowid, score: cosine(v, stored) });
    }
    rows.sort(byScore);
    return { rows: rows.slice(0, want), complete: candidates.length < pool };
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
