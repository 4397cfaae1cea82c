import type Database from 'better-sqlite3';
import type { CollectionHeader, CollectionRow } from '@gate/client/forms';

export interface PublishedCollection {
  collection_id: string;
  seq: number;
  header: CollectionHeader;
  rows_blob: string;
}

interface StoredCollection {
  collection_id: string;
  seq: number;
  header: string;
  rows_blob: string;
}

/** Reads of published collections: by version or the newest, and their rows from the content store. */
export class CollectionReads {
  private readonly byVersion: Database.Statement<[string, string, number], StoredCollection>;
  private readonly newest: Database.Statement<[string, string], StoredCollection>;
  private readonly lastVersion: Database.Statement<[string, string], number | null>;
  private readonly blob: Database.Statement<[string], Buffer>;
  /** The rows of the collection read last: a reader paging through one parses its blob once. */
  private cached: { blob: string; rows: CollectionRow[] } | null = null;

  constructor(db: Database.Database) {
    const columns = 'collection_id, seq, header, rows_blob';
    this.byVersion = db.prepare(`SELECT ${columns} FROM collections WHERE space = ? AND name = ? AND version = ?`);
    this.newest = db.prepare(`SELECT ${columns} FROM collections WHERE space = ? AND name = ? ORDER BY version DESC LIMIT 1`);
    this.lastVersion = db.prepare<[string, string], number | null>('SELECT MAX(version) FROM collections WHERE space = ? AND name = ?').pluck();
    this.blob = db.prepare<[string], Buffer>('SELECT bytes FROM blobs WHERE hash = ?').pluck();
  }

  find(space: string, name: string, version?: number): PublishedCollection | null {
    const row = version === undefined ? this.newest.get(space, name) : this.byVersion.get(space, name, version);
    return row === undefined ? null : { ...row, header: JSON.parse(row.header) as CollectionHeader };
  }

  /** The next version number of a named collection. */
  nextVersion(space: string, name: string): number {
    return (this.lastVersion.get(space, name) ?? 0) + 1;
  }

  rows(collection: PublishedCollection): CollectionRow[] {
    if (this.cached?.blob !== collection.rows_blob) {
      const bytes = this.blob.get(collection.rows_blob);
      if (bytes === undefined) throw new Error(`the rows of collection ${collection.collection_id} are missing from the content store`);
      this.cached = { blob: collection.rows_blob, rows: JSON.parse(bytes.toString('utf8')) as CollectionRow[] };
    }
    return this.cached.rows;
  }
}
