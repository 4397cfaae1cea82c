import type Database from 'better-sqlite3';
import { HELD_ON_RESCAN } from '../domain/states.js';
import type { ArtifactRow } from './artifact-reads.js';

/** Rows a reviewer works through: everything in review but the instant before a scan lands. */
export const WAITING_STATES = ['L1_SCANNED', 'L1B_FLAGGED', 'L2_SCORED', 'NEEDS_EVIDENCE', 'L3_RATIFIED'] as const;

/**
 * Which journaled reviewer runs a listing reads: those on rows a visibility clause shows (null:
 * every run, those on no row included), whose row, backend, model or failure contains `q`.
 */
export interface RunFilter {
  visible: { sql: string; args: readonly unknown[] } | null;
  q?: string;
}

export interface ReviewRow {
  /** The row's rowid in the artifacts view. */
  row: number;
  artifact_id: string;
  review_since: number;
  epoch: number;
  cancelled: number;
  veto: number;
  asked_day: string | null;
}

export interface SignatureRow {
  seq: number;
  artifact_id: string;
  event_id: string;
  type: string;
  signer: string;
  class: string;
  decision: string;
  stance: string | null;
  content_hash: string | null;
  rubric: string | null;
  assessment_id: string | null;
  category: string | null;
  epoch: number;
  ts: number;
}

export interface AssessmentRow {
  event_id: string;
  artifact_id: string;
  run_id: string | null;
  score: number;
  rubric: string;
  rationale: string;
  evidence: string;
  counterevidence: string;
}

export interface RunRow {
  run_id: string;
  seq: number;
  artifact_id: string | null;
  space: string | null;
  backend: string;
  model_label: string;
  stance: string | null;
  state: string;
  failure: string | null;
  detail: string | null;
  cost_tokens: number;
  from_record: number;
  ms: number;
  ts: number;
}

/** A promotion, ratification or demotion, as the decision log reports it. */
export interface Decision {
  seq: number;
  type: 'promote' | 'ratify' | 'demote';
  /** The signature's decision: a ratify that sends the row back for evidence says `needs_evidence`. */
  decision: string | null;
  by: string | null;
  artifact_id: string | null;
  space: string | null;
}

/** Prepared reads of the review views. */
export class ReviewReads {
  private readonly s: Record<string, Database.Statement>;
  /** The statement of waitingSince for a state list of this length, prepared on its first use. */
  private readonly waitingSinceFor: (states: number) => Database.Statement;

  /** Kept for the run listings, whose clause depends on the caller (prepared when asked). */
  private readonly db: Database.Database;

