import type Database from 'better-sqlite3';
import { bodyText } from './body-text.js';
import type { ViewChanges } from '../journal/view-changes.js';
import { HELD_STATES, PROMOTED_STATES, QUARANTINE_STATES } from '../domain/states.js';
import { CREW_SHEET_KIND } from '../domain/crew-sheet.js';
import { AUTHORITY_EVENTS, laterArtifactEvent } from '../journal/schema.js';
import { artifactEventsSql } from './journal-reads.js';
import type { CollectionRow } from '@gate/client/forms';
import type { FindingLocation } from '../../workers/scan/finding-location.js';
import { inWindow, WALKED, windowArgs, type RowidWindow } from './rowid-window.js';
import { findingMarks, type FindingMark } from './finding-marks.js';

export interface ScanFinding {
  kind: string;
  severity: string;
  detail: string;
  start: number;
  end: number;
  excerpt: string;
  /** Outside the body: a field of the row, an attachment's text or an attachment's field (finding-location.ts). */
  location?: FindingLocation;
}

/**
 * A finding as it is served: what was found and where (UTF-16 offsets into the body, which
 * masking keeps, or, with a location, into that field's or attachment's text).
 */
export type PlacedFinding = Omit<ScanFinding, 'excerpt'>;

/** A row of the artifacts view as verbs read it. */
export interface ArtifactRow {
  rowid: number;
  artifact_id: string;
  state: string;
  space: string;
  workarea: string | null;
  producer_name: string | null;
  producer_kind: string | null;
  kind: string | null;
  content_type: string;
  trust_class: string;
  writer_identity: string;
  writer_kind: string;
  source_uri: string;
  content_hash: string;
  size_bytes: number;
  derives_from: string;
  addressed_to: string | null;
  findings_count: number;
  masked_hash: string | null;
  ts: number;
  ingest_seq: number;
  /** The scan (or record) that took the row out of L0_RAW; null while it is there. */
  scan_seq: number | null;
  state_ts: number;
  state_seq: number;
  promoted_seq: number | null;
  promoted_ts: number | null;
  provisional: number;
  reason: string | null;
  /** The seq of the row's content_erased event: its bytes are gone, its metadata stays. */
  erased_seq: number | null;
}

/** A row with its exact body (a reviewer's check reads what was written, not its masked copy). */
export type RowWithBody = ArtifactRow & { body: Buffer | null };

/** Rows in review past L0_RAW: a scan of theirs by an older scanner is owed again. */
const REVIEW_STATES = [...QUARANTINE_STATES].filter((s) => s !== 'L0_RAW');

export const producerOf = (row: ArtifactRow) =>
  row.producer_name === null ? null : { name: row.producer_name, kind: row.producer_kind };

export const derivesFromOf = (row: ArtifactRow): string[] => JSON.parse(row.derives_from) as string[];

/** Rows of one source_uri in one state (a source ban's dry run). */
export interface SourceStateCount {
  source_uri: string;
  state: string;
  n: number;
}

const promotedStates = [...PROMOTED_STATES];
const heldStates = [...HELD_STATES];
/** Rows waiting for review (gv.work). */
const waitingStates = [...QUARANTINE_STATES];
const marks = (n: number) => Array.from({ length: n }, () => '?').join(',');
/** Narrows a read of one writer's rows to one space (its argument comes last before the limit). */
const inSpace = ' AND space = ?';

/** A WHERE clause a caller builds (C6's visible rows, access/visible-rows.ts) with its arguments. */
export interface RowsClause {
  sql: string;
  args: unknown[];
}

/** gv.inventory's filters beyond visibility: each given one narrows (an empty list selects nothing). */
export interface InventoryFilter {
  states?: string[];
  spaces?: string[];
  q?: string;
}

/** A space's ACTIVE row as a published collection lists it, `provisional` still the stored 0 or 1. */
export type StoredCollectionRow = Omit<CollectionRow, 'provisional'> & { provisional: number };

