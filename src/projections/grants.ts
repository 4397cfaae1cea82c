import type Database from 'better-sqlite3';
import type { JournalEvent } from '../forms/event.js';

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
  readonly handles = ['space-grant-issued', 'space-grant-revoked'];

  constructor(db: Database.Database, schema: string) {
    this.upsert = db.prepare(
      `INSERT INTO ${schema}.grants (principal, space, capabilities, issued_seq, issued_ts) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(principal, space) DO UPDATE SET capabilities = excluded.capabilities,
         issued_seq = excluded.issued_seq, issued_ts = excluded.issued_ts`,
    );
    this.remove = db.prepare(`DELETE FROM ${schema}.grants WHERE principal = ? AND space = ?`);
  }

  apply(event: JournalEvent): void {
    const d = event.data;
    const held = (d['capabilities'] as string[]) ?? [];
    if (held.length === 0) this.remove.run(d['principal'], d['space']);
    else this.upsert.run(d['principal'], d['space'], held.join(','), event.seq, event.ts);
  }
}
