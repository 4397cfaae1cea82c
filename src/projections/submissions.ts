import type Database from 'better-sqlite3';
import type { FoldedBy, JournalEventOf } from '../journal/catalogue/catalogue.js';
import { SubmissionReads } from './submission-reads.js';
import { defineView } from './define-view.js';

/**
 * Submissions to the organization gate: one row per artifact, folded from
 * `submission-queued` and `submission-outcome`, then, once the row's content is erased
 * (`content_erased`), its retraction: state `retract` until the organization has it
 * (`retraction-outcome`: `retracted`, or `retract_refused` when the door refused it for
 * good). Every time in it comes from an event, so a rebuild gives the same table.
 */
export function submissionTables(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${schema}.submissions (
      artifact_id TEXT PRIMARY KEY,
      space TEXT NOT NULL,
      submission_id TEXT NOT NULL,
      state TEXT NOT NULL,
      attempts INTEGER NOT NULL,
      next_attempt_ts INTEGER NOT NULL,
      last_outcome TEXT,
      last_status INTEGER,
      org_state TEXT,
      queued_seq INTEGER NOT NULL,
      updated_seq INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS ${schema}.submissions_due ON submissions(state, next_attempt_ts);
  `;
}

export const submissionDigestQueries = (schema: string) => ({
  submissions: `SELECT * FROM ${schema}.submissions ORDER BY artifact_id`,
});

export class SubmissionReducer {
  private readonly queue: Database.Statement;
  private readonly outcome: Database.Statement;
  private readonly erased: Database.Statement;

  constructor(db: Database.Database, schema: string) {
    this.queue = db.prepare(`INSERT INTO ${schema}.submissions
        (artifact_id, space, submission_id, state, attempts, next_attempt_ts, last_outcome, last_status, org_state, queued_seq, updated_seq)
      VALUES (@artifact_id, @space, @submission_id, 'queued', 0, @ts, NULL, NULL, NULL, @seq, @seq)
      ON CONFLICT(artifact_id) DO UPDATE SET submission_id = excluded.submission_id, state = 'queued', attempts = 0,
        next_attempt_ts = excluded.next_attempt_ts, last_outcome = NULL, last_status = NULL, org_state = NULL,
        queued_seq = excluded.queued_seq, updated_seq = excluded.updated_seq`);
    this.outcome = db.prepare(`UPDATE ${schema}.submissions SET state = @state, attempts = attempts + 1,
        next_attempt_ts = @next, last_outcome = @outcome, last_status = @status, org_state = @org_state, updated_seq = @seq
      WHERE artifact_id = @artifact_id`);
    // Whatever the organization may hold of it (a body it took, or one in flight it may have taken), the erasure follows.
    this.erased = db.prepare(`UPDATE ${schema}.submissions SET state = 'retract', attempts = 0, next_attempt_ts = @ts,
        last_outcome = NULL, last_status = NULL, updated_seq = @seq
      WHERE artifact_id = @artifact_id AND state NOT IN ('retract', 'retracted', 'retract_refused')`);
  }

  apply(event: JournalEventOf<FoldedBy<'submissions'>>): void {
    if (event.type === 'submission-queued') {
      this.queue.run({ artifact_id: event.data.artifact_id, space: event.data.space, submission_id: event.data.submission_id, ts: event.ts, seq: event.seq });
      return;
    }
    if (event.type === 'content_erased') {
      this.erased.run({ artifact_id: event.data.artifact_id, ts: event.ts, seq: event.seq });
      return;
    }
    const outcome = event.data.outcome;
    // accepted and refused are final; a retry waits the door's delay; stopped (a key problem) waits for the next drain.
    const state =
      event.type === 'retraction-outcome'
        ? outcome === 'accepted' ? 'retracted' : outcome === 'refused' ? 'retract_refused' : 'retract'
        : outcome === 'accepted' ? 'accepted' : outcome === 'refused' ? 'refused' : 'queued';
    this.outcome.run({
      artifact_id: event.data.artifact_id,
      state,
      next: outcome === 'retry' ? event.ts + Number(event.data.retry_after_ms ?? 0) : event.ts,
      outcome,
      status: typeof event.data.status === 'number' ? event.data.status : null,
      org_state: typeof event.data.org_state === 'string' ? event.data.org_state : null,
      seq: event.seq,
    });
  }
}

/** The submissions view: rows submitted to the organization gate and their outcomes. */
export const submissionView = defineView({
  name: 'submissions',
  tables: submissionTables,
  digest: submissionDigestQueries,
  reducer: (db, schema) => new SubmissionReducer(db, schema),
  reads: {
    /** Submissions to the organization gate. */
    submissions: ({ db }) => new SubmissionReads(db),
  },
});
