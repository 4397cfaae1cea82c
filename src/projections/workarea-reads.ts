import type Database from 'better-sqlite3';

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
}
