import type Database from 'better-sqlite3';
import type { FoldedBy, JournalEventOf } from '../journal/catalogue/catalogue.js';
import { isPromoted } from '../domain/states.js';
import { areaTokens } from './area-tokens.js';
import { bodyText } from './body-text.js';
import { RECALL_TOKENIZE } from './recall-tokenizer.js';
import { canonicalJson } from '../forms/canonical-json.js';
import { laterArtifactEvent } from '../journal/schema.js';
import { ArtifactReads } from './artifact-reads.js';
import { defineView } from './define-view.js';

/**
 * The artifacts view: one row per claim, its state, and the served rows' FTS index recall
 * reads. The held rows' index (held_fts) is derived after the answer: src/recall/held-text-index.ts.
 */
export function artifactTables(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${schema}.artifacts (
      rowid INTEGER PRIMARY KEY,
      artifact_id TEXT NOT NULL UNIQUE,
      state TEXT NOT NULL,
      space TEXT NOT NULL,
      workarea TEXT,
      producer_name TEXT,
      producer_kind TEXT,
      kind TEXT,
      content_type TEXT NOT NULL,
      trust_class TEXT NOT NULL,
      writer_identity TEXT NOT NULL,
      writer_kind TEXT NOT NULL,
      source_uri TEXT NOT NULL,
      content_hash TEXT NOT NULL,
      size_bytes INTEGER NOT NULL,
      derives_from TEXT NOT NULL,
      addressed_to TEXT,
      findings_count INTEGER NOT NULL DEFAULT 0,
      masked_hash TEXT,
      ts INTEGER NOT NULL,
      ingest_seq INTEGER NOT NULL,
      -- The scan (or record) that took the row out of L0_RAW: with ingest_seq, the two events
      -- the journal's artifact index leaves out (journal/schema.ts, laterArtifactEvent).
      scan_seq INTEGER,
      state_ts INTEGER NOT NULL,
      state_seq INTEGER NOT NULL,
      promoted_seq INTEGER,
      promoted_ts INTEGER,
      provisional INTEGER NOT NULL DEFAULT 0,
      reason TEXT,
      erased_seq INTEGER
    );
    CREATE INDEX IF NOT EXISTS ${schema}.artifacts_space_state ON artifacts(space, state);
    CREATE INDEX IF NOT EXISTS ${schema}.artifacts_writer_state ON artifacts(writer_identity, state);
    -- Only the duplicate rule's promoted copy is looked up by content (ArtifactReads.promotedCopy):
    -- a held row is not in this index, so an ingest does not dirty a page of it keyed by a random hash.
    CREATE INDEX IF NOT EXISTS ${schema}.artifacts_promoted_content ON artifacts(content_hash, space)
      WHERE state IN ('ACTIVE', 'SUPERSEDED');
    CREATE INDEX IF NOT EXISTS ${schema}.artifacts_state ON artifacts(state);
    CREATE INDEX IF NOT EXISTS ${schema}.artifacts_steering ON artifacts(space, workarea, promoted_seq) WHERE kind = 'steering';
    CREATE INDEX IF NOT EXISTS ${schema}.artifacts_erased ON artifacts(erased_seq) WHERE erased_seq IS NOT NULL;
    CREATE INDEX IF NOT EXISTS ${schema}.artifacts_masked ON artifacts(masked_hash) WHERE masked_hash != content_hash;
    CREATE VIRTUAL TABLE IF NOT EXISTS ${schema}.recall_fts USING fts5(
      body, areas, space UNINDEXED, workarea UNINDEXED, provisional UNINDEXED, superseded UNINDEXED,
      tokenize = '${RECALL_TOKENIZE}');
    CREATE TABLE IF NOT EXISTS ${schema}.state_counts (state TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
  `;
}

/**
 * FTS5's own secure-delete (a table setting kept in the index): a delete removes the row's
 * tokens from the index segments. Otherwise FTS5 appends a tombstone and the tokens stay in
 * older segments until a merge reaches them, so an erased body's words would stay on disk.
 */
export function secureIndexDeletes(db: Database.Database, tables: readonly string[], on: boolean): void {
  for (const table of tables) {
    // FTS5 reads a special command's value as written: a bound parameter is refused.
    db.exec(`INSERT INTO ${table} (${table.split('.').pop()}, rank) VALUES ('secure-delete', ${on ? 1 : 0})`);
  }
}

export const artifactDigestQueries = (schema: string) => ({
  artifacts: `SELECT * FROM ${schema}.artifacts ORDER BY rowid`,
  recall_fts: `SELECT rowid, body, areas, space, workarea, provisional, superseded FROM ${schema}.recall_fts ORDER BY rowid`,
  // A state counted to zero is the same as one never counted (a row folded with its scan never counts L0_RAW).
  state_counts: `SELECT * FROM ${schema}.state_counts WHERE n != 0 ORDER BY state`,
});

type Data = Record<string, unknown>;

/** Follows rows entering or leaving L1_SCANNED as the live views fold them: the held-text index, written after the commit. */
export interface HeldRowsFollower {
  /** `erased` when the row's words must leave that index in this commit. */
  moved(rowid: number, erased?: boolean): void;
}


interface ReducedRow {
  rowid: number;
  artifact_id: string;
  state: string;
  content_hash: string;
  space: string;
  workarea: string | null;
  kind: string | null;
  writer_identity: string;
  provisional: number;
  erased_seq: number | null;
}
const str = (d: Data, k: string) => (typeof d[k] === 'string' ? (d[k] as string) : null);
/**
 * Whether a scan (or record) is the one that took its row out of L0_RAW, by the event's own
 * word: the rule journal_artifact_later's predicate reads from the body (laterArtifactEvent),
 * so the seq kept in scan_seq is exactly the scan that index leaves out.
 */
const leavesRaw = (d: Data) => str(d, 'leaves') === 'L0_RAW';

/** Folds row events into the artifacts view. Deterministic: it reads only the event and the content store. */
export class ArtifactReducer {
  private readonly s: Record<string, Database.Statement>;
  /** The scan (or record) event already folded with its row's ingest, skipped when it is applied. */
  private folded: string | null = null;

  /** Told of each row entering or leaving L1_SCANNED (Projections.followHeldRows). */
  readonly heldRows: HeldRowsFollower[] = [];

  constructor(db: Database.Database, schema: string) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      insert: p(`INSERT INTO ${schema}.artifacts (artifact_id, state, space, workarea, producer_name, producer_kind, kind,
        content_type, trust_class, writer_identity, writer_kind, source_uri, content_hash, size_bytes, derives_from,
        addressed_to, ts, ingest_seq, state_ts, state_seq)
        VALUES (@artifact_id, @state, @space, @workarea, @producer_name, @producer_kind, @kind, @content_type, @trust_class,
        @writer_identity, @writer_kind, @source_uri, @content_hash, @size_bytes, @derives_from, @addressed_to, @ts, @seq, @ts, @seq)`),
      // A row and its scan (or record) in one write: the row as both events leave it, inserted once.
      insertScanned: p(`INSERT INTO ${schema}.artifacts (artifact_id, state, space, workarea, producer_name, producer_kind, kind,
        content_type, trust_class, writer_identity, writer_kind, source_uri, content_hash, size_bytes, derives_from,
        addressed_to, ts, ingest_seq, state_ts, state_seq, scan_seq, reason, findings_count, masked_hash)
        VALUES (@artifact_id, @state, @space, @workarea, @producer_name, @producer_kind, @kind, @content_type, @trust_class,
        @writer_identity, @writer_kind, @source_uri, @content_hash, @size_bytes, @derives_from, @addressed_to, @ts, @seq,
        @state_ts, @state_seq, @scan_seq, @reason, @findings_count, @masked_hash)`),
      row: p(`SELECT rowid, artifact_id, state, content_hash, space, workarea, kind, writer_identity, provisional, erased_seq
        FROM ${schema}.artifacts WHERE artifact_id = ?`),
      erased: p(`UPDATE ${schema}.artifacts SET erased_seq = ? WHERE rowid = ?`),
      erasedLater: p(`SELECT 1 FROM main.journal WHERE artifact_id = ? AND type = 'content_erased' AND ${laterArtifactEvent()} LIMIT 1`).pluck(),
      setState: p(`UPDATE ${schema}.artifacts SET state = @state, state_ts = @ts, state_seq = @seq,
        reason = @reason WHERE rowid = @rowid`),
      scanned: p(`UPDATE ${schema}.artifacts SET findings_count = @findings_count, masked_hash = @masked_hash,
        trust_class = @trust_class WHERE rowid = @rowid`),
      firstScan: p(`UPDATE ${schema}.artifacts SET scan_seq = ? WHERE rowid = ?`),
      promoted: p(`UPDATE ${schema}.artifacts SET promoted_seq = coalesce(promoted_seq, @seq),
        promoted_ts = coalesce(promoted_ts, @ts), provisional = @provisional WHERE rowid = @rowid`),
      count: p(`INSERT INTO ${schema}.state_counts (state, n) VALUES (?, ?)
        ON CONFLICT(state) DO UPDATE SET n = n + excluded.n`),
      blob: p(`SELECT bytes FROM main.blobs WHERE hash = ?`),
      recallIn: p(`INSERT INTO ${schema}.recall_fts (rowid, body, areas, space, workarea, provisional, superseded)
        VALUES (?, ?, ?, ?, ?, ?, ?)`),
      recallOut: p(`DELETE FROM ${schema}.recall_fts WHERE rowid = ?`),
      recallSuperseded: p(`UPDATE ${schema}.recall_fts SET superseded = ? WHERE rowid = ?`),
      recallProvisional: p(`UPDATE ${schema}.recall_fts SET provisional = ? WHERE rowid = ?`),
    };
  }


  apply(event: JournalEventOf<FoldedBy<'artifacts'>>, next?: JournalEventOf): void {
    const d = event.data;
    if (event.type === 'ingest') return this.ingest(event, next);
    if (this.folded !== null && this.folded === event.event_id) {
      this.folded = null;
      return;
    }
    if (event.type === 'content_erased') return this.erase(event);
    const enters = str(d, 'enters');
    // A relation other than supersedes moves no row.
    if (event.type === 'relation' && enters === null) return;
    const row = this.s.row!.get(str(d, 'artifact_id')) as ReducedRow | undefined;
    if (!row) throw new Error(`event ${event.seq} (${event.type}) names a row the view does not hold`);
    if (enters === null) throw new Error(`event ${event.seq} (${event.type}) has no enters state`);
    this.s.setState!.run({ state: enters, ts: event.ts, seq: event.seq, reason: str(d, 'reason'), rowid: row.rowid });
    this.s.count!.run(row.state, -1);
    this.s.count!.run(enters, 1);
    if (event.type === 'scan' || event.type === 'record') {
      this.s.scanned!.run({
        findings_count: event.data.findings_count ?? 0,
        masked_hash: str(d, 'masked_hash'),
        trust_class: str(d, 'trust_class'),
        rowid: row.rowid,
      });
      if (leavesRaw(d)) this.s.firstScan!.run(event.seq, row.rowid);
    }
    if (event.type === 'promote' || event.type === 'countersign') {
      row.provisional = event.data.provisional === true ? 1 : 0;
      // A countersign of a row that was never promoted here (it waited ratified) leaves promoted_seq unset until it enters ACTIVE.
      if (event.type === 'promote' || isPromoted(enters)) this.s.promoted!.run({ seq: event.seq, ts: event.ts, provisional: row.provisional, rowid: row.rowid });
      // Already served: recall's provisional mark follows.
      if (event.type === 'countersign' && isPromoted(row.state) && row.kind !== 'steering') this.s.recallProvisional!.run(row.provisional, row.rowid);
    }
    this.reindex(row, enters);
  }

  /**
   * Keeps the recall indexes in step with a row's move. recall_fts holds served rows
   * (ACTIVE, and SUPERSEDED flagged so include_superseded can reach them); held_fts holds
   * scanned unflagged held rows for their own writer, written after the commit from the
   * moves told here. Steering is never a ranked hit, so neither index holds it.
   */
  private reindex(row: ReducedRow, enters: string): void {
    if (row.kind === 'steering' || row.erased_seq !== null) return;
    const servedBefore = isPromoted(row.state);
    const servedAfter = isPromoted(enters);
    if (!servedBefore && servedAfter) {
      const body = this.body(row);
      const areas = areaTokens(row.space, row.workarea);
      if (body !== null) this.s.recallIn!.run(row.rowid, body, areas, row.space, row.workarea, row.provisional, enters === 'SUPERSEDED' ? 1 : 0);
    } else if (servedBefore && !servedAfter) {
      this.s.recallOut!.run(row.rowid);
    } else if (servedBefore && servedAfter && row.state !== enters) {
      this.s.recallSuperseded!.run(enters === 'SUPERSEDED' ? 1 : 0, row.rowid);
    }
    if ((row.state === 'L1_SCANNED') !== (enters === 'L1_SCANNED')) for (const f of this.heldRows) f.moved(row.rowid);
  }

  /**
   * A new row, in L0_RAW. When its scan (or record) is appended right after it in the same
   * journal call (every ingest door's appendRow), the row is inserted as the scan leaves it and
   * the scan is not applied again: the same row a replay makes from the two events one by one,
   * without writing each state index twice (an L0_RAW entry, deleted in the same commit) and
   * five statements a row.
   */
  private ingest(event: JournalEventOf<'ingest'>, next: JournalEventOf | undefined): void {
    this.folded = null;
    const d = event.data;
    const scan = next !== undefined && (next.type === 'scan' || next.type === 'record') && next.data['artifact_id'] === event.data.artifact_id ? next : undefined;
    const enters = scan === undefined ? null : str(scan.data, 'enters');
    if (scan !== undefined && enters !== null) {
      const info = this.s.insertScanned!.run({
        ...this.rowFields(event),
        state: enters,
        state_ts: scan.ts,
        state_seq: scan.seq,
        scan_seq: leavesRaw(scan.data) ? scan.seq : null,
        reason: str(scan.data, 'reason'),
        findings_count: scan.data['findings_count'] ?? 0,
        masked_hash: str(scan.data, 'masked_hash'),
        trust_class: str(scan.data, 'trust_class'),
      });
      this.s.count!.run(enters, 1);
      this.folded = scan.event_id;
      const row: ReducedRow = {
        rowid: Number(info.lastInsertRowid),
        artifact_id: event.data.artifact_id,
        state: 'L0_RAW',
        content_hash: event.data.content_hash,
        space: event.data.space,
        workarea: str(d, 'workarea'),
        kind: str(d, 'kind'),
        writer_identity: event.by as string,
        provisional: 0,
        erased_seq: null,
      };
      this.reindex(row, enters);
      return;
    }
    this.s.insert!.run({ ...this.rowFields(event), state: 'L0_RAW' });
    this.s.count!.run('L0_RAW', 1);
  }

  /** The columns an ingest event sets. */
  private rowFields(event: JournalEventOf<'ingest'>): Record<string, unknown> {
    const d = event.data;
    const producer = (event.data.producer ?? {}) as { name?: string; kind?: string };
    return {
      artifact_id: event.data.artifact_id,
      space: event.data.space,
      workarea: str(d, 'workarea'),
      producer_name: producer.name ?? null,
      producer_kind: producer.kind ?? null,
      kind: str(d, 'kind'),
      content_type: event.data.content_type,
      trust_class: event.data.trust_class,
      writer_identity: event.by,
      writer_kind: event.data.writer_kind,
      source_uri: event.data.source_uri,
      content_hash: event.data.content_hash,
      size_bytes: event.data.size_bytes,
      derives_from: JSON.stringify(event.data.derives_from ?? []),
      // Canonical, not as given: live the event data keeps the caller's key order, replayed it is
      // read back from canonical JSON, and the two must store the same text.
      addressed_to: event.data.addressed_to === undefined ? null : canonicalJson(event.data.addressed_to),
      ts: event.ts,
      seq: event.seq,
    };
  }

  /**
   * The erased row keeps its metadata; its words leave both indexes. Live, the index rows
   * are deleted here; a replay never made them (see body()), so the views end equal.
   */
  private erase(event: JournalEventOf<'content_erased'>): void {
    const row = this.s.row!.get(str(event.data, 'artifact_id')) as ReducedRow | undefined;
    if (!row) throw new Error(`event ${event.seq} (content_erased) names a row the view does not hold`);
    this.s.erased!.run(event.seq, row.rowid);
    this.s.recallOut!.run(row.rowid);
    for (const f of this.heldRows) f.moved(row.rowid, true);
  }

  /**
   * The body as text, or null for bytes that are not UTF-8 text (an archive, an image in a
   * bundle): those are never indexed. A replay meets an erased row's earlier moves after its
   * bytes left the store: the journal holds its content_erased further on, so there is
   * nothing to index (live, the erasure deletes what was indexed). Bytes missing without an
   * erasure are a broken store.
   */
  private body(row: ReducedRow): string | null {
    const blob = this.s.blob!.get(row.content_hash) as { bytes: Buffer } | undefined;
    if (blob) return bodyText(blob.bytes);
    if (this.s.erasedLater!.get(row.artifact_id) !== undefined) return null;
    throw new Error(`content ${row.content_hash} is missing from the store`);
  }
}

/**
 * The artifacts view. What the catalogue has it fold: a row's ingest and every move of it
 * (scans, the review's moves, a second authority's outcomes, supersession, a prepared
 * replacement), and an erasure, which moves no row: its content leaves both recall indexes
 * and never returns.
 */
export const artifactView = defineView({
  name: 'artifacts',
  tables: artifactTables,
  digest: artifactDigestQueries,
  reducer: (db, schema) => new ArtifactReducer(db, schema),
  reads: {
    artifacts: ({ db, viewChanges }) => new ArtifactReads(db, viewChanges),
  },
});
