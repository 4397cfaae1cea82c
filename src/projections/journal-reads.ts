import type Database from 'better-sqlite3';
import type { JournalRow } from '../forms/event.js';
import { AUTHORITY_EVENTS, laterArtifactEvent } from '../journal/schema.js';
import { verifyChain, type ChainReport } from '../journal/verify-chain.js';

/** A journaled event exactly as signed: its canonical body and the deployment's signature. */
export type SignedEventRow = Pick<JournalRow, 'event_id' | 'body' | 'sig'>;

/** Journal events that sign a row toward serving it: a promotion, a person's signature, a group's preparation. */
const SIGNING_EVENTS = ['promote', 'manual-sign', 'ratify', 'replacement-prepared'] as const;

/**
 * `SELECT columns FROM journal` over every event of one artifact (the statement's first
 * parameter), then `rest` (more terms, an order, a limit). The journal's artifact index
 * leaves out an ingest's two events (laterArtifactEvent); the artifacts view keeps their
 * seqs, so they are taken from there beside the index's.
 */
export function artifactEventsSql(columns: string, rest = ''): string {
  return `WITH wanted(id) AS (VALUES (?))
    SELECT ${columns} FROM journal WHERE seq IN (
      SELECT seq FROM journal WHERE artifact_id = (SELECT id FROM wanted) AND ${laterArtifactEvent()}
      UNION ALL SELECT a.ingest_seq FROM artifacts a, wanted WHERE a.artifact_id = wanted.id
      UNION ALL SELECT a.scan_seq FROM artifacts a, wanted WHERE a.artifact_id = wanted.id)
    ${rest}`;
}

/** Which served events a page of gv.events holds, beyond its position. */
export interface EventsFilter {
  types?: string[];
  space?: string;
  workarea?: string;
  /** Only these types can be served at all: the rest never leave SQLite. */
  served: readonly string[];
  /**
   * Below reviewer: what the caller could possibly be served, a necessary condition the
   * caller's own check (event-visibility.ts) then decides exactly. Types shown to anyone or
   * decided by their group, and for a row's events: its writer, or promoted at or before the
   * event in a space the caller reads.
   */
  reader?: { identity: string; spaces: readonly string[]; shownTypes: readonly string[] };
}

/** Prepared reads of the journal table itself, for what no view keeps. */
export class JournalReads {
  private readonly s: Record<string, Database.Statement>;
  /** For the reads made per call (gv.events' pages: a type list of the caller's length) and the chain's verification. */
  private readonly db: Database.Database;

