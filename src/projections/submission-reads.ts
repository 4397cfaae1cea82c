import type Database from 'better-sqlite3';

/**
 * A submission's states: queued, accepted or refused by the organization; retract: the content
 * was erased and its retraction waits to reach the organization; retracted: it did;
 * retract_refused: the door refused it for good.
 */
export const SUBMISSION_STATES = ['queued', 'accepted', 'refused', 'retract', 'retracted', 'retract_refused'] as const;

/** A row of the submissions view as gv.submit and gv.submit_drain read it. */
export interface SubmissionRow {
  artifact_id: string;
  space: string;
  submission_id: string;
  state: (typeof SUBMISSION_STATES)[number];
  attempts: number;
  next_attempt_ts: number;
}

/** Prepared reads of the submissions view (submissions to the organization gate). */
export class SubmissionReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      of: p('SELECT * FROM submissions WHERE artifact_id = ?'),
      due: p(`SELECT * FROM submissions WHERE state = 'queued' AND next_attempt_ts <= ? ORDER BY queued_seq LIMIT ?`),
      queued: p(`SELECT count(*) AS n FROM submissions WHERE state = 'queued'`),
      dueRetractions: p(`SELECT * FROM submissions WHERE state = 'retract' AND next_attempt_ts <= ? ORDER BY updated_seq LIMIT ?`),
      retracting: p(`SELECT count(*) AS n FROM submissions WHERE state = 'retract'`),
    };
  }

  of(artifactId: string): SubmissionRow | undefined {
    return this.s.of!.get(artifactId) as SubmissionRow | undefined;
  }

  /** Queued submissions whose next attempt is due at `now`, in the order they were queued. */
  due(now: number, limit: number): SubmissionRow[] {
    return this.s.due!.all(now, limit) as SubmissionRow[];
  }

  /** Retractions of erased rows whose next attempt is due at `now`, oldest erasure first. */
  dueRetractions(now: number, limit: number): SubmissionRow[] {
    return this.s.dueRetractions!.all(now, limit) as SubmissionRow[];
  }

  /** Erased rows whose retraction has not reached the organization yet. */
  retractingCount(): number {
    return (this.s.retracting!.get() as { n: number }).n;
  }

  queuedCount(): number {
    return (this.s.queued!.get() as { n: number }).n;
  }
}
