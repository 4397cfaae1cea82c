import type Database from 'better-sqlite3';
import { HELD_STATES, PROMOTED_STATES } from '../domain/states.js';
import { inWindow, WALKED, windowArgs, type RowidWindow } from './rowid-window.js';

/** Who reads a space's rows (C6): every row from reviewer up; below, the caller's own rows and, where it may read the space, promoted rows. */
export interface SpaceReader {
  all: boolean;
  identity: string;
  readable: boolean;
}

/** A work area's rows counted (gv.lineage's node). */
export interface AreaStats {
  name: string;
  promoted: number;
  held: number;
  recorded: number;
  first_write: number;
  last_write: number;
}

export interface AreaProducer {
  workarea: string;
  name: string;
  kind: string | null;
  rows: number;
  last_write: number;
}

/** A row in one work area citing a row in another (gv.lineage's derived edge). */
export interface DerivedCitation {
  source: string;
  target: string;
  child: string;
}

export interface AreaRow {
  artifact_id: string;
  kind: string | null;
  content_type: string;
  state: string;
  producer_name: string | null;
  producer_kind: string | null;
  writer_identity: string;
  ts: number;
}

const inList = (states: ReadonlySet<string>) => `(${[...states].map((s) => `'${s}'`).join(', ')})`;
const promotedIn = (a = '') => `${a}state IN ${inList(PROMOTED_STATES)}`;
const HELD_IN = `state IN ${inList(HELD_STATES)}`;

/** The three ways C6 reads a space: everything, own rows, own rows or promoted ones. */
type Sight = 'all' | 'own' | 'ownOrPromoted';
const SIGHTS: readonly Sight[] = ['all', 'own', 'ownOrPromoted'];
const sightOf = (reader: SpaceReader): Sight => (reader.all ? 'all' : reader.readable ? 'ownOrPromoted' : 'own');
const argsOf = (reader: SpaceReader): unknown[] => (reader.all ? [] : [reader.identity]);

/** C6 for one space as SQL over `artifacts`, its columns prefixed by `a`. */
function visibleSql(sight: Sight, a = ''): string {
  if (sight === 'all') return '1';
  const own = `${a}writer_identity = ?`;
  return sight === 'ownOrPromoted' ? `(${own} OR ${promotedIn(a)})` : own;
}

interface SightReads {
  stats: Database.Statement;
  producers: Database.Statement;
  derived: Database.Statement;
  areaRows: Database.Statement;
}

/**
 * Prepared reads of a space's rows by work area, as gv.lineage draws them: each statement once
 * for each of the three ways a caller may see the space.
 */
export class LineageReads {
  private readonly bySight: Record<Sight, SightReads>;
  private readonly promotedWriters: Database.Statement;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    const reads = (sight: Sight): SightReads => {
      // Each walk of the space reads one window of rowids (src/projections/rowid-window.ts); the caller merges the windows.
      const inSpace = `${inWindow()} AND space = ? AND workarea IS NOT NULL AND ${visibleSql(sight)}`;
      return {
        stats: p(
          `SELECT workarea AS name, sum(${promotedIn()}) AS promoted, sum(${HELD_IN}) AS held, sum(state = 'RECORDED') AS recorded,
       min(ts) AS first_write, max(ts) AS last_write FROM ${WALKED} WHERE ${inSpace} GROUP BY workarea`,
        ),
        producers: p(
          `SELECT workarea, producer_name AS name, producer_kind AS kind, count(*) AS rows, max(ts) AS last_write
       FROM ${WALKED} WHERE ${inSpace} AND producer_name IS NOT NULL
       GROUP BY workarea, producer_name, producer_kind ORDER BY workarea, producer_name, producer_kind`,
        ),
        // CROSS JOIN keeps the order as written: each child, its parents by id. Left to itself the
        // planner read both sides by the space index and paired every row of the space with every
        // other (66,000 rows: minutes on the main thread).
        derived: p(
          `SELECT c.workarea AS source, p.workarea AS target, c.artifact_id AS child
       FROM artifacts AS c NOT INDEXED CROSS JOIN json_each(c.derives_from) j CROSS JOIN artifacts p ON p.artifact_id = j.value
       WHERE ${inWindow('c.')} AND c.space = ? AND c.workarea IS NOT NULL AND c.derives_from != '[]' AND ${visibleSql(sight, 'c.')}
         AND p.space = c.space AND p.workarea IS NOT NULL AND p.workarea != c.workarea AND ${visibleSql(sight, 'p.')}
       GROUP BY c.rowid, p.workarea ORDER BY c.rowid DESC`,
        ),
        areaRows: p(
          `SELECT artifact_id, kind, content_type, state, producer_name, producer_kind, writer_identity, ts FROM artifacts
         WHERE space = ? AND workarea = ? AND ${visibleSql(sight)} ORDER BY rowid DESC LIMIT ?`,
        ),
      };
    };
    this.bySight = Object.fromEntries(SIGHTS.map((sight) => [sight, reads(sight)])) as Record<Sight, SightReads>;
    this.promotedWriters = p(`SELECT DISTINCT workarea, writer_identity AS identity FROM ${WALKED}
                WHERE ${inWindow()} AND space = ? AND workarea IS NOT NULL AND ${promotedIn()}`);
  }

  /** Each work area of the space the reader sees rows in within one window, its rows counted by state and its first and last write. */
  areaStats(w: RowidWindow, space: string, reader: SpaceReader): AreaStats[] {
    return this.bySight[sightOf(reader)].stats.all(...windowArgs(w), space, ...argsOf(reader)) as AreaStats[];
  }

  /** The producers of the rows the reader sees within one window, by work area. */
  producers(w: RowidWindow, space: string, reader: SpaceReader): AreaProducer[] {
    return this.bySight[sightOf(reader)].producers.all(...windowArgs(w), space, ...argsOf(reader)) as AreaProducer[];
  }

  /** Who wrote a promoted row into each work area of the space, within one window. */
  promotedWritersOf(w: RowidWindow, space: string): { workarea: string; identity: string }[] {
    return this.promotedWriters.all(...windowArgs(w), space) as { workarea: string; identity: string }[];
  }

  /** Rows within one window citing a row of another work area, both seen by the reader: one per child and cited area, the newest child first. */
  derivedCitations(w: RowidWindow, space: string, reader: SpaceReader): DerivedCitation[] {
    const args = argsOf(reader);
    return this.bySight[sightOf(reader)].derived.all(...windowArgs(w), space, ...args, ...args) as DerivedCitation[];
  }

  /** The newest rows of one work area the reader sees, at most `limit`. */
  areaRows(space: string, workarea: string, reader: SpaceReader, limit: number): AreaRow[] {
    return this.bySight[sightOf(reader)].areaRows.all(space, workarea, ...argsOf(reader), limit) as AreaRow[];
  }
}