  constructor(db: Database.Database) {
    this.db = db;
    const p = (sql: string) => db.prepare(sql);
    const marks = WAITING_STATES.map(() => '?').join(',');
    const rowsWhere = (steering: boolean) =>
      `FROM artifacts a LEFT JOIN review_rows r ON r.row = a.rowid WHERE a.state IN (${marks}) AND ${steering ? "a.kind = 'steering'" : "coalesce(a.kind, '') != 'steering'"}`;
    this.s = {
      row: p('SELECT r.* FROM artifacts a JOIN review_rows r ON r.row = a.rowid WHERE a.artifact_id = ?'),
      signatures: p('SELECT * FROM signatures WHERE artifact_id = ? ORDER BY seq'),
      cached: p(`SELECT * FROM signatures WHERE type = 'verdict' AND content_hash = ? AND signer = ? AND stance = ? AND rubric = ?
        ORDER BY seq DESC LIMIT 1`),
      assessment: p('SELECT * FROM assessments WHERE event_id = ?'),
      // One small row per decision, keyed by seq: a commit's range costs one empty seek when it holds none.
      decisions: p(`SELECT s.seq, s.type, s.decision, s.signer AS by, s.artifact_id, a.space FROM signatures s LEFT JOIN artifacts a ON a.artifact_id = s.artifact_id
        WHERE s.seq > ? AND s.seq <= ? AND s.type IN ('promote', 'ratify', 'demote')`),
      spent: p('SELECT spent FROM review_budget WHERE day = ?').pluck(),
      runsOfRow: p('SELECT * FROM review_runs WHERE artifact_id = ? AND ts >= ? ORDER BY seq'),
      settleCandidates: p(
        `SELECT a.* FROM artifacts a JOIN spaces s ON s.name = a.space
       WHERE a.state = 'L2_SCORED' AND s.policy = 'auto' ORDER BY a.rowid LIMIT ?`,
      ),
      gradingCandidates: p(
        `SELECT a.* FROM artifacts a JOIN spaces s ON s.name = a.space
     WHERE a.state IN ('L1_SCANNED', 'L2_SCORED') AND a.rowid > ? AND (a.state = 'L1_SCANNED' OR s.policy != 'human')
       AND a.erased_seq IS NULL
     ORDER BY a.rowid LIMIT ?`,
      ),
      secondOpinionCandidates: p(
        `SELECT a.* FROM artifacts a JOIN spaces s ON s.name = a.space JOIN review_rows r ON r.row = a.rowid
       WHERE a.state = 'L2_SCORED' AND s.policy != 'human'
         AND NOT EXISTS (SELECT 1 FROM signatures g WHERE g.artifact_id = a.artifact_id AND g.type = 'verdict'
           AND g.stance = 'second-opinion' AND g.epoch = r.epoch)
         AND a.rowid > ?
       ORDER BY a.rowid LIMIT ?`,
      ),
      waitingCount: p(`SELECT count(*) FROM artifacts WHERE state IN (${marks})`).pluck(),
      waitingSteering: p(`SELECT a.* ${rowsWhere(true)} ORDER BY coalesce(r.review_since, a.ts), a.rowid LIMIT ?`),
      waitingRows: p(`SELECT a.* ${rowsWhere(false)} ORDER BY coalesce(r.review_since, a.ts), a.rowid LIMIT ?`),
      signedSince: p('SELECT type, decision, ts FROM signatures WHERE signer = ? AND ts >= ?'),
    };
    const waitingSince = new Map<number, Database.Statement>();
    this.waitingSinceFor = (states) => {
      let statement = waitingSince.get(states);
      if (statement === undefined) {
        statement = p(
          `SELECT a.artifact_id, r.review_since FROM artifacts a JOIN review_rows r ON r.row = a.rowid
       WHERE a.state IN (${Array.from({ length: states }, () => '?').join(',')}) AND r.review_since <= ?
       -- A promoted row a later scan held waits for a person, never for the clock.
       AND coalesce(a.reason, '') != '${HELD_ON_RESCAN}' ORDER BY r.review_since LIMIT ?`,
        );
        waitingSince.set(states, statement);
      }
      return statement;
    };
  }

  row(artifactId: string): ReviewRow | undefined {
    return this.s.row!.get(artifactId) as ReviewRow | undefined;
  }

  /** Every signature on the row, oldest first, across epochs. */
  signatures(artifactId: string): SignatureRow[] {
    return this.s.signatures!.all(artifactId) as SignatureRow[];
  }

  /** The newest verdict any row holds for these bytes from this model, stance and rubric: the decision record. */
  recordedVerdict(contentHash: string, modelLabel: string, stance: string, rubric: string): SignatureRow | undefined {
    return this.s.cached!.get(contentHash, modelLabel, stance, rubric) as SignatureRow | undefined;
  }

  /** The row's reviewer runs journaled at or after a time (when it began waiting), oldest first. */
  runsOfRow(artifactId: string, sinceTs: number): RunRow[] {
    return this.s.runsOfRow!.all(artifactId, sinceTs) as RunRow[];
  }

  assessment(eventId: string): AssessmentRow | undefined {
    return this.s.assessment!.get(eventId) as AssessmentRow | undefined;
  }

  spentOn(day: string): number {
    return (this.s.spent!.get(day) as number | undefined) ?? 0;
  }

  /** Promotions, ratifications and demotions journaled in seq (after, last]. */
  decisionsIn(after: number, last: number): IterableIterator<Decision> {
    return this.s.decisions!.iterate(after, last) as IterableIterator<Decision>;
  }

  /** Rows of auto spaces waiting in L2_SCORED, oldest first: what settling may promote. */
  settleCandidates(limit: number): ArtifactRow[] {
    return this.s.settleCandidates!.all(limit) as ArtifactRow[];
  }

