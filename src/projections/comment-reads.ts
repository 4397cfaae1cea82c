import type Database from 'better-sqlite3';

export interface CommentRow {
  event_id: string;
  seq: number;
  artifact_id: string;
  author: string;
  author_class: string;
  kind: string;
  body: string;
  reply_to: string | null;
  findings: string;
  audience: string;
  /** 1 when the scanner found in the body a finding of medium severity or more. */
  held: number;
  /** The scanner's findings in the body (JSON; with their masked excerpts, kept inside the gate). */
  scan_findings: string;
  ts: number;
  retract_event_id: string | null;
  retracted_by: string | null;
  retracted_ts: number | null;
  retract_reason: string | null;
}

/** Prepared reads of the comments view. */
export class CommentReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    this.s = {
      byId: db.prepare('SELECT * FROM comments WHERE event_id = ?'),
      ofRow: db.prepare('SELECT * FROM comments WHERE artifact_id = ? ORDER BY seq'),
      timesSince: db.prepare('SELECT ts FROM comments WHERE author = ? AND ts >= ?').pluck(),
    };
  }

  byId(eventId: string): CommentRow | undefined {
    return this.s.byId!.get(eventId) as CommentRow | undefined;
  }

  /** Every comment on a row, tombstones included, oldest first. */
  ofRow(artifactId: string): CommentRow[] {
    return this.s.ofRow!.all(artifactId) as CommentRow[];
  }

  /** When this author commented, at or after `since` (tombstones included). */
  timesSince(author: string, since: number): number[] {
    return this.s.timesSince!.all(author, since) as number[];
  }
}

/** Objections not retracted and not answered by a live resolution replying to them. */
export function openObjections(comments: readonly CommentRow[]): CommentRow[] {
  const resolved = new Set(
    comments.filter((c) => c.kind === 'resolution' && c.retract_event_id === null && c.reply_to !== null).map((c) => c.reply_to),
  );
  return comments.filter((c) => c.kind === 'objection' && c.retract_event_id === null && !resolved.has(c.event_id));
}
