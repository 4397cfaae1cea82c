import type Database from 'better-sqlite3';

/** A detector's verdict on one row's bytes. */
export interface DetectionRow {
  artifact_id: string;
  detector: string;
  content_hash: string;
  verdict: 'clean' | 'attack';
  label: string | null;
  score: number | null;
  threshold: number;
  seq: number;
  ts: number;
}

/** A row owed a verdict: its place in the artifacts view and its id. */
export interface OwedRow {
  rowid: number;
  artifact_id: string;
}

/**
 * The states in which a row of an auto or model space is owed the detector's verdict: waiting
 * in review, flagged included (the person disposing of a finding then sees the detector's too).
 */
const OWED = `a.state IN ('L1_SCANNED', 'L1B_FLAGGED', 'L2_SCORED') AND a.erased_seq IS NULL AND s.policy IN ('auto', 'model')
  AND NOT EXISTS (SELECT 1 FROM main.detections d WHERE d.artifact_id = a.artifact_id AND d.detector = ? AND d.content_hash = a.content_hash)`;

/** Prepared reads of the detections view, and of the rows owed a verdict. */
export class DetectionReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      verdict: p('SELECT * FROM main.detections WHERE artifact_id = ? AND detector = ?'),
      owedAfter: p(`SELECT a.rowid AS rowid, a.artifact_id AS artifact_id FROM main.artifacts a JOIN main.spaces s ON s.name = a.space
        WHERE a.rowid > ? AND ${OWED} ORDER BY a.rowid LIMIT ?`),
      // Rows an event of the commit names: a scan, a disposition or a reopen may have made one owed.
      owedTouched: p(`SELECT DISTINCT a.rowid AS rowid, a.artifact_id AS artifact_id FROM main.journal j
          JOIN main.artifacts a ON a.artifact_id = j.artifact_id JOIN main.spaces s ON s.name = a.space
        WHERE j.seq > ? AND j.seq <= ? AND j.artifact_id IS NOT NULL AND ${OWED} ORDER BY a.rowid`),
    };
  }

  /** The detector's verdict on the row, if it gave one. */
  verdict(artifactId: string, detector: string): DetectionRow | undefined {
    return this.s.verdict!.get(artifactId, detector) as DetectionRow | undefined;
  }

  /** Rows owed the detector's verdict after a rowid, oldest first. */
  owedAfter(detector: string, afterRowid: number, limit: number): OwedRow[] {
    return this.s.owedAfter!.all(afterRowid, detector, limit) as OwedRow[];
  }

  /** Rows owed the detector's verdict that events with seq in (after, last] name. */
  owedTouched(detector: string, after: number, last: number): OwedRow[] {
    return this.s.owedTouched!.all(after, last, detector) as OwedRow[];
  }
}
