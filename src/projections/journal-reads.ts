import type Database from 'better-sqlite3';
import type { JournalRow } from '../forms/event.js';

/** Prepared reads of the journal table itself (the events as appended, not a view of them). */
export class JournalReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      eventIdAt: p('SELECT event_id FROM journal WHERE seq = ?').pluck(),
      crawlerExceptions: p(`SELECT * FROM journal WHERE type IN ('crawler-exception-issued', 'crawler-exception-revoked') ORDER BY seq`),
    };
  }

  eventIdAt(seq: number): string {
    return this.s.eventIdAt!.get(seq) as string;
  }

  /** Every crawler exception issued or revoked, in append order (they are few; the caller folds them). */
  crawlerExceptionEvents(): JournalRow[] {
    return this.s.crawlerExceptions!.all() as JournalRow[];
  }
}