  constructor(db: Database.Database) {
    this.db = db;
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      eventIdAt: p('SELECT event_id FROM journal WHERE seq = ?').pluck(),
      crawlerExceptions: p(`SELECT * FROM journal WHERE type IN ('crawler-exception-issued', 'crawler-exception-revoked') ORDER BY seq`),
      newestScan: p(artifactEventsSql('seq, body', `AND type IN ('scan', 'record') ORDER BY seq DESC LIMIT 1`)),
      // A ratify that sent the row back for evidence (enters NEEDS_EVIDENCE) promotes nothing.
      promotions: p(`SELECT event_id, body, sig FROM journal WHERE artifact_id = ? AND ${laterArtifactEvent()} AND type IN ('promote', 'ratify')
        AND coalesce(json_extract(body, '$.data.enters'), '') != 'NEEDS_EVIDENCE' ORDER BY seq`),
      orgPinned: p(`SELECT body FROM journal WHERE ${AUTHORITY_EVENTS} AND type = 'org-pinned' ORDER BY seq LIMIT 1`).pluck(),
      outcomeCursor: p(`SELECT max(json_extract(body, '$.data.org_seq')) FROM journal WHERE ${AUTHORITY_EVENTS} AND type IN ('countersign', 'refuse')`).pluck(),
      outcomeSeen: p(
        `SELECT 1 FROM journal WHERE ${AUTHORITY_EVENTS} AND type IN ('countersign', 'refuse') AND artifact_id = ? AND json_extract(body, '$.data.org_deployment_id') = ? LIMIT 1`,
      ),
      signedByOthers: p(
        `SELECT DISTINCT j.artifact_id AS id FROM journal j JOIN artifacts a ON a.artifact_id = j.artifact_id
         WHERE j.artifact_id IN (SELECT value FROM json_each(?)) AND j.type IN (${SIGNING_EVENTS.map(() => '?').join(',')})
         AND ${laterArtifactEvent('j')} AND j.by IS NOT NULL AND j.by <> a.writer_identity`,
      ),
      lastSeqOf: p(artifactEventsSql('max(seq)')).pluck(),
      findingEvents: p(artifactEventsSql('body', `AND type IN ('scan', 'record')`)),
      firstFindingEvent: p(artifactEventsSql('event_id', `AND type IN ('scan', 'record') ORDER BY seq LIMIT 1`)),
      countersign: p(`SELECT 1 FROM journal WHERE ${AUTHORITY_EVENTS} AND type = 'countersign' AND artifact_id = ? LIMIT 1`),
      eventsOf: p(artifactEventsSql('*', 'ORDER BY seq')),
      evidenceEvents: p(`SELECT * FROM journal WHERE artifact_id = ? AND ${laterArtifactEvent()} AND type IN ('ratify', 'evidence-added') ORDER BY seq`),
      eventsOfNewestFirst: p(artifactEventsSql('*', 'ORDER BY seq DESC')),
      firstIngestOf: p(artifactEventsSql('*', `AND type = 'ingest' ORDER BY seq LIMIT 1`)),
      stampAt: p('SELECT event_id, ts FROM journal WHERE seq = ?'),
      signedAt: p('SELECT event_id, body, sig FROM journal WHERE seq = ?'),
      byId: p('SELECT * FROM journal WHERE substr(event_id, 1, 8) = substr(?, 1, 8) AND event_id = ?'),
    };
  }

  /** The newest scan or record event of a row (its standing findings), as journaled. */
  newestScan(artifactId: string): { seq: number; body: string } | undefined {
    return this.s.newestScan!.get(artifactId) as { seq: number; body: string } | undefined;
  }

  /** A row's promote (or ratify into L3_RATIFIED) events, oldest first. */
  promotionsOf(artifactId: string): SignedEventRow[] {
    return this.s.promotions!.all(artifactId) as SignedEventRow[];
  }

  /** The body of the first org-pinned event: the organization key the gate met first. */
  orgPinnedBody(): string | undefined {
    return this.s.orgPinned!.get() as string | undefined;
  }

  /** The highest org seq an outcome (countersign or refuse) was journaled under. */
  outcomeCursor(): number | null {
    return this.s.outcomeCursor!.get() as number | null;
  }

  /** Whether an outcome of this org on this row is journaled already. */
  hasOutcome(artifactId: string, org: string): boolean {
    return this.s.outcomeSeen!.get(artifactId, org) !== undefined;
  }

  /** Of these rows, those an identity other than their writer signed toward serving (the deployment's own events aside). */
  signedByOthers(artifactIds: readonly string[]): string[] {
    return (this.s.signedByOthers!.all(JSON.stringify(artifactIds), ...SIGNING_EVENTS) as { id: string }[]).map((r) => r.id);
  }

  eventIdAt(seq: number): string {
    return this.s.eventIdAt!.get(seq) as string;
  }

  /** Every crawler exception issued or revoked, in append order (they are few; the caller folds them). */
  crawlerExceptionEvents(): JournalRow[] {
    return this.s.crawlerExceptions!.all() as JournalRow[];
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

  /** Whether the organization gate's countersign of the row was journaled. */
  hasCountersign(artifactId: string): boolean {
    return this.s.countersign!.get(artifactId) !== undefined;
  }

  /** Every event about a row, in append order. */
  eventsOf(artifactId: string): JournalRow[] {
    return this.s.eventsOf!.all(artifactId) as JournalRow[];
  }

  /** A row's ratify and evidence-added events, in append order: its requests for evidence and what answered them. */
  evidenceEventsOf(artifactId: string): JournalRow[] {
    return this.s.evidenceEvents!.all(artifactId) as JournalRow[];
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
   * digits only. Keeping it up costs an append less than half what a unique index on the whole
   * id did (measured at 200,000 events, 20 claims of two events a transaction: ~13 µs a claim
   * against ~31). A journal made before keeps its unique index, which serves this read too.
   */
  byId(eventId: string): JournalRow | undefined {
    return this.s.byId!.get(eventId, eventId) as JournalRow | undefined;
  }

  /**
   * gv.events' pages: the events past a position in one direction that pass the filter, at most
   * `limit` a read. Prepared once a call (the type list varies in length), then read chunk by chunk.
   */
  /**
   * A page reader: rows after (or, backward, before) `after` and within `window` seqs of it,
   * at most `limit`. A window bounds each statement's work however few rows it keeps.
   */
  pages(forward: boolean, filter: EventsFilter): (after: number, window: number, limit: number) => JournalRow[] {
    const filters: string[] = [];
    const args: unknown[] = [];
    const list = (n: number) => Array.from({ length: n }, () => '?').join(',');
    filters.push(`type IN (${list(filter.served.length)})`, 'space IS NOT NULL');
    args.push(...filter.served);
    if (filter.reader !== undefined) {
      const r = filter.reader;
      filters.push(`(type IN (${list(r.shownTypes.length)})
        OR EXISTS (SELECT 1 FROM artifacts a WHERE a.artifact_id = journal.artifact_id
          AND (a.writer_identity = ? OR (a.promoted_seq IS NOT NULL AND journal.seq >= a.promoted_seq AND a.space IN (${list(r.spaces.length) || "''"})))))`);
      args.push(...r.shownTypes, r.identity, ...r.spaces);
    }
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
      `SELECT * FROM journal WHERE ${forward ? 'seq > ? AND seq <= ?' : 'seq < ? AND seq >= ?'} ${filters.map((f) => `AND ${f}`).join(' ')}
       ORDER BY seq ${forward ? 'ASC' : 'DESC'} LIMIT ?`,
    );
    return (after, window, limit) => page.all(after, forward ? after + window : after - window, ...args, limit) as JournalRow[];
  }

  /** The whole chain walked and checked against the deployment key (`gate verify`, gv.audit_chain). */
  verifiedChain(deploymentId: string): ChainReport {
    return verifyChain(this.db, deploymentId);
  }
}
