import type Database from 'better-sqlite3';
import { bodyText } from './body-text.js';
import type { ViewChanges } from '../journal/view-changes.js';
import type { CollectionRow } from '../domain/collection-form.js';

export interface ScanFinding {
  kind: string;
  severity: string;
  detail: string;
  start: number;
  end: number;
  excerpt: string;
}

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
  state_ts: number;
  state_seq: number;
  promoted_seq: number | null;
  promoted_ts: number | null;
  provisional: number;
  reason: string | null;
  /** The seq of the row's content_erased event: its bytes are gone, its metadata stays. */
  erased_seq: number | null;
}

export const producerOf = (row: ArtifactRow) =>
  row.producer_name === null ? null : { name: row.producer_name, kind: row.producer_kind };

export const derivesFromOf = (row: ArtifactRow): string[] => JSON.parse(row.derives_from) as string[];

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

  /** For the reads whose clause varies by caller (gv.inventory, gv.pending). */
  private readonly db: Database.Database;

  constructor(db: Database.Database, changes: ViewChanges) {
    this.db = db;
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      byId: p('SELECT * FROM artifacts WHERE artifact_id = ?'),
      byRowid: p('SELECT * FROM artifacts WHERE rowid = ?'),
      promotedCopy: p(
        `SELECT * FROM artifacts WHERE content_hash = ? AND space = ? AND state IN ('ACTIVE', 'SUPERSEDED') AND erased_seq IS NULL ORDER BY rowid LIMIT 1`,
      ),
      blob: p('SELECT bytes FROM blobs WHERE hash = ?'),
      stateCount: p('SELECT n FROM state_counts WHERE state = ?'),
      eventsOf: p('SELECT * FROM journal WHERE artifact_id = ? ORDER BY seq'),
      ingestEvent: p(`SELECT body FROM journal WHERE artifact_id = ? AND type = 'ingest' ORDER BY seq LIMIT 1`).pluck(),
      scanEvent: p(`SELECT body FROM journal WHERE artifact_id = ? AND type = 'scan' ORDER BY seq DESC LIMIT 1`).pluck(),
      questionsInArea: p(
        `SELECT count(*) AS n FROM artifacts WHERE writer_identity = ? AND space = ? AND workarea = ? AND kind = 'question'`,
      ),
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

  /** The attachments a row's envelope names (their hashes), as its ingest event recorded them. */
  attachmentHashes(artifactId: string): string[] {
    const body = this.s.ingestEvent!.get(artifactId) as string | undefined;
    if (body === undefined) return [];
    const attachments = (JSON.parse(body) as { data: { attachments?: Array<{ sha256?: unknown }> } }).data.attachments;
    return Array.isArray(attachments) ? attachments.map((a) => a.sha256).filter((h): h is string => typeof h === 'string') : [];
  }

  /** The scanner's findings on a row, as its scan event recorded them (kept inside the gate). */
  findings(artifactId: string): ScanFinding[] {
    const body = this.s.scanEvent!.get(artifactId) as string | undefined;
    if (body === undefined) return [];
    const findings = (JSON.parse(body) as { data: { findings?: ScanFinding[] } }).data.findings;
    return Array.isArray(findings) ? findings : [];
  }

  questionsBy(writer: string, space: string, workarea: string): number {
    return (this.s.questionsInArea!.get(writer, space, workarea) as { n: number }).n;
  }

  /**
   * gv.inventory: a page of the visible rows the filter selects, newest first, and how many it
   * selects in each state. Prepared a call: the clause varies with the caller and the filter.
   */
  inventory(visible: RowsClause, filter: InventoryFilter, limit: number, offset: number): { rows: ArtifactRow[]; counts: { state: string; n: number }[] } {
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
    const rows = this.db
      .prepare(`SELECT * FROM artifacts WHERE ${clause} ORDER BY rowid DESC LIMIT ? OFFSET ?`)
      .all(...args, limit, offset) as ArtifactRow[];
    const counts = this.db.prepare(`SELECT state, count(*) AS n FROM artifacts WHERE ${clause} GROUP BY state`).all(...args) as {
      state: string;
      n: number;
    }[];
    return { rows, counts };
  }

  /** gv.pending: the visible rows in these states, oldest first, at most `limit`. Prepared a call: the clause varies with the caller. */
  inStates(visible: RowsClause, states: string[], limit: number): ArtifactRow[] {
    return this.db
      .prepare(
        `SELECT * FROM artifacts WHERE ${visible.sql} AND state IN (${states.map(() => '?').join(',')})
         ORDER BY rowid LIMIT ?`,
      )
      .all(...visible.args, ...states, limit) as ArtifactRow[];
  }

  /** How many ACTIVE rows a space holds (a published collection's size, before it is cut). */
  activeCount(space: string): number {
    return (this.s.activeCount!.get(space) as { n: number }).n;
  }

  /** A space's ACTIVE rows as gv.publish snapshots them, by id. */
  activeSnapshot(space: string): StoredCollectionRow[] {
    return this.s.activeSnapshot!.all(space) as StoredCollectionRow[];
  }
}
