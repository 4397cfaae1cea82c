import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import type { JournalWriter } from '../journal/group-commit.js';
import type { Log } from '../log.js';
import { areaTokens } from '../projections/area-tokens.js';
import { bodyText } from '../projections/body-text.js';
import type { FreshBodies } from './fresh-bodies.js';

/** Told of each held-index entry a check added or removed, by the entry's space (gv.reconcile's report). */
export type HeldEntryChanged = (space: string, change: 'added' | 'removed') => void;

/** What gv.rebuild reports of the held index, beside the views and the vectors. */
export interface HeldTextCheck {
  /** Rows that belong in the index (scanned, unflagged, held, not steering, text). */
  checked: number;
  equal: number;
  /** Rows that belonged and were absent, or indexed with other text or filters. */
  missing: number;
  differing: number;
  /** Indexed rows that do not belong (any more). */
  extra: number;
  /** Entries written or removed to make the index what the views say. */
  rewritten: number;
  ms: number;
}

/**
 * Rows moved in or out are written together, up to this many or this long after the first
 * moved: one FTS5 segment per batch instead of one per group commit, and the body's tokenizing
 * out of the ingest's own transaction.
 */
const WRITE_BATCH = 512;
const WRITE_LINGER_MS = 100;

export function heldTextTable(): string {
  return `CREATE VIRTUAL TABLE IF NOT EXISTS main.held_fts USING fts5(
    body, areas, space UNINDEXED, workarea UNINDEXED, writer UNINDEXED, tokenize = 'unicode61 remove_diacritics 2')`;
}

interface HeldRow {
  rowid: number;
  state: string;
  kind: string | null;
  content_hash: string;
  space: string;
  workarea: string | null;
  writer_identity: string;
  erased_seq: number | null;
}

interface Entry {
  body: string;
  areas: string;
  space: string;
  workarea: string | null;
  writer: string;
}

/**
 * held_fts: the lexical index of each writer's scanned, unflagged held rows (L1_SCANNED),
 * which a writer's recall reads for its own pending rows. It is derived from the artifacts
 * view and the content store, like the vectors, and written after the answer: the artifacts
 * reducer tells which rows entered or left L1_SCANNED inside each commit, and the moves are
 * written in batches of their own through the journal writer. A writer searching its held
 * rows first has every move told so far written (current()), so an answered ingest is found
 * by its writer's next recall. At start, rows the index lacks or holds wrongly (a crash
 * between a commit and its batch) are put right; gv.rebuild checks it row by row.
 */
export class HeldTextIndex {
  private readonly queued = new Set<number>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private readonly s: Record<string, Database.Statement>;

