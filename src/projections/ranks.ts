import type Database from 'better-sqlite3';
import type { FoldedBy, JournalEventOf } from '../journal/catalogue/catalogue.js';
import { RankReads } from './rank-reads.js';
import { defineView } from './define-view.js';

/** Standing weights callers gave rows for an audience: one per row, audience and identity; the latest wins. */
export function rankTables(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${schema}.ranks (
      artifact_id TEXT NOT NULL,
      audience TEXT NOT NULL,
      by TEXT NOT NULL,
      weight INTEGER NOT NULL,
      seq INTEGER NOT NULL,
      PRIMARY KEY (artifact_id, audience, by)
    ) WITHOUT ROWID;
  `;
}

export const rankDigestQueries = (schema: string) => ({
  ranks: `SELECT * FROM ${schema}.ranks ORDER BY artifact_id, audience, by`,
});

export class RankReducer {
  private readonly upsert: Database.Statement;
  private readonly clear: Database.Statement;

  constructor(db: Database.Database, schema: string) {
    this.upsert = db.prepare(`INSERT INTO ${schema}.ranks (artifact_id, audience, by, weight, seq) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT(artifact_id, audience, by) DO UPDATE SET weight = excluded.weight, seq = excluded.seq`);
    this.clear = db.prepare(`DELETE FROM ${schema}.ranks WHERE artifact_id = ? AND audience = ? AND by = ?`);
  }

  apply(event: JournalEventOf<FoldedBy<'ranks'>>): void {
    if (event.data.weight === 0) this.clear.run(event.data.artifact_id, event.data.audience, event.by);
    else this.upsert.run(event.data.artifact_id, event.data.audience, event.by, event.data.weight, event.seq);
  }
}

/** The ranks view: standing weights callers gave rows for an audience. */
export const rankView = defineView({
  name: 'ranks',
  tables: rankTables,
  digest: rankDigestQueries,
  reducer: (db, schema) => new RankReducer(db, schema),
  reads: {
    ranks: ({ db }) => new RankReads(db),
  },
});
