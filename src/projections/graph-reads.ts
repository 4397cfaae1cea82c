import type Database from 'better-sqlite3';
import { LABEL_SOURCE_BYTES } from '../domain/node-label.js';
import type { ArtifactRow } from './artifact-reads.js';
import { inWindow, WALKED, windowArgs, type RowidWindow } from './rowid-window.js';

/** The columns of a row the graph serves, plus the start of its masked body for the label. */
export type GraphRow = Pick<
  ArtifactRow,
  | 'rowid'
  | 'artifact_id'
  | 'state'
  | 'space'
  | 'workarea'
  | 'producer_name'
  | 'producer_kind'
  | 'kind'
  | 'content_type'
  | 'writer_identity'
  | 'writer_kind'
  | 'source_uri'
  | 'derives_from'
  | 'addressed_to'
  | 'ts'
  | 'state_ts'
  | 'findings_count'
> & {
  /** Only for ACTIVE and SUPERSEDED rows, the only ones that carry a label. */
  masked: Buffer | null;
};

/** What the graph needs of a row to choose and order it before reading it whole. */
export interface GraphBrief {
  artifact_id: string;
  rowid: number;
  state: string;
  space: string;
  writer_identity: string;
}

/** A WHERE clause on artifacts' own columns with its arguments (C6: src/access/visible-rows.ts). */
export interface RowClause {
  sql: string;
  args: unknown[];
}

/** The whole-store graph's filter: the caller's visible rows of these spaces and, if given, kinds. */
export interface SpaceFilter {
  visible: RowClause;
  spaces: readonly string[];
  kinds?: readonly string[] | undefined;
}

/**
 * One read for rows and labels together: the masked body is joined only for promoted rows,
 * and cut to its first bytes unless it is a closed JSON form (question, answer) that must
 * be parsed whole. A caller's WHERE clause reads artifacts' own column names, which the
 * blobs table does not share.
 */
const select = (from: string) => `
  SELECT a.rowid AS rowid, a.artifact_id, a.state, a.space, a.workarea, a.producer_name, a.producer_kind, a.kind,
    a.content_type, a.writer_identity, a.writer_kind, a.source_uri, a.derives_from, a.addressed_to, a.ts, a.state_ts, a.findings_count,
    CASE WHEN a.kind IN ('question', 'answer') THEN b.bytes ELSE substr(b.bytes, 1, ${LABEL_SOURCE_BYTES}) END AS masked
  FROM ${from} LEFT JOIN blobs b ON a.state IN ('ACTIVE', 'SUPERSEDED') AND a.erased_seq IS NULL AND b.hash = a.masked_hash`;

/**
 * The newest rows first, for a WHERE clause and a LIMIT the caller appends. NOT INDEXED
 * keeps the planner on the rowid order: with the space index it would read and sort every
 * matching row, bodies and all, to keep the newest 2,000 (measured at 4,500 rows, with the
 * shorter label read of node-label.ts: p50 70 ms before, 35 ms after); in rowid order the
 * read stops at the limit, and a window of rowids bounds it (src/projections/rowid-window.ts).
 */
const NEWEST_GRAPH_ROWS = select('artifacts a NOT INDEXED');

const inList = (values: readonly unknown[]) => `(${values.map(() => '?').join(',')})`;

/**
 * Reads of the graph's rows (gv.graph). The whole-store and work-area selections depend on
 * the caller's visibility clause, so those statements are made per call from its pieces;
 * the reads by id are prepared once.
 */
export class GraphReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(private readonly db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      rowsById: p(`${select('artifacts a')} WHERE a.artifact_id IN (SELECT value FROM json_each(?))`),
      briefsById: p(`SELECT artifact_id, rowid, state, space, writer_identity FROM artifacts WHERE artifact_id IN (SELECT value FROM json_each(?))`),
    };
  }

  /** The filter's WHERE clause (without the states) and its arguments. */
  private spaceClause(f: SpaceFilter): { clause: string; args: unknown[] } {
    const where = [f.visible.sql, f.spaces.length ? `space IN ${inList(f.spaces)}` : '0'];
    const args: unknown[] = [...f.visible.args, ...f.spaces];
    if (f.kinds !== undefined) {
      where.push(`kind IN ${inList(f.kinds)}`);
      args.push(...f.kinds);
    }
    return { clause: where.join(' AND '), args };
  }

  /** Rows matching the filter per state, within one window of rowids (made once a call, read window by window). */
  stateCounts(f: SpaceFilter): (w: RowidWindow) => { state: string; n: number }[] {
    const { clause, args } = this.spaceClause(f);
    const read = this.db.prepare(`SELECT state, count(*) AS n FROM ${WALKED} WHERE ${inWindow()} AND ${clause} GROUP BY state`);
    return (w) => read.all(...windowArgs(w), ...args) as { state: string; n: number }[];
  }

  /** The newest rows within one window matching the filter and in one of `states` (undefined: every state), at most `limit`. */
  newestRows(f: SpaceFilter, states: readonly string[] | undefined): (w: RowidWindow, limit: number) => GraphRow[] {
    const { clause, args } = this.spaceClause(f);
    const stateClause = states === undefined ? '' : states.length ? ` AND state IN ${inList(states)}` : ' AND 0';
    const read = this.db.prepare(`${NEWEST_GRAPH_ROWS} WHERE ${inWindow('a.')} AND ${clause}${stateClause} ORDER BY a.rowid DESC LIMIT ?`);
    return (w, limit) => read.all(...windowArgs(w), ...args, ...(states ?? []), limit) as GraphRow[];
  }

  /** A work area's rows within one window that the visibility clause lets through, newest first. */
  areaBriefs(visible: RowClause, space: string, workarea: string): (w: RowidWindow) => GraphBrief[] {
    const read = this.db.prepare(
      `SELECT artifact_id, rowid, state, space, writer_identity FROM ${WALKED}
       WHERE ${inWindow()} AND space = ? AND workarea = ? AND ${visible.sql} ORDER BY rowid DESC`,
    );
    return (w) => read.all(...windowArgs(w), space, workarea, ...visible.args) as GraphBrief[];
  }

  /** Briefs by id, in no particular order. */
  briefsById(ids: readonly string[]): GraphBrief[] {
    return this.s.briefsById!.all(JSON.stringify(ids)) as GraphBrief[];
  }

  /** Rows by id, in no particular order (the caller orders them). */
  rowsById(ids: readonly string[]): GraphRow[] {
    if (ids.length === 0) return [];
    return this.s.rowsById!.all(JSON.stringify(ids)) as GraphRow[];
  }
}