  /** Held L1 rows and scored rows of model and auto spaces after a rowid, oldest first: the rows grading looks at. */
  gradingCandidates(afterRowid: number, limit: number): ArtifactRow[] {
    return this.s.gradingCandidates!.all(afterRowid, limit) as ArtifactRow[];
  }

  /** Scored rows of model and auto spaces after a rowid without a second opinion in their epoch, oldest first. */
  secondOpinionCandidates(afterRowid: number, limit: number): ArtifactRow[] {
    return this.s.secondOpinionCandidates!.all(afterRowid, limit) as ArtifactRow[];
  }

  /**
   * Rows in these states that began waiting at or before `since`, longest waiting first (the
   * expiry's candidates); a promoted row a later scan held (HELD_ON_RESCAN) is none.
   */
  waitingSince(states: readonly string[], since: number, limit: number): Array<{ artifact_id: string; review_since: number }> {
    return this.waitingSinceFor(states.length).all(...states, since, limit) as Array<{ artifact_id: string; review_since: number }>;
  }

  /** Rows in any of the waiting states, steering included. */
  waitingCount(): number {
    return this.s.waitingCount!.get(...WAITING_STATES) as number;
  }

  /** Waiting steering rows, longest waiting first (since their review began, else their ingest), at most `limit`. */
  waitingSteering(limit: number): ArtifactRow[] {
    return this.s.waitingSteering!.all(...WAITING_STATES, limit) as ArtifactRow[];
  }

  /** Waiting rows but steering, longest waiting first, at most `limit`. */
  waitingRows(limit: number): ArtifactRow[] {
    return this.s.waitingRows!.all(...WAITING_STATES, limit) as ArtifactRow[];
  }

  /** The type and time of every signature this signer made at or after `since`. */
  signedSince(signer: string, since: number): Array<{ type: string; decision: string; ts: number }> {
    return this.s.signedSince!.all(signer, since) as Array<{ type: string; decision: string; ts: number }>;
  }

  /** The filter as a clause over review_runs and its arguments. */
  private runClause(filter: RunFilter): { clause: string; args: unknown[] } {
    const where = [filter.visible === null ? '1' : `artifact_id IN (SELECT artifact_id FROM artifacts WHERE ${filter.visible.sql})`];
    const args: unknown[] = filter.visible === null ? [] : [...filter.visible.args];
    if (filter.q !== undefined && filter.q !== '') {
      where.push('(instr(coalesce(artifact_id, \'\'), ?) > 0 OR instr(backend, ?) > 0 OR instr(model_label, ?) > 0 OR instr(coalesce(failure, \'\'), ?) > 0)');
      args.push(filter.q, filter.q, filter.q, filter.q);
    }
    return { clause: where.join(' AND '), args };
  }

  /** Journaled runs the filter reads, counted by state. */
  runCounts(filter: RunFilter): Array<{ state: string; n: number }> {
    const { clause, args } = this.runClause(filter);
    return this.db.prepare(`SELECT state, count(*) AS n FROM review_runs WHERE ${clause} GROUP BY state`).all(...args) as Array<{ state: string; n: number }>;
  }

  /** Journaled runs the filter reads, in one state or all, newest first, at most `limit`. */
  journaledRuns(filter: RunFilter, state: string, limit: number): RunRow[] {
    const { clause, args } = this.runClause(filter);
    return this.db
      .prepare(`SELECT * FROM review_runs WHERE ${clause}${state === 'all' ? '' : ' AND state = ?'} ORDER BY seq DESC LIMIT ? OFFSET ?`)
      .all(...args, ...(state === 'all' ? [] : [state]), limit, 0) as RunRow[];
  }

  /** The newest failed run the filter reads. */
  lastFailedRun(filter: RunFilter): RunRow | undefined {
    const { clause, args } = this.runClause(filter);
    return this.db.prepare(`SELECT * FROM review_runs WHERE ${clause} AND state = 'failed' ORDER BY seq DESC LIMIT 1`).get(...args) as RunRow | undefined;
  }
}
