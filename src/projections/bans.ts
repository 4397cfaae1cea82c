import type Database from 'better-sqlite3';
import { typesFoldedBy, type FoldedBy, type JournalEventOf } from '../journal/catalogue/catalogue.js';
import { BanReads, DAY_MS } from './ban-reads.js';
import { defineView } from './define-view.js';

/**
 * Bans (docs/protocol.md#spaces-work-areas-and-other-resources): `ban` events stand a ban or lift it; `ban-refused` events are the
 * writes a ban turned away at a door, kept as counts per writer (never the refused bytes).
 * A ban with an `until` stays in the table after that time: whether it is active is read
 * against the clock (src/access/bans.ts), so an expiry needs no event and the view stays a
 * pure fold of the journal.
 */
export function banTables(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${schema}.bans (
      kind TEXT NOT NULL,
      subject TEXT NOT NULL,
      reason TEXT,
      until INTEGER,
      by TEXT,
      seq INTEGER NOT NULL,
      ts INTEGER NOT NULL,
      event_id TEXT NOT NULL,
      PRIMARY KEY (kind, subject)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS ${schema}.ban_acts (
      seq INTEGER PRIMARY KEY,
      kind TEXT NOT NULL,
      subject TEXT NOT NULL,
      lift INTEGER NOT NULL,
      until INTEGER,
      by TEXT
    );
    CREATE TABLE IF NOT EXISTS ${schema}.ban_refusals (
      writer TEXT PRIMARY KEY,
      refused INTEGER NOT NULL,
      last_ts INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS ${schema}.ban_refusal_days (
      writer TEXT NOT NULL,
      day INTEGER NOT NULL,
      refused INTEGER NOT NULL,
      PRIMARY KEY (writer, day)
    ) WITHOUT ROWID;
  `;
}

export const banDigestQueries = (schema: string) => ({
  bans: `SELECT * FROM ${schema}.bans ORDER BY kind, subject`,
  ban_acts: `SELECT * FROM ${schema}.ban_acts ORDER BY seq`,
  ban_refusals: `SELECT * FROM ${schema}.ban_refusals ORDER BY writer`,
  ban_refusal_days: `SELECT * FROM ${schema}.ban_refusal_days ORDER BY writer, day`,
});

/** The events the bans views fold. */
export const BAN_EVENTS = typesFoldedBy('bans');

export class BanReducer {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database, schema: string) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      stand: p(`INSERT INTO ${schema}.bans (kind, subject, reason, until, by, seq, ts, event_id)
        VALUES (@kind, @subject, @reason, @until, @by, @seq, @ts, @event_id)
        ON CONFLICT(kind, subject) DO UPDATE SET reason = excluded.reason, until = excluded.until, by = excluded.by,
          seq = excluded.seq, ts = excluded.ts, event_id = excluded.event_id`),
      lift: p(`DELETE FROM ${schema}.bans WHERE kind = ? AND subject = ?`),
      act: p(`INSERT INTO ${schema}.ban_acts (seq, kind, subject, lift, until, by) VALUES (?, ?, ?, ?, ?, ?)`),
      refused: p(`INSERT INTO ${schema}.ban_refusals (writer, refused, last_ts) VALUES (?, 1, ?)
        ON CONFLICT(writer) DO UPDATE SET refused = refused + 1, last_ts = excluded.last_ts`),
      refusedOnDay: p(`INSERT INTO ${schema}.ban_refusal_days (writer, day, refused) VALUES (?, ?, 1)
        ON CONFLICT(writer, day) DO UPDATE SET refused = refused + 1`),
    };
  }

  apply(event: JournalEventOf<FoldedBy<'bans'>>): void {
    if (event.type === 'ban-refused') {
      this.s.refused!.run(event.by, event.ts);
      this.s.refusedOnDay!.run(event.by, Math.floor(event.ts / DAY_MS));
      return;
    }
    const lift = event.data.lift === true;
    const until = typeof event.data.until === 'number' ? event.data.until : null;
    this.s.act!.run(event.seq, event.data.kind, event.data.subject, lift ? 1 : 0, until, event.by);
    if (lift) {
      this.s.lift!.run(event.data.kind, event.data.subject);
      return;
    }
    this.s.stand!.run({
      kind: event.data.kind,
      subject: event.data.subject,
      reason: typeof event.data.reason === 'string' ? event.data.reason : null,
      until,
      by: event.by,
      seq: event.seq,
      ts: event.ts,
      event_id: event.event_id,
    });
  }
}

/** The bans view: standing bans, their acts, and refusals counted per writer. */
export const banView = defineView({
  name: 'bans',
  tables: banTables,
  digest: banDigestQueries,
  reducer: (db, schema) => new BanReducer(db, schema),
  reads: {
    bans: ({ db }) => new BanReads(db),
  },
});
