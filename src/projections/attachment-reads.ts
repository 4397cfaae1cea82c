import type Database from 'better-sqlite3';

export interface UploadRow {
  writer: string;
  sha256: string;
  size_bytes: number;
  state: 'started' | 'completed' | 'abandoned';
  started_ts: number;
  completed_ts: number | null;
  media_type: string | null;
  served_hash: string | null;
  served_size: number | null;
  stripped: string | null;
  prepared: number | null;
  metadata_hash: string | null;
  /** Why an abandoned upload's bytes were discarded (hash_mismatch, pixel_limit, an image worker's refusal, prepare_failed). */
  discard_reason: string | null;
}

export interface RowAttachment {
  artifact_id: string;
  position: number;
  content_hash: string;
  name: string | null;
  source_uri: string | null;
  media_type: string;
  size_bytes: number;
  served_hash: string | null;
  served_size: number | null;
  stripped: string;
  prepared: number | null;
  metadata_hash: string | null;
}

/** Prepared reads of the upload and attachment views. */
export class AttachmentReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      upload: p('SELECT * FROM uploads WHERE writer = ? AND sha256 = ?'),
      live: p(`SELECT * FROM uploads WHERE state = 'started' AND started_ts > ? ORDER BY started_ts`),
      writerWindow: p(`SELECT started_ts, size_bytes FROM uploads WHERE writer = ? AND state != 'abandoned' AND started_ts > ?
        ORDER BY started_ts`),
      stored: p(`SELECT
        (SELECT coalesce(sum(size_bytes), 0) FROM (SELECT DISTINCT sha256, size_bytes FROM uploads WHERE state = 'completed'))
        + (SELECT coalesce(sum(served_size), 0) FROM (SELECT DISTINCT served_hash, served_size FROM uploads
             WHERE state = 'completed' AND served_hash IS NOT NULL AND served_hash != sha256))
        + (SELECT coalesce(sum(size_bytes), 0) FROM uploads WHERE state = 'started' AND started_ts > ?) AS n`),
      ofRow: p('SELECT * FROM row_attachments WHERE artifact_id = ? ORDER BY position'),
      progress: p('SELECT next_offset FROM attachment_reads WHERE identity = ? AND artifact_id = ? AND content_hash = ? AND copy = ?').pluck(),
      unread: p(`SELECT a.content_hash FROM row_attachments a WHERE a.artifact_id = ? AND NOT EXISTS (
        SELECT 1 FROM attachment_reads r WHERE r.identity = ? AND r.artifact_id = a.artifact_id
        AND r.content_hash = a.content_hash AND r.to_end = 1) ORDER BY a.position`).pluck(),
    };
  }

  upload(writer: string, sha256: string): UploadRow | undefined {
    return this.s.upload!.get(writer, sha256) as UploadRow | undefined;
  }

  /** Unfinished uploads started after `since` (oldest first): the ones whose partial bytes still count. */
  liveUploads(since: number): UploadRow[] {
    return this.s.live!.all(since) as UploadRow[];
  }

  /** The writer's uploads started after `since` (oldest first): what its rolling quota counts. */
  writerWindow(writer: string, since: number): Array<{ started_ts: number; size_bytes: number }> {
    return this.s.writerWindow!.all(writer, since) as Array<{ started_ts: number; size_bytes: number }>;
  }

  /** Bytes the store holds (each object once) plus the bytes unfinished uploads started after `liveSince` may still add. */
  storedBytes(liveSince: number): number {
    return (this.s.stored!.get(liveSince) as { n: number }).n;
  }

  ofRow(artifactId: string): RowAttachment[] {
    return this.s.ofRow!.all(artifactId) as RowAttachment[];
  }

  /** The next offset an in-order read of this copy by this identity would continue from. */
  progress(identity: string, artifactId: string, contentHash: string, copy: 'served' | 'original'): number {
    return (this.s.progress!.get(identity, artifactId, contentHash, copy) as number | undefined) ?? 0;
  }

  /**
   * The attachments of a row this identity has NOT been served to their end, in order, by
   * either copy. Empty means it was served every attachment whole (or the row has none):
   * only then does its promoting or clearing signature count (docs/protocol.md#gvattachment).
   */
  unreadBy(identity: string, artifactId: string): string[] {
    return this.s.unread!.all(artifactId, identity) as string[];
  }
}