  constructor(
    private readonly db: Database.Database,
    private readonly writer: JournalWriter,
    private readonly log: Log,
    private readonly fresh: FreshBodies,
  ) {
    db.exec(heldTextTable());
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      // A batch's rows and which of them are indexed, one statement each (a JSON array of rowids).
      rows: p(`SELECT rowid, state, kind, content_hash, space, workarea, writer_identity, erased_seq FROM main.artifacts
        WHERE rowid IN (SELECT value FROM json_each(?))`),
      indexed: p('SELECT j.value FROM json_each(?) j WHERE EXISTS (SELECT 1 FROM main.held_fts f WHERE f.rowid = j.value)').pluck(),
      blob: p('SELECT bytes FROM main.blobs WHERE hash = ?').pluck(),
      insert: p('INSERT INTO main.held_fts (rowid, body, areas, space, workarea, writer) VALUES (?, ?, ?, ?, ?, ?)'),
      remove: p('DELETE FROM main.held_fts WHERE rowid = ?'),
      belonging: p(`SELECT rowid, state, kind, content_hash, space, workarea, writer_identity, erased_seq FROM main.artifacts
        WHERE state = 'L1_SCANNED' AND coalesce(kind, '') != 'steering' AND erased_seq IS NULL ORDER BY rowid`),
      entries: p('SELECT rowid, body, areas, space, workarea, writer FROM main.held_fts ORDER BY rowid'),
    };
  }

  /**
   * Rows entering or leaving L1_SCANNED in the commit being made (the artifacts reducer's
   * word). An erased row's words leave in that same commit: gv.erase answers that they are gone.
   */
  moved(rowid: number, erased = false): void {
    if (erased) {
      this.s.remove!.run(rowid);
      return;
    }
    this.queued.add(rowid);
    if (this.queued.size >= WRITE_BATCH) void this.writeQueued();
    else this.timer ??= setTimeout(() => void this.writeQueued(), WRITE_LINGER_MS);
  }

  /** Moves told and not yet written (or being written). */
  get pending(): number {
    return this.queued.size;
  }

  /**
   * Puts right, before the gate serves, every row the index lacks or holds that it should
   * not: moves a crash left unwritten, or a fresh index after the views were replayed.
   */
  start(): void {
    const started = performance.now();
    const check = this.db.transaction(() => this.reconcile())();
    if (check.rewritten > 0) {
      this.log.info(`held index: ${check.rewritten} entries written or removed at start (${Math.round(performance.now() - started)} ms)`);
    }
  }

  /** Resolves once every move told so far is written: a search of held rows waits for it. */
  current(): Promise<void> {
    return this.queued.size > 0 ? this.writeQueued() : this.writing;
  }

  /**
   * gv.rebuild's check (and gv.reconcile's repair): every entry against the views and the
   * content store, put right where it differs; `tell` hears each entry added or removed, by
   * its space (an entry that differed is removed and added).
   */
  async verify(tell?: HeldEntryChanged): Promise<HeldTextCheck> {
    await this.current();
    return this.writer.write(() => this.reconcile(tell));
  }

  async close(): Promise<void> {
    await this.writeQueued();
  }

  private writeQueued(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.queued.size === 0) return this.writing;
    const rowids = [...this.queued];
    this.queued.clear();
    const written = this.writer
      .write(() => this.sync(rowids))
      .catch((error: unknown) => {
        // The moves stay told: the next batch (or the next start) writes them.
        this.log.error(`held index: writing ${rowids.length} moves`, error);
        for (const rowid of rowids) this.queued.add(rowid);
      });
    this.writing = this.writing.then(() => written);
    return this.writing;
  }

  /**
   * Makes these rows' entries what the views say now (inside the writer's transaction; safe
   * to run again): the rows and their presence in the index read in one statement each.
   */
  private sync(rowids: readonly number[]): void {
    const list = JSON.stringify(rowids);
    const rows = new Map((this.s.rows!.all(list) as HeldRow[]).map((r) => [r.rowid, r]));
    const indexed = new Set(this.s.indexed!.all(list) as number[]);
    for (const rowid of rowids) {
      const want = this.entryOf(rows.get(rowid));
      const has = indexed.has(rowid);
      if (has && want === null) this.s.remove!.run(rowid);
      if (!has && want !== null) this.s.insert!.run(rowid, want.body, want.areas, want.space, want.workarea, want.writer);
    }
  }

  /** The entry a row should have, or null when it does not belong (or its bytes are not text). */
  private entryOf(row: HeldRow | undefined): Entry | null {
    // An erased row has nothing left to index, though another row may share its bytes.
    if (row === undefined || row.state !== 'L1_SCANNED' || row.kind === 'steering' || row.erased_seq !== null) return null;
    // The ingest's own bytes when still at hand (the same bytes the store holds under this hash).
    const bytes = this.fresh.get(row.content_hash) ?? (this.s.blob!.get(row.content_hash) as Buffer | undefined);
    const body = bytes === undefined ? null : bodyText(bytes);
    if (body === null) return null;
    return { body, areas: areaTokens(row.space, row.workarea), space: row.space, workarea: row.workarea, writer: row.writer_identity };
  }

  /**
   * Compares every entry with what the views say and rewrites those that differ. Entries
   * are held as digests while comparing (the index may hold many thousand bodies), and
   * written once both reads are done (better-sqlite3 writes nothing while a read is open).
   */
  private reconcile(tell: HeldEntryChanged = () => undefined): HeldTextCheck {
    const started = performance.now();
    const check: HeldTextCheck = { checked: 0, equal: 0, missing: 0, differing: 0, extra: 0, rewritten: 0, ms: 0 };
    const have = new Map<number, string>();
    const spaceOf = new Map<number, string>();
    for (const e of this.s.entries!.iterate() as IterableIterator<Entry & { rowid: number }>) {
      have.set(e.rowid, digestOf(e));
      spaceOf.set(e.rowid, e.space);
    }
    const rows = this.s.belonging!.all() as HeldRow[];
    const put: Array<{ rowid: number; entry: Entry }> = [];
    for (const row of rows) {
      const want = this.entryOf(row);
      if (want === null) continue;
      check.checked += 1;
      const got = have.get(row.rowid);
      have.delete(row.rowid);
      if (got === digestOf(want)) check.equal += 1;
      else {
        if (got === undefined) check.missing += 1;
        else {
          check.differing += 1;
          tell(spaceOf.get(row.rowid)!, 'removed');
        }
        tell(want.space, 'added');
        put.push({ rowid: row.rowid, entry: want });
      }
    }
    for (const { rowid, entry } of put) {
      this.s.remove!.run(rowid);
      this.s.insert!.run(rowid, entry.body, entry.areas, entry.space, entry.workarea, entry.writer);
    }
    for (const rowid of have.keys()) {
      this.s.remove!.run(rowid);
      tell(spaceOf.get(rowid)!, 'removed');
    }
    check.extra = have.size;
    check.rewritten = put.length + have.size;
    check.ms = Math.round(performance.now() - started);
    return check;
  }
}

const digestOf = (e: Entry) =>
  createHash('sha256').update(JSON.stringify([e.body, e.areas, e.space, e.workarea, e.writer])).digest('base64');
