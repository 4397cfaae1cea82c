import type Database from 'better-sqlite3';
import type { FoldedBy, JournalEventOf } from '../journal/catalogue/catalogue.js';
import { COLLECTION_EVENT } from '@gate/client/forms';
import { canonicalJson } from '../forms/canonical-json.js';
import { CollectionReads } from './collection-reads.js';
import { defineView } from './define-view.js';

/**
 * Published collections (gv.publish): one row per version of a named collection of a space,
 * its signed header as journaled and the blob holding its rows.
 */
export function collectionTables(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${schema}.collections (
      space TEXT NOT NULL,
      name TEXT NOT NULL,
      version INTEGER NOT NULL,
      collection_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      header TEXT NOT NULL,
      rows_blob TEXT NOT NULL,
      PRIMARY KEY (space, name, version)
    ) WITHOUT ROWID;
  `;
}

export const collectionDigestQueries = (schema: string) => ({
  collections: `SELECT * FROM ${schema}.collections ORDER BY space, name, version`,
});

export class CollectionReducer {
  private readonly insert: Database.Statement;

  constructor(db: Database.Database, schema: string) {
    this.insert = db.prepare(
      `INSERT INTO ${schema}.collections (space, name, version, collection_id, seq, header, rows_blob) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  apply(event: JournalEventOf<FoldedBy<'collections'>>): void {
    const header = event.data.header;
    // Canonical, not JSON.stringify: live, the header is the object as built; replayed, as parsed from the signed body.
    this.insert.run(event.data.space, header.name, header.version, event.data.collection_id, event.seq, canonicalJson(header), event.data.rows_blob);
  }
}

/** The collections view: published collections. */
export const collectionView = defineView({
  name: 'collections',
  tables: collectionTables,
  digest: collectionDigestQueries,
  reducer: (db, schema) => new CollectionReducer(db, schema),
  reads: {
    /** Published collections (gv.publish, gv.collection). */
    collections: ({ db }) => new CollectionReads(db),
  },
});
