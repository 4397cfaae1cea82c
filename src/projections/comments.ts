import type Database from 'better-sqlite3';
import type { FoldedBy, JournalEventOf } from '../journal/catalogue/catalogue.js';
import { CommentReads } from './comment-reads.js';
import { defineView } from './define-view.js';

/**
 * Comments on rows: kind, body, the comment replied to, findings referred to, audience, and
 * what the scanner found in the body (`held` when a finding of medium severity or more). A
 * retracted comment stays as a tombstone (who retracted it and when). Bodies leave the gate
 * only through gv.comments, to readers of the row (a held one to fewer: src/verbs/review/comments.ts).
 */
export function commentTables(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${schema}.comments (
      event_id TEXT PRIMARY KEY,
      seq INTEGER NOT NULL,
      artifact_id TEXT NOT NULL,
      author TEXT NOT NULL,
      author_class TEXT NOT NULL,
      kind TEXT NOT NULL,
      body TEXT NOT NULL,
      reply_to TEXT,
      findings TEXT NOT NULL,
      audience TEXT NOT NULL,
      held INTEGER NOT NULL DEFAULT 0,
      scan_findings TEXT NOT NULL DEFAULT '[]',
      ts INTEGER NOT NULL,
      retract_event_id TEXT,
      retracted_by TEXT,
      retracted_ts INTEGER,
      retract_reason TEXT
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS ${schema}.comments_row ON comments(artifact_id, seq);
    CREATE INDEX IF NOT EXISTS ${schema}.comments_author ON comments(author, ts);
  `;
}

export const commentDigestQueries = (schema: string) => ({
  comments: `SELECT * FROM ${schema}.comments ORDER BY seq`,
});

/** The scan a comment event records: `{findings, held, scanner}`, each finding as the scanner made it. */
function scanOf(d: { scan?: { findings?: unknown; held?: unknown } }): { findings: unknown[]; held: boolean } {
  const scan = d.scan ?? {};
  return { findings: Array.isArray(scan.findings) ? scan.findings : [], held: scan.held === true };
}

export class CommentReducer {
  private readonly insert: Database.Statement;
  private readonly retract: Database.Statement;

  constructor(db: Database.Database, schema: string) {
    this.insert = db.prepare(`INSERT INTO ${schema}.comments (event_id, seq, artifact_id, author, author_class, kind, body,
      reply_to, findings, audience, held, scan_findings, ts) VALUES (@event_id, @seq, @artifact_id, @author, @author_class, @kind,
      @body, @reply_to, @findings, @audience, @held, @scan_findings, @ts)`);
    this.retract = db.prepare(`UPDATE ${schema}.comments SET retract_event_id = @retract_event_id, retracted_by = @by,
      retracted_ts = @ts, retract_reason = @reason WHERE event_id = @comment`);
  }

  apply(event: JournalEventOf<FoldedBy<'comments'>>): void {
    if (event.type === 'comment') {
      this.insert.run({
        event_id: event.event_id,
        seq: event.seq,
        artifact_id: event.data.artifact_id,
        author: event.by,
        author_class: event.data.author_class,
        kind: event.data.kind,
        body: event.data.body,
        reply_to: event.data.reply_to ?? null,
        findings: JSON.stringify(event.data.findings ?? []),
        audience: event.data.audience,
        // A comment written before comments were scanned has no scan: nothing was found in it.
        held: scanOf(event.data).held ? 1 : 0,
        scan_findings: JSON.stringify(scanOf(event.data).findings),
        ts: event.ts,
      });
    } else {
      this.retract.run({ retract_event_id: event.event_id, by: event.by, ts: event.ts, reason: event.data.reason ?? null, comment: event.data.comment });
    }
  }
}

/** The comments view. */
export const commentView = defineView({
  name: 'comments',
  tables: commentTables,
  digest: commentDigestQueries,
  reducer: (db, schema) => new CommentReducer(db, schema),
  reads: {
    comments: ({ db }) => new CommentReads(db),
  },
});
