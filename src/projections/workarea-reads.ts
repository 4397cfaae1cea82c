import type Database from 'better-sqlite3';
import type { ArtifactRow } from './artifact-reads.js';
import { QUARANTINE_STATES } from '../domain/states.js';

export interface WorkareaPart {
  space: string;
  workarea: string;
  identity: string;
  first_seq: number;
  first_ts: number;
  completed_seq: number | null;
  completed_ts: number | null;
  completed_by: string | null;
}

export interface DeclaredRelation {
  space: string;
  workarea: string;
  kind: string;
  target: string;
  by: string;
  producer_name: string | null;
  producer_kind: string | null;
  seq: number;
  ts: number;
}

const PROMOTED = `state IN ('ACTIVE', 'SUPERSEDED')`;

/** One's part of a work area with its rows counted (gv.work). */
export interface PartProgress {
  space: string;
  workarea: string;
  first_ts: number;
  completed_ts: number | null;
  rows: number;
  waiting: number;
  last_write: number | null;
}

/** Which rows of a work area a caller's counts cover: every row, its own and the promoted ones, or its own alone. */
export type AreaScope = 'all' | 'own-and-promoted' | 'own';

/** Rows waiting for review. */
const waitingStates = [...QUARANTINE_STATES];
const marks = (n: number) => Array.from({ length: n }, () => '?').join(',');
/** The parts of one identity with their counts, over every space or narrowed to one (`inSpace`). */
const progressSql = (inSpace: string) =>
  `SELECT w.space, w.workarea, w.first_ts, w.completed_ts,
             (SELECT count(*) FROM artifacts a WHERE a.space = w.space AND a.workarea = w.workarea AND a.writer_identity = w.identity) AS rows,
             (SELECT count(*) FROM artifacts a WHERE a.space = w.space AND a.workarea = w.workarea AND a.writer_identity = w.identity
                AND a.state IN (${marks(waitingStates.length)})) AS waiting,
             (SELECT max(a.ts) FROM artifacts a WHERE a.space = w.space AND a.workarea = w.workarea AND a.writer_identity = w.identity) AS last_write
           FROM workarea_parts w WHERE w.identity = ?${inSpace}
           ORDER BY w.completed_ts IS NOT NULL, w.first_ts DESC LIMIT ?`;
/** A work area's rows matching `where`, newest first. */
const areaRowsSql = (where: string) => `SELECT * FROM artifacts WHERE space = ? AND workarea = ? AND ${where} ORDER BY rowid DESC LIMIT ?`;
/** A work area's rows by state, over the rows `visible` selects. */
const areaCountsSql = (visible: string) =>
  `SELECT state, count(*) AS n FROM artifacts WHERE space = ? AND workarea = ? AND ${visible} GROUP BY state ORDER BY state`;

/**
 * Prepared reads of the work-area view, made once by the store (`store.workareas`).
 */
export class WorkareaReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      part: p('SELECT * FROM workarea_parts WHERE space = ? AND workarea = ? AND identity = ?'),
      partsOfSpace: p('SELECT * FROM workarea_parts WHERE space = ? ORDER BY workarea, identity'),
      promoted: p(`SELECT 1 FROM artifacts WHERE space = ? AND workarea = ? AND ${PROMOTED} LIMIT 1`),
      promotedBy: p(`SELECT 1 FROM artifacts WHERE space = ? AND workarea = ? AND writer_identity = ? AND ${PROMOTED} LIMIT 1`),
      relation: p('SELECT 1 FROM workarea_relations WHERE space = ? AND workarea = ? AND kind = ? AND target = ? AND by = ?'),
      relationsOfSpace: p('SELECT * FROM workarea_relations WHERE space = ? ORDER BY workarea, kind, target, by'),
      // Declared edges of every kind and declarer: the declared graph of a space stays acyclic as a whole.
      reaches: p(`WITH RECURSIVE reach(area) AS (
          SELECT ? UNION SELECT r.target FROM workarea_relations r JOIN reach ON r.space = ? AND r.workarea = reach.area)
        SELECT 1 FROM reach WHERE area = ? LIMIT 1`),
      ownRows: p(areaRowsSql('writer_identity = ?')),
      promotedRows: p(areaRowsSql(PROMOTED)),
      countsAll: p(areaCountsSql('1')),
      countsOwnAndPromoted: p(areaCountsSql(`(writer_identity = ? OR ${PROMOTED})`)),
      countsOwn: p(areaCountsSql('writer_identity = ?')),
      progress: p(progressSql('')),
      progressInSpace: p(progressSql(' AND w.space = ?')),
    };
  }

  part(space: string, workarea: string, identity: string): WorkareaPart | undefined {
    return this.s.part!.get(space, workarea, identity) as WorkareaPart | undefined;
  }

  partsOfSpace(space: string): WorkareaPart[] {
    return this.s.partsOfSpace!.all(space) as WorkareaPart[];
  }

  hasPromotedRow(space: string, workarea: string): boolean {
    return this.s.promoted!.get(space, workarea) !== undefined;
  }

  hasPromotedRowBy(space: string, workarea: string, identity: string): boolean {
    return this.s.promotedBy!.get(space, workarea, identity) !== undefined;
  }

  hasRelation(space: string, workarea: string, kind: string, target: string, by: string): boolean {
    return this.s.relation!.get(space, workarea, kind, target, by) !== undefined;
  }

  relationsOfSpace(space: string): DeclaredRelation[] {
    return this.s.relationsOfSpace!.all(space) as DeclaredRelation[];
  }

  /** Whether declared relations already lead from `from` to `to` (or they are the same area). */
  reaches(space: string, from: string, to: string): boolean {
    return this.s.reaches!.get(from, space, to) !== undefined;
  }

  /** The identity's rows in the work area, newest first, at most `limit`. */
  ownRows(space: string, workarea: string, identity: string, limit: number): ArtifactRow[] {
    return this.s.ownRows!.all(space, workarea, identity, limit) as ArtifactRow[];
  }

  /** The work area's promoted rows, newest first, at most `limit`. */
  promotedRows(space: string, workarea: string, limit: number): ArtifactRow[] {
    return this.s.promotedRows!.all(space, workarea, limit) as ArtifactRow[];
  }

  /** The work area's rows by state, over the rows `scope` covers (`identity` is the caller's own). */
  stateCounts(space: string, workarea: string, scope: AreaScope, identity: string): { state: string; n: number }[] {
    if (scope === 'all') return this.s.countsAll!.all(space, workarea) as { state: string; n: number }[];
    const statement = scope === 'own' ? this.s.countsOwn! : this.s.countsOwnAndPromoted!;
    return statement.all(space, workarea, identity) as { state: string; n: number }[];
  }

  /** The identity's parts, in one space or all, open ones first then the newest, at most `limit`. */
  progressOf(identity: string, space: string | undefined, limit: number): PartProgress[] {
    if (space === undefined) return this.s.progress!.all(...waitingStates, identity, limit) as PartProgress[];
    return this.s.progressInSpace!.all(...waitingStates, identity, space, limit) as PartProgress[];
  }
}
