import type Database from 'better-sqlite3';
import type { JournalRow } from '../forms/event.js';
import { AUTHORITY_EVENTS } from '../journal/schema.js';

/** Prepared reads of the journal table itself: the events of one row, as they were appended. */
export class JournalReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      lastSeqOf: p('SELECT max(seq) FROM journal WHERE artifact_id = ?').pluck(),
      findingEvents: p(`SELECT body FROM journal WHERE artifact_id = ? AND type IN ('scan', 'record')`),
      firstFindingEvent: p(`SELECT event_id FROM journal WHERE artifact_id = ? AND type IN ('scan', 'record') ORDER BY seq LIMIT 1`),
      ingestOf: p(`SELECT * FROM journal WHERE artifact_id = ? AND type = 'ingest'`),
      countersign: p(`SELECT 1 FROM journal WHERE ${AUTHORITY_EVENTS} AND type = 'countersign' AND artifact_id = ? LIMIT 1`),
    };
  }

  /** The seq of the row's newest event (null when it has none): a revision that moves with every event on it. */
  lastSeqOf(artifactId: string): number | null {
    return this.s.lastSeqOf!.get(artifactId) as number | null;
  }

  /** The bodies of the row's scan and record events, which carry the scanner's findings. */
  findingEventBodies(artifactId: string): { body: string }[] {
    return this.s.findingEvents!.all(artifactId) as { body: string }[];
  }

  /** The event id of the row's first scan or record event, or null. */
  firstScanEventId(artifactId: string): string | null {
    const row = this.s.firstFindingEvent!.get(artifactId) as { event_id: string } | undefined;
    return row?.event_id ?? null;
  }

  /** The row's ingest event as journaled. */
  ingestOf(artifactId: string): JournalRow | undefined {
    return this.s.ingestOf!.get(artifactId) as JournalRow | undefined;
  }

  /** Whether the organization gate's countersign of the row was journaled. */
  hasCountersign(artifactId: string): boolean {
    return this.s.countersign!.get(artifactId) !== undefined;
  }
}
