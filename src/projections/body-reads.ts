import type Database from 'better-sqlite3';
import type { FoldedBy, JournalEventOf } from '../journal/catalogue/catalogue.js';
import { defineView } from './define-view.js';

/**
 * How far each identity has been served a row's masked body, in order (`body-served`
 * events of gv.node). A reviewer's promoting or clearing signature counts only once the
 * read reached the end: the same rule attachments follow (attachment_reads).
 */
export function bodyReadTables(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${schema}.body_reads (
      identity TEXT NOT NULL,
      artifact_id TEXT NOT NULL,
      content_hash TEXT NOT NULL,
      next_offset INTEGER NOT NULL,
      to_end INTEGER NOT NULL,
      PRIMARY KEY (identity, artifact_id, content_hash)
    ) WITHOUT ROWID;
  `;
}

export const bodyReadDigestQueries = (schema: string) => ({
  body_reads: `SELECT * FROM ${schema}.body_reads ORDER BY identity, artifact_id, content_hash`,
});

export class BodyReadReducer {
  private readonly served: Database.Statement;

  constructor(db: Database.Database, schema: string) {
    this.served = db.prepare(`INSERT INTO ${schema}.body_reads (identity, artifact_id, content_hash, next_offset, to_end)
      VALUES (?, ?, ?, ?, ?) ON CONFLICT(identity, artifact_id, content_hash)
      DO UPDATE SET next_offset = excluded.next_offset, to_end = max(to_end, excluded.to_end)`);
  }

  apply(event: JournalEventOf<FoldedBy<'body-reads'>>): void {
    this.served.run(event.by, event.data.artifact_id, event.data.content_hash, event.data.next_offset, event.data.to_end === true ? 1 : 0);
  }
}

/** Prepared reads of body_reads. */
export class BodyReads {
  private readonly read: Database.Statement;

  constructor(db: Database.Database) {
    this.read = db.prepare('SELECT next_offset, to_end FROM body_reads WHERE identity = ? AND artifact_id = ? AND content_hash = ?');
  }

  /** Where an in-order read of this copy by this identity goes on from, and whether it reached the end. */
  progress(identity: string, artifactId: string, contentHash: string): { next: number; toEnd: boolean } {
    const row = this.read.get(identity, artifactId, contentHash) as { next_offset: number; to_end: number } | undefined;
    return { next: row?.next_offset ?? 0, toEnd: row?.to_end === 1 };
  }
}

/** The body reads view. */
export const bodyReadView = defineView({
  name: 'body-reads',
  tables: bodyReadTables,
  digest: bodyReadDigestQueries,
  reducer: (db, schema) => new BodyReadReducer(db, schema),
  reads: {
    bodyReads: ({ db }) => new BodyReads(db),
  },
});
