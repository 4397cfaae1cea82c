import type Database from 'better-sqlite3';
import type { FoldedBy, JournalEventOf } from '../journal/catalogue/catalogue.js';
import { AttachmentReads } from './attachment-reads.js';
import { defineView } from './define-view.js';

/**
 * Three views of attachments: uploads (per writer and hash: started, completed or
 * abandoned, with what the image pool made of the bytes or why they were discarded), the attachments each row's
 * envelope names, and how far each identity has been served each attachment in order.
 */
export function attachmentTables(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${schema}.uploads (
      writer TEXT NOT NULL,
      sha256 TEXT NOT NULL,
      size_bytes INTEGER NOT NULL,
      state TEXT NOT NULL,
      started_ts INTEGER NOT NULL,
      completed_ts INTEGER,
      media_type TEXT,
      served_hash TEXT,
      served_size INTEGER,
      stripped TEXT,
      prepared INTEGER,
      metadata_hash TEXT,
      discard_reason TEXT,
      PRIMARY KEY (writer, sha256)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS ${schema}.uploads_state ON uploads(state, started_ts);
    CREATE TABLE IF NOT EXISTS ${schema}.row_attachments (
      artifact_id TEXT NOT NULL,
      position INTEGER NOT NULL,
      content_hash TEXT NOT NULL,
      name TEXT,
      source_uri TEXT,
      media_type TEXT NOT NULL,
      size_bytes INTEGER NOT NULL,
      served_hash TEXT,
      served_size INTEGER,
      stripped TEXT NOT NULL,
      prepared INTEGER,
      metadata_hash TEXT,
      PRIMARY KEY (artifact_id, position)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS ${schema}.attachment_reads (
      identity TEXT NOT NULL,
      artifact_id TEXT NOT NULL,
      content_hash TEXT NOT NULL,
      copy TEXT NOT NULL,
      next_offset INTEGER NOT NULL,
      to_end INTEGER NOT NULL,
      PRIMARY KEY (identity, artifact_id, content_hash, copy)
    ) WITHOUT ROWID;
  `;
}

export const attachmentDigestQueries = (schema: string) => ({
  uploads: `SELECT * FROM ${schema}.uploads ORDER BY writer, sha256`,
  row_attachments: `SELECT * FROM ${schema}.row_attachments ORDER BY artifact_id, position`,
  attachment_reads: `SELECT * FROM ${schema}.attachment_reads ORDER BY identity, artifact_id, content_hash, copy`,
});

/** An attachment as the ingest event's envelope (v2) records it. */
export interface EnvelopeAttachment {
  sha256: string;
  name?: string;
  source_uri?: string;
  media_type: string;
  size_bytes: number;
  served_hash: string | null;
  served_size: number | null;
  stripped: string[];
  prepared: boolean | null;
  metadata_hash: string | null;
}

const flag = (v: unknown) => (v === true ? 1 : v === false ? 0 : null);

export class AttachmentReducer {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database, schema: string) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      started: p(`INSERT INTO ${schema}.uploads (writer, sha256, size_bytes, state, started_ts) VALUES (?, ?, ?, 'started', ?)
        ON CONFLICT(writer, sha256) DO UPDATE SET size_bytes = excluded.size_bytes, state = 'started',
        started_ts = excluded.started_ts, completed_ts = NULL, media_type = NULL, served_hash = NULL, served_size = NULL,
        stripped = NULL, prepared = NULL, metadata_hash = NULL, discard_reason = NULL`),
      completed: p(`UPDATE ${schema}.uploads SET state = 'completed', completed_ts = @ts, media_type = @media_type,
        served_hash = @served_hash, served_size = @served_size, stripped = @stripped, prepared = @prepared,
        metadata_hash = @metadata_hash WHERE writer = @writer AND sha256 = @sha256`),
      abandoned: p(`UPDATE ${schema}.uploads SET state = 'abandoned', discard_reason = ? WHERE writer = ? AND sha256 = ?`),
      erased: p(`UPDATE ${schema}.uploads SET state = 'abandoned', discard_reason = 'erased'
        WHERE state = 'completed' AND (sha256 IN (SELECT value FROM json_each(@objects)) OR served_hash IN (SELECT value FROM json_each(@objects)))`),
      attach: p(`INSERT INTO ${schema}.row_attachments (artifact_id, position, content_hash, name, source_uri, media_type,
        size_bytes, served_hash, served_size, stripped, prepared, metadata_hash)
        VALUES (@artifact_id, @position, @content_hash, @name, @source_uri, @media_type, @size_bytes, @served_hash,
        @served_size, @stripped, @prepared, @metadata_hash)`),
      nextPosition: p(`SELECT coalesce(max(position) + 1, 0) FROM ${schema}.row_attachments WHERE artifact_id = ?`).pluck(),
      served: p(`INSERT INTO ${schema}.attachment_reads (identity, artifact_id, content_hash, copy, next_offset, to_end)
        VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(identity, artifact_id, content_hash, copy)
        DO UPDATE SET next_offset = excluded.next_offset, to_end = max(to_end, excluded.to_end)`),
    };
  }

  apply(event: JournalEventOf<FoldedBy<'attachments'>>): void {
    switch (event.type) {
      case 'upload-started':
        this.s.started!.run(event.by, event.data.sha256, event.data.size_bytes, event.ts);
        return;
      case 'upload-completed':
        this.s.completed!.run({
          writer: event.by,
          sha256: event.data.sha256,
          ts: event.ts,
          media_type: event.data.media_type,
          served_hash: event.data.served_hash ?? null,
          served_size: event.data.served_size ?? null,
          stripped: JSON.stringify(event.data.stripped ?? []),
          prepared: flag(event.data.prepared),
          metadata_hash: event.data.metadata_hash ?? null,
        });
        return;
      case 'upload-abandoned':
        this.s.abandoned!.run(event.data.reason ?? null, event.by, event.data.sha256);
        return;
      case 'content_erased':
        // Objects an erasure removed are no upload's any more: whoever names them again uploads them again.
        this.s.erased!.run({ objects: JSON.stringify(event.data.objects_removed ?? []) });
        return;
      case 'attachment-served':
        this.s.served!.run(event.by, event.data.artifact_id, event.data.content_hash, event.data.copy, event.data.next_offset, event.data.to_end === true ? 1 : 0);
        return;
      case 'ingest':
        this.attach(event.data.artifact_id, 0, event.data.attachments as EnvelopeAttachment[] | undefined);
        return;
      case 'evidence-added':
        // Evidence its writer added after a reviewer asked (gv.add_evidence) joins the row's attachments after the envelope's.
        this.attach(event.data.artifact_id, this.s.nextPosition!.get(event.data.artifact_id) as number, event.data.attachments as EnvelopeAttachment[] | undefined);
        return;
    }
  }

  /** Records attachments of a row from position `from` on, in the order given. */
  private attach(artifactId: string, from: number, attachments: EnvelopeAttachment[] | undefined): void {
    attachments?.forEach((a, i) =>
      this.s.attach!.run({
        artifact_id: artifactId,
        position: from + i,
        content_hash: a.sha256,
        name: a.name ?? null,
        source_uri: a.source_uri ?? null,
        media_type: a.media_type,
        size_bytes: a.size_bytes,
        served_hash: a.served_hash,
        served_size: a.served_size,
        stripped: JSON.stringify(a.stripped),
        prepared: flag(a.prepared),
        metadata_hash: a.metadata_hash,
      }),
    );
  }
}

/** The attachments view: uploads, the rows they are attached to, and their reads. */
export const attachmentView = defineView({
  name: 'attachments',
  tables: attachmentTables,
  digest: attachmentDigestQueries,
  reducer: (db, schema) => new AttachmentReducer(db, schema),
  reads: {
    attachments: ({ db }) => new AttachmentReads(db),
  },
});
