import type Database from 'better-sqlite3';
import type { FoldedBy, JournalEventOf } from '../journal/catalogue/catalogue.js';
import { GrantReads } from './grant-reads.js';
import { defineView } from './define-view.js';

export function grantTables(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${schema}.grants (
      principal TEXT NOT NULL,
      space TEXT NOT NULL,
      capabilities TEXT NOT NULL,
      issued_seq INTEGER NOT NULL,
      issued_ts INTEGER NOT NULL,
      PRIMARY KEY (principal, space)
    ) WITHOUT ROWID;
  `;
}

export const grantDigestQueries = (schema: string) => ({
  grants: `SELECT * FROM ${schema}.grants ORDER BY principal, space`,
});

/** Each grant event carries the capabilities held after it, so the reducer only records them. */
export class GrantReducer {
  private readonly upsert: Database.Statement;
  private readonly remove: Database.Statement;

  constructor(db: Database.Database, schema: string) {
    this.upsert = db.prepare(
      `INSERT INTO ${schema}.grants (principal, space, capabilities, issued_seq, issued_ts) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(principal, space) DO UPDATE SET capabilities = excluded.capabilities,
         issued_seq = excluded.issued_seq, issued_ts = excluded.issued_ts`,
    );
    this.remove = db.prepare(`DELETE FROM ${schema}.grants WHERE principal = ? AND space = ?`);
  }

  apply(event: JournalEventOf<FoldedBy<'grants'>>): void {
    const held = event.data.capabilities ?? [];
    if (held.length === 0) this.remove.run(event.data.principal, event.data.space);
    else this.upsert.run(event.data.principal, event.data.space, held.join(','), event.seq, event.ts);
  }
}

/** The grants view: per-space capabilities of principals. */
export const grantView = defineView({
  name: 'grants',
  tables: grantTables,
  digest: grantDigestQueries,
  reducer: (db, schema) => new GrantReducer(db, schema),
  reads: {
    /** Per-space capabilities of principals. */
    grants: ({ db }) => new GrantReads(db),
  },
});
