import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { areaTokens } from '../../src/projections/area-tokens.js';
import { bodyText } from '../../src/projections/body-text.js';
import { RECALL_TOKENIZE } from '../../src/projections/recall-tokenizer.js';

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

export function heldTextTable(): string {
  return `CREATE VIRTUAL TABLE IF NOT EXISTS held.held_fts USING fts5(
    body, areas, space UNINDEXED, workarea UNINDEXED, writer UNINDEXED, tokenize = '${RECALL_TOKENIZE}')`;
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
 * held_fts's entries as the views say they should be, read and written on one connection
 * with held-index.db attached as `held` (held-index-file.ts): the main one (the start's
 * check, gv.rebuild's, an erasure's removal, and the batches while the index's thread is
 * not there) or the held-writer thread's own. Every write is decided by reading the row
 * inside the writing transaction.
 */
export class HeldEntries {
  private readonly s: Record<string, Database.Statement>;

  constructor(
    db: Database.Database,
    /** The bytes under a content hash when still in memory (the same bytes the store holds); else the store is read. */
    private readonly fresh: (hash: string) => Uint8Array | undefined = () => undefined,
  ) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      // A batch's rows and which of them are indexed, one statement each (a JSON array of rowids).
      rows: p(`SELECT rowid, state, kind, content_hash, space, workarea, writer_identity, erased_seq FROM main.artifacts
        WHERE rowid IN (SELECT value FROM json_each(?))`),
      indexed: p('SELECT j.value FROM json_each(?) j WHERE EXISTS (SELECT 1 FROM held.held_fts f WHERE f.rowid = j.value)').pluck(),
      blob: p('SELECT bytes FROM main.blobs WHERE hash = ?').pluck(),
      insert: p('INSERT INTO held.held_fts (rowid, body, areas, space, workarea, writer) VALUES (?, ?, ?, ?, ?, ?)'),
      remove: p('DELETE FROM held.held_fts WHERE rowid = ?'),
      belonging: p(`SELECT rowid, state, kind, content_hash, space, workarea, writer_identity, erased_seq FROM main.artifacts
        WHERE state = 'L1_SCANNED' AND coalesce(kind, '') != 'steering' AND erased_seq IS NULL ORDER BY rowid`),
      entries: p('SELECT rowid, body, areas, space, workarea, writer FROM held.held_fts ORDER BY rowid'),
    };
  }

  /** Removes a row's entry (an erased row's words leave in the erasure's own commit). */
  remove(rowid: number): void {
    this.s.remove!.run(rowid);
  }

  /**
   * Makes these rows' entries what the views say now (inside a write transaction; safe to
   * run again): the rows and their presence in the index read in one statement each.
   */
  sync(rowids: readonly number[]): void {
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
    const bytes = this.fresh(row.content_hash) ?? (this.s.blob!.get(row.content_hash) as Buffer | undefined);
    const body = bytes === undefined ? null : bodyText(bytes);
    if (body === null) return null;
    return { body, areas: areaTokens(row.space, row.workarea), space: row.space, workarea: row.workarea, writer: row.writer_identity };
  }

  /**
   * Compares every entry with what the views say and rewrites those that differ (inside a
   * write transaction). Entries are held as digests while comparing (the index may hold
   * many thousand bodies), and written once both reads are done (better-sqlite3 writes
   * nothing while a read is open).
   */
  reconcile(tell: HeldEntryChanged = () => undefined): HeldTextCheck {
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
