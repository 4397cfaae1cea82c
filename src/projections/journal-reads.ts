import type Database from 'better-sqlite3';
import type { JournalRow } from '../forms/event.js';
import { verifyChain, type ChainReport } from '../journal/verify-chain.js';

/** Which served events a page of gv.events holds, beyond its position. */
export interface EventsFilter {
  types?: string[];
  space?: string;
  workarea?: string;
}

/** Prepared reads of the journal table itself: a row's events, one event by seq or id, pages of events. */
export class JournalReads {
  private readonly db: Database.Database;
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    this.db = db;
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      eventsOf: p('SELECT * FROM journal WHERE artifact_id = ? ORDER BY seq'),
      eventsOfNewestFirst: p('SELECT * FROM journal WHERE artifact_id = ? ORDER BY seq DESC'),
      firstIngestOf: p(`SELECT * FROM journal WHERE artifact_id = ? AND type = 'ingest' ORDER BY seq LIMIT 1`),
      stampAt: p('SELECT event_id, ts FROM journal WHERE seq = ?'),
      signedAt: p('SELECT event_id, body, sig FROM journal WHERE seq = ?'),
      byId: p('SELECT * FROM journal WHERE substr(event_id, 1, 8) = substr(?, 1, 8) AND event_id = ?'),
    };
  }

  /** Every event about a row, in append order. */
  eventsOf(artifactId: string): JournalRow[] {
    return this.s.eventsOf!.all(artifactId) as JournalRow[];
  }

  /** Every event about a row, the newest first. */
  eventsOfNewestFirst(artifactId: string): JournalRow[] {
    return this.s.eventsOfNewestFirst!.all(artifactId) as JournalRow[];
  }

  /** A row's ingest event (the one place a bundle's or a map's member records its path). */
  firstIngestOf(artifactId: string): JournalRow | undefined {
    return this.s.firstIngestOf!.get(artifactId) as JournalRow | undefined;
  }

  /** Which event sits at this seq, and when it was appended. */
  stampAt(seq: number): { event_id: string; ts: number } {
    return this.s.stampAt!.get(seq) as { event_id: string; ts: number };
  }

  /** The event at this seq as it was signed: its id, canonical body and signature. */
  signedAt(seq: number): Pick<JournalRow, 'event_id' | 'body' | 'sig'> {
    return this.s.signedAt!.get(seq) as Pick<JournalRow, 'event_id' | 'body' | 'sig'>;
  }

  /**
   * An event by its id. Event ids are sha256 of bodies that carry their own seq, so they are
   * unique by construction: the index behind this read keys each event by its id's first 8 hex
   * digits only (src/journal/schema.ts).
   */
  byId(eventId: string): JournalRow | undefined {
    return this.s.byId!.get(eventId, eventId) as JournalRow | undefined;
  }

  /**
   * gv.events' pages: the events past a position in one direction that pass the filter, at most
   * `limit` a read. Prepared once a call (the type list varies in length), then read chunk by chunk.
   */
  pages(forward: boolean, filter: EventsFilter): (after: number, limit: number) => JournalRow[] {
    const filters: string[] = [];
    const args: unknown[] = [];
    if (filter.types) {
      filters.push(`type IN (${filter.types.map(() => '?').join(',')})`);
      args.push(...filter.types);
    }
    if (filter.space !== undefined) {
      filters.push('space = ?');
      args.push(filter.space);
    }
    if (filter.workarea !== undefined) {
      filters.push('workarea = ?');
      args.push(filter.workarea);
    }
    const page = this.db.prepare(
      `SELECT * FROM journal WHERE ${forward ? 'seq > ?' : 'seq < ?'} ${filters.map((f) => `AND ${f}`).join(' ')}
       ORDER BY seq ${forward ? 'ASC' : 'DESC'} LIMIT ?`,
    );
    return (after, limit) => page.all(after, ...args, limit) as JournalRow[];
  }

  /** The whole chain walked and checked against the deployment key (`gate verify`, gv.audit_chain). */
  verifiedChain(deploymentId: string): ChainReport {
    return verifyChain(this.db, deploymentId);
  }
}
