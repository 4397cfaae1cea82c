import type Database from 'better-sqlite3';

/** A row of the submissions view as gv.submit and gv.submit_drain read it. */
export interface SubmissionRow {
  artifact_id: string;
  space: string;
  submission_id: string;
  state: 'queued' | 'accepted' | 'refused';
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
    };
  }

  of(artifactId: string): SubmissionRow | undefined {
    return this.s.of!.get(artifactId) as SubmissionRow | undefined;
  }

  /** Queued submissions whose next attempt is due at `now`, in the order they were queued. */
  due(now: number, limit: number): SubmissionRow[] {
    return this.s.due!.all(now, limit) as SubmissionRow[];
  }

  queuedCount(): number {
    return (this.s.queued!.get() as { n: number }).n;
  }
}
