import type Database from 'better-sqlite3';

/**
 * Who still names stored bytes, apart from erased rows: what an erasure may remove is
 * what no live row (and, for a reviewer-metadata blob, no upload still standing) names.
 * A masked copy that differs from its body is looked up through a partial index holding
 * only those rows (rows with findings), so ingest pays for no second full index.
 */
export class ContentReferences {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      blob: p(`SELECT EXISTS (SELECT 1 FROM artifacts WHERE content_hash = @hash AND erased_seq IS NULL)
        OR EXISTS (SELECT 1 FROM artifacts WHERE masked_hash = @hash AND masked_hash != content_hash AND erased_seq IS NULL)
        OR EXISTS (SELECT 1 FROM row_attachments r JOIN artifacts a ON a.artifact_id = r.artifact_id
          WHERE r.metadata_hash = @hash AND a.erased_seq IS NULL)
        OR EXISTS (SELECT 1 FROM uploads WHERE metadata_hash = @hash AND state = 'completed'
          AND sha256 NOT IN (SELECT value FROM json_each(@other))
          AND (served_hash IS NULL OR served_hash NOT IN (SELECT value FROM json_each(@other))))`).pluck(),
      object: p(`SELECT EXISTS (SELECT 1 FROM row_attachments r JOIN artifacts a ON a.artifact_id = r.artifact_id
        WHERE (r.content_hash = @hash OR r.served_hash = @hash) AND a.erased_seq IS NULL AND a.artifact_id != @other)`).pluck(),
      sameBytes: p(`SELECT artifact_id FROM artifacts WHERE content_hash = ? AND erased_seq IS NULL ORDER BY rowid LIMIT ?`).pluck(),
      erasedRows: p('SELECT artifact_id FROM artifacts WHERE erased_seq IS NOT NULL ORDER BY erased_seq').pluck(),
      namedObjects: p(`SELECT r.content_hash FROM row_attachments r JOIN artifacts a ON a.artifact_id = r.artifact_id WHERE a.erased_seq IS NULL
        UNION SELECT r.served_hash FROM row_attachments r JOIN artifacts a ON a.artifact_id = r.artifact_id WHERE a.erased_seq IS NULL AND r.served_hash IS NOT NULL
        UNION SELECT sha256 FROM uploads WHERE state = 'completed'
        UNION SELECT served_hash FROM uploads WHERE state = 'completed' AND served_hash IS NOT NULL`).pluck(),
    };
  }

  /** Whether a blob (a body, a masked copy, an attachment's reviewer metadata) is still named, once `objectsRemoved` are gone. */
  blobNamed(hash: string, objectsRemoved: readonly string[]): boolean {
    return this.s.blob!.get({ hash, other: JSON.stringify(objectsRemoved) }) === 1;
  }

  /** Whether an attachment object (an original or a served copy) is named by a live row other than `except`. */
  objectNamed(hash: string, except = ''): boolean {
    return this.s.object!.get({ hash, other: except }) === 1;
  }

  /** Live rows holding these very bytes (other writers or spaces): the bytes stay for them. */
  rowsWithBytes(contentHash: string, limit: number): string[] {
    return this.s.sameBytes!.all(contentHash, limit) as string[];
  }

  /** Every attachment object a live row or a completed upload names: what a backup must hold. */
  namedObjects(): string[] {
    return this.s.namedObjects!.all() as string[];
  }

  /** Every erased row, oldest erasure first (the start's sweep of attachment objects). */
  erasedRows(): string[] {
    return this.s.erasedRows!.all() as string[];
  }
}