/** Prepared reads of the live artifacts view and the content store. */
export class ArtifactReads {
  private readonly s: Record<string, Database.Statement>;

  /** Held rows, read again only once an event is applied: every ingest asks it (quarantine.max_depth). */
  readonly countHeld: () => number;

  /** For the statements made per call: a clause the caller builds (gv.inventory, gv.pending, gv.spaces), an IN list of the caller's length. */
  private readonly db: Database.Database;

  constructor(db: Database.Database, changes: ViewChanges) {
    this.db = db;
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      byId: p('SELECT * FROM artifacts WHERE artifact_id = ?'),
      byRowid: p('SELECT * FROM artifacts WHERE rowid = ?'),
      lastRowid: p('SELECT coalesce(max(rowid), 0) FROM artifacts').pluck(),
      inStateAfter: p('SELECT * FROM artifacts WHERE state = ? AND rowid > ? ORDER BY rowid LIMIT ?'),
      writerInStateAfter: p('SELECT * FROM artifacts WHERE writer_identity = ? AND state = ? AND rowid > ? ORDER BY rowid LIMIT ?'),
      promotedCopy: p(
        `SELECT * FROM artifacts WHERE content_hash = ? AND space = ? AND state IN ('ACTIVE', 'SUPERSEDED') AND erased_seq IS NULL ORDER BY rowid LIMIT 1`,
      ),
      blob: p('SELECT bytes FROM blobs WHERE hash = ?'),
      stateCount: p('SELECT n FROM state_counts WHERE state = ?'),
      scanEvent: p(artifactEventsSql('body', `AND type = 'scan' ORDER BY seq DESC LIMIT 1`)).pluck(),
      questionsInArea: p(
        `SELECT count(*) AS n FROM artifacts WHERE writer_identity = ? AND space = ? AND workarea = ? AND kind = 'question'`,
      ),
      promotedBy: p(`SELECT count(*) FROM artifacts WHERE writer_identity = ? AND state IN (${marks(promotedStates.length)})`).pluck(),
      heldBy: p(`SELECT count(*) FROM artifacts WHERE writer_identity = ? AND state IN (${marks(heldStates.length)})`).pluck(),
      lastWriteBy: p('SELECT max(ts) FROM artifacts WHERE writer_identity = ?').pluck(),
      sourceStates: p('SELECT source_uri, state, count(*) AS n FROM artifacts GROUP BY source_uri, state ORDER BY source_uri'),
      waitingBy: p(`SELECT * FROM artifacts WHERE writer_identity = ? AND state IN (${marks(waitingStates.length)}) ORDER BY ts, rowid LIMIT ?`),
      waitingByInSpace: p(`SELECT * FROM artifacts WHERE writer_identity = ? AND state IN (${marks(waitingStates.length)})${inSpace} ORDER BY ts, rowid LIMIT ?`),
      questionsBy: p(`SELECT * FROM artifacts WHERE writer_identity = ? AND kind = 'question' ORDER BY ts, rowid LIMIT ?`),
      questionsByInSpace: p(`SELECT * FROM artifacts WHERE writer_identity = ? AND kind = 'question'${inSpace} ORDER BY ts, rowid LIMIT ?`),
      statesOf: p(`SELECT artifact_id, state FROM artifacts WHERE artifact_id IN (SELECT value FROM json_each(?))`),
      withBodies: p(`SELECT a.*, b.bytes AS body FROM artifacts a LEFT JOIN blobs b ON b.hash = a.content_hash WHERE a.rowid IN (SELECT value FROM json_each(?))`),
      rawAfter: p(`SELECT * FROM artifacts WHERE state = 'L0_RAW' AND rowid > ? ORDER BY rowid LIMIT ?`),
      outdatedScans: p(
        `SELECT a.* FROM artifacts a WHERE a.rowid > ? AND a.state IN (${REVIEW_STATES.map(() => '?').join(',')})
       AND a.content_type != 'skill_archive'
       AND (SELECT json_extract(j.body, '$.data.scanner') FROM journal j WHERE j.seq = coalesce(
            (SELECT max(l.seq) FROM journal l WHERE l.artifact_id = a.artifact_id AND ${laterArtifactEvent('l')} AND l.type IN ('scan', 'record')),
            a.scan_seq)) IS NOT ?
     ORDER BY a.rowid LIMIT ?`,
      ),
      // The promoted rows a background pass owes a scan: the newest scan, record or check names another scanner.
      outdatedPromoted: p(
        `SELECT a.* FROM artifacts a WHERE a.rowid > ? AND a.state = 'ACTIVE' AND a.erased_seq IS NULL
       AND a.content_type != 'skill_archive'
       AND (SELECT json_extract(j.body, '$.data.scanner') FROM journal j WHERE j.seq = coalesce(
            (SELECT max(l.seq) FROM journal l WHERE l.artifact_id = a.artifact_id AND ${laterArtifactEvent('l')} AND l.type IN ('scan', 'record', 'scan-checked')),
            a.scan_seq)) IS NOT ?
     ORDER BY a.rowid LIMIT ?`,
      ),
      // A crew sheet is a prompt template whose body is crew_sheet/1 (src/domain/crew-sheet.ts); the newest promoted first.
      activeCrewSheets: p(`SELECT * FROM artifacts WHERE space = ? AND kind = '${CREW_SHEET_KIND}' AND state = 'ACTIVE' ORDER BY promoted_seq DESC`),
      bundleManifest: p(`SELECT artifact_id, content_hash, masked_hash, erased_seq FROM artifacts WHERE derives_from = ? AND content_type = 'bundle_manifest'`),
      activeCount: p("SELECT count(*) AS n FROM artifacts WHERE space = ? AND state = 'ACTIVE'"),
      activeSnapshot: p(
        `SELECT artifact_id, content_hash, size_bytes, content_type, trust_class, provisional FROM artifacts
       WHERE space = ? AND state = 'ACTIVE' ORDER BY artifact_id`,
      ),
    };
    // Held rows (L0, L1, L1B): one read where every ingest made three.
    const heldCount = p(`SELECT coalesce(sum(n), 0) FROM state_counts WHERE state IN ('L0_RAW', 'L1_SCANNED', 'L1B_FLAGGED')`).pluck();
    this.countHeld = changes.memo('all', () => heldCount.get() as number);
  }

  byId(id: string): ArtifactRow | undefined {
    return this.s.byId!.get(id) as ArtifactRow | undefined;
  }

  byRowid(rowid: number): ArtifactRow | undefined {
    return this.s.byRowid!.get(rowid) as ArtifactRow | undefined;
  }

  promotedCopy(contentHash: string, space: string): ArtifactRow | undefined {
    return this.s.promotedCopy!.get(contentHash, space) as ArtifactRow | undefined;
  }

  body(contentHash: string): string | null {
    return this.bodyBytes(contentHash)?.toString('utf8') ?? null;
  }

  /**
   * The bytes a read serves of a row: its content, or its masked form (what reviewers and graders
   * see; the content itself when nothing was masked). Null once the row's content was erased,
   * even while another row still holds the same bytes: blobs are shared by hash, so every read
   * of a row's words asks here rather than by hash.
   */
  servedBytes(row: Pick<ArtifactRow, 'content_hash' | 'masked_hash' | 'erased_seq'>, form: 'content' | 'masked' = 'content'): Buffer | null {
    if (row.erased_seq !== null) return null;
    return this.bodyBytes(form === 'masked' ? (row.masked_hash ?? row.content_hash) : row.content_hash);
  }

  /** servedBytes as text. */
  servedBody(row: Pick<ArtifactRow, 'content_hash' | 'masked_hash' | 'erased_seq'>, form: 'content' | 'masked' = 'content'): string | null {
    return this.servedBytes(row, form)?.toString('utf8') ?? null;
  }

  /** The stored bytes exactly (a submission carries them byte for byte against content_hash). */
  bodyBytes(contentHash: string): Buffer | null {
    const row = this.s.blob!.get(contentHash) as { bytes: Buffer } | undefined;
    return row ? row.bytes : null;
  }

  /** The bytes as text, or null when they are missing or not UTF-8 text without NUL. */
  text(contentHash: string): string | null {
    const row = this.s.blob!.get(contentHash) as { bytes: Buffer } | undefined;
    return row ? bodyText(row.bytes) : null;
  }

  countInState(state: string): number {
    return (this.s.stateCount!.get(state) as { n: number } | undefined)?.n ?? 0;
  }

  /** The scanner's findings on a row, as its scan event recorded them (kept inside the gate). */
  /** The findings and where they are, without the matched text: what may leave the gate (the excerpt stays inside). */
  placedFindings(artifactId: string): PlacedFinding[] {
    return this.findings(artifactId).map(({ kind, severity, detail, start, end, location }) => ({ kind, severity, detail, start, end, ...(location === undefined ? {} : { location }) }));
  }

  /**
   * The kinds and severities the scanner found in a row (its newest scan), the most severe
   * first; empty when it found nothing. Every read that serves a row's words says them.
   */
  findingMarks(row: Pick<ArtifactRow, 'artifact_id' | 'findings_count'>): FindingMark[] {
    return row.findings_count === 0 ? [] : findingMarks(this.findings(row.artifact_id));
  }

  findings(artifactId: string): ScanFinding[] {
    const body = this.s.scanEvent!.get(artifactId) as string | undefined;
    if (body === undefined) return [];
    const findings = (JSON.parse(body) as { data: { findings?: ScanFinding[] } }).data.findings;
    return Array.isArray(findings) ? findings : [];
  }

  questionsBy(writer: string, space: string, workarea: string): number {
    return (this.s.questionsInArea!.get(writer, space, workarea) as { n: number }).n;
  }

  /** The writer's rows in a promoted state, over every space. */
  promotedRowsBy(writer: string): number {
    return this.s.promotedBy!.get(writer, ...promotedStates) as number;
  }

  /** The writer's rows still held (L0, L1, L1B), over every space. */
  heldRowsBy(writer: string): number {
    return this.s.heldBy!.get(writer, ...heldStates) as number;
  }

  /** When the writer last wrote a row, or null when it never did. */
  lastWriteBy(writer: string): number | null {
    return this.s.lastWriteBy!.get(writer) as number | null;
  }

  /** Rows by source_uri and state, by source_uri; iterated, as there is an entry for every source and state. */
  rowsBySourceAndState(): IterableIterator<SourceStateCount> {
    return this.s.sourceStates!.iterate() as IterableIterator<SourceStateCount>;
  }

  /** The writer's rows waiting for review, in one space or all, oldest first, at most `limit`. */
  waitingBy(writer: string, space: string | undefined, limit: number): ArtifactRow[] {
    if (space === undefined) return this.s.waitingBy!.all(writer, ...waitingStates, limit) as ArtifactRow[];
    return this.s.waitingByInSpace!.all(writer, ...waitingStates, space, limit) as ArtifactRow[];
  }

  /** The questions the writer asked, in one space or all, oldest first, at most `limit`. */
  questionsAskedBy(writer: string, space: string | undefined, limit: number): ArtifactRow[] {
    if (space === undefined) return this.s.questionsBy!.all(writer, limit) as ArtifactRow[];
    return this.s.questionsByInSpace!.all(writer, space, limit) as ArtifactRow[];
  }

  /** Rows per space under a caller's visibility clause (visibleRowsClause); prepared per call, as the clause is the caller's. */
  visibleCountsBySpace(visible: { sql: string; args: unknown[] }): { space: string; n: number }[] {
    return this.db.prepare(`SELECT space, count(*) AS n FROM artifacts WHERE ${visible.sql} GROUP BY space`).all(...visible.args) as {
      space: string;
      n: number;
    }[];
  }

  /** The state of each of these rows that exists, in no particular order. */
  statesOf(ids: readonly string[]): { artifact_id: string; state: string }[] {
    return this.s.statesOf!.all(JSON.stringify(ids)) as { artifact_id: string; state: string }[];
  }

  /** Rowids of the newest promotions (ACTIVE, SUPERSEDED, not erased) in these spaces, newest first, at most `limit`. */
  newestPromotedRowids(spaces: readonly string[], limit: number): number[] {
    return this.db
      .prepare(
        `SELECT rowid FROM artifacts WHERE state IN ('ACTIVE', 'SUPERSEDED') AND erased_seq IS NULL AND space IN (${spaces.map(() => '?').join(',')})
       ORDER BY promoted_seq DESC LIMIT ?`,
      )
      .pluck()
      .all(...spaces, limit) as number[];
  }

  /** These rows with their bodies, in no particular order. */
  withBodies(rowids: readonly number[]): RowWithBody[] {
    return this.s.withBodies!.all(JSON.stringify(rowids)) as RowWithBody[];
  }

  /** Rows left in L0_RAW after this rowid, in rowid order, at most `limit`. */
  rawAfter(rowid: number, limit: number): ArtifactRow[] {
    return this.s.rawAfter!.all(rowid, limit) as ArtifactRow[];
  }

  /**
   * Rows in review after this rowid (archives aside) whose newest scan or record event names
   * another scanner than `scanner`, or none, in rowid order, at most `limit`.
   */
  outdatedScans(rowid: number, scanner: string, limit: number): ArtifactRow[] {
    return this.s.outdatedScans!.all(rowid, ...REVIEW_STATES, scanner, limit) as ArtifactRow[];
  }

  /**
   * ACTIVE rows after this rowid (archives and erased rows aside) whose newest scan, record or
   * `scan-checked` event names another scanner than `scanner`, in rowid order, at most `limit`.
   */
  outdatedPromoted(rowid: number, scanner: string, limit: number): ArtifactRow[] {
    return this.s.outdatedPromoted!.all(rowid, scanner, limit) as ArtifactRow[];
  }

  /** The manifest row a bundle's archive derives (gv.ingest_bundle writes one with every valid archive). */
  bundleManifestOf(archiveId: string): Pick<ArtifactRow, 'artifact_id' | 'content_hash' | 'masked_hash' | 'erased_seq'> {
    return this.s.bundleManifest!.get(JSON.stringify([archiveId])) as Pick<ArtifactRow, 'artifact_id' | 'content_hash' | 'masked_hash' | 'erased_seq'>;
  }

  /**
   * A space's recorded rows of these classes (in this work area, after `since`), oldest first,
   * at most `limit`. The IN list follows the classes, so the statement is made when asked.
   */
  recordsIn(space: string, classes: readonly string[], limit: number, workarea?: string, since?: number): ArtifactRow[] {
    const filters = [`space = ?`, `state = 'RECORDED'`, `content_type IN (${classes.map(() => '?').join(',')})`];
    const args: unknown[] = [space, ...classes];
    if (workarea !== undefined) {
      filters.push('workarea = ?');
      args.push(workarea);
    }
    if (since !== undefined) {
      filters.push('ts > ?');
      args.push(since);
    }
    return this.db.prepare(`SELECT * FROM artifacts WHERE ${filters.join(' AND ')} ORDER BY ts, rowid LIMIT ?`).all(...args, limit) as ArtifactRow[];
  }

  /**
   * Among the rows a visibility clause shows (access/visible-rows.ts): those promoted provisionally,
   * those ratified and awaiting a countersign, and those countersigned.
   */
  countersignCounts(visible: { sql: string; args: readonly unknown[] }): { provisional: number; ratified_awaiting: number; countersigned: number } {
    const n = (extra: string) => this.db.prepare(`SELECT count(*) FROM artifacts WHERE ${visible.sql} AND ${extra}`).pluck().get(...visible.args) as number;
    return {
      provisional: n(`state IN ('ACTIVE', 'SUPERSEDED') AND provisional = 1`),
      ratified_awaiting: n(`state = 'L3_RATIFIED'`),
      countersigned: n(`artifact_id IN (SELECT artifact_id FROM journal WHERE ${AUTHORITY_EVENTS} AND type = 'countersign')`),
    };
  }

  /**
   * gv.inventory's reads over one window of rowids at a time: the rows matching the filter,
   * newest first, and how many match in each state. Made once a call (the clause varies with
   * the caller), then read window by window.
   */
  inventory(visible: RowsClause, filter: InventoryFilter): {
    rows: (w: RowidWindow, limit: number, offset: number) => ArtifactRow[];
    counts: (w: RowidWindow) => { state: string; n: number }[];
  } {
    const where = [visible.sql];
    const args = [...visible.args];
    if (filter.states !== undefined) {
      where.push(filter.states.length ? `state IN (${filter.states.map(() => '?').join(',')})` : '0');
      args.push(...filter.states);
    }
    if (filter.spaces !== undefined) {
      where.push(filter.spaces.length ? `space IN (${filter.spaces.map(() => '?').join(',')})` : '0');
      args.push(...filter.spaces);
    }
    if (filter.q !== undefined && filter.q !== '') {
      where.push(`(instr(artifact_id, ?) > 0 OR instr(content_type, ?) > 0 OR instr(writer_identity, ?) > 0)`);
      args.push(filter.q, filter.q, filter.q);
    }
    const clause = where.join(' AND ');
    // With states named, each is sought in the state index from the window's first rowid: a
    // window then costs its matching rows, not all of its rows (a few REJECTED among many held).
    const from = filter.states?.length ? 'artifacts INDEXED BY artifacts_state' : WALKED;
    const rows = this.db.prepare(`SELECT * FROM ${from} WHERE ${inWindow()} AND ${clause} ORDER BY rowid DESC LIMIT ? OFFSET ?`);
    const counts = this.db.prepare(`SELECT state, count(*) AS n FROM ${from} WHERE ${inWindow()} AND ${clause} GROUP BY state`);
    return {
      rows: (w, limit, offset) => rows.all(...windowArgs(w), ...args, limit, offset) as ArtifactRow[],
      counts: (w) => counts.all(...windowArgs(w), ...args) as { state: string; n: number }[],
    };
  }

  /**
   * gv.pending's read of one state: its rows after `after` in rowid order, at most `limit`,
   * all writers' or one writer's. Each reads its index from the rowid on (the state index,
   * or the writer's): a statement reads no more than it returns, however large the view.
   */
  inStateAfter(writer: string | null): (state: string, after: number, limit: number) => ArtifactRow[] {
    const read = writer === null ? this.s.inStateAfter! : this.s.writerInStateAfter!;
    return (state, after, limit) => (writer === null ? read.all(state, after, limit) : read.all(writer, state, after, limit)) as ArtifactRow[];
  }

  /** The artifacts view's highest rowid (0 when it holds no row): where a walk of the view starts or ends. */
  lastRowid(): number {
    return this.s.lastRowid!.get() as number;
  }

  /** How many ACTIVE rows a space holds (a published collection's size, before it is cut). */
  activeCount(space: string): number {
    return (this.s.activeCount!.get(space) as { n: number }).n;
  }

  /** A space's ACTIVE rows as gv.publish snapshots them, by id. */
  activeSnapshot(space: string): StoredCollectionRow[] {
    return this.s.activeSnapshot!.all(space) as StoredCollectionRow[];
  }

  /** A space's ACTIVE crew sheets, newest promoted first (iterated: the first that parses is the served one). */
  activeCrewSheets(space: string): IterableIterator<ArtifactRow> {
    return this.s.activeCrewSheets!.iterate(space) as IterableIterator<ArtifactRow>;
  }
}
