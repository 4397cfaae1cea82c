import type Database from 'better-sqlite3';
import type { FoldedBy, JournalEventOf } from '../journal/catalogue/catalogue.js';
import { AwayReads } from './away-reads.js';
import { defineView } from './define-view.js';

/**
 * The operator's away periods: from an `away` event until a `back` event or the declared
 * `until`, whichever comes first. A second `away` while away updates the open period.
 */
export function awayTables(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${schema}.away_periods (
      seq INTEGER PRIMARY KEY,
      since INTEGER NOT NULL,
      until INTEGER,
      note TEXT,
      by TEXT,
      back_ts INTEGER
    );
  `;
}

export const awayDigestQueries = (schema: string) => ({
  away_periods: `SELECT * FROM ${schema}.away_periods ORDER BY seq`,
});

export class AwayReducer {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database, schema: string) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      open: p(`SELECT seq FROM ${schema}.away_periods WHERE back_ts IS NULL AND (until IS NULL OR until > ?) ORDER BY seq DESC LIMIT 1`).pluck(),
      start: p(`INSERT INTO ${schema}.away_periods (seq, since, until, note, by) VALUES (?, ?, ?, ?, ?)`),
      update: p(`UPDATE ${schema}.away_periods SET until = ?, note = ? WHERE seq = ?`),
      back: p(`UPDATE ${schema}.away_periods SET back_ts = ? WHERE seq = ?`),
    };
  }

  apply(event: JournalEventOf<FoldedBy<'away'>>): void {
    const open = this.s.open!.get(event.ts) as number | undefined;
    if (event.type === 'away') {
      const until = typeof event.data.until === 'number' ? event.data.until : null;
      const note = typeof event.data.note === 'string' ? event.data.note : null;
      if (open === undefined) this.s.start!.run(event.seq, event.ts, until, note, event.by);
      else this.s.update!.run(until, note, open);
    } else if (open !== undefined) {
      this.s.back!.run(event.ts, open);
    }
  }
}

/** The away view: the operator's away periods. */
export const awayView = defineView({
  name: 'away',
  tables: awayTables,
  digest: awayDigestQueries,
  reducer: (db, schema) => new AwayReducer(db, schema),
  reads: {
    /** The operator's away periods (the human-review clocks stop while away). */
    away: ({ db }) => new AwayReads(db),
  },
});
