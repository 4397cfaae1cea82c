import type Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import type { Log } from '../log.js';
import { storedVectorsReader, type StoredVector } from '../../workers/vector-scan/stored-vectors.js';

/**
 * The stored vectors of vector recall: a derived index like the FTS tables, never a journal
 * event, so it lives in `main` only and is absent from the rebuild digests and from view
 * replays. Rows are keyed by artifacts.rowid, which a replay of the journal reproduces.
 *
 *   vector_index  sqlite-vec vec0: the int8 vector of every embedded row, partitioned by
 *                 where it may be found (a served space, one writer's held rows, parked),
 *                 with provisional and superseded as metadata columns KNN can filter on.
 *   vector_codes  the same rows' partition, flags and two-plane sign code: loaded into
 *                 memory for partitions too large for sqlite-vec's exact KNN.
 *   vector_values the same int8 vectors in a plain rowid table, for reading one by rowid
 *                 (re-ranking, similarTo, gv.rebuild's check): vec0 keeps vectors in
 *                 chunk blobs (512 KB each before VEC0_CHUNK_ROWS) and took ~100 us to read one at a million rows
 *                 (a plain table ~3 us), which made re-ranking 200 candidates cost 20 ms.
 *   vector_model  the label every stored vector was made by. A different label at start
 *                 drops both tables, and the catch-up embeds every row again.
 */

/** Stored and never searched: rows between held and served (L2, L3) or out of both; kept so a later promotion reuses them. */
export const PARKED = 'p';
/** Texts without one content word embed to the zero vector, which is similar to nothing. */
export const EMPTY = '-';
export const servedPartition = (space: string) => `s:${space}`;
export const heldPartition = (writer: string) => `h:${writer}`;
/** How a vector and its code are stored (quantize.ts); a change of it re-embeds like a change of model. */
export const STORAGE_FORMAT = 'int8 + two-plane sign code/2';
export const isSearchable = (part: string) => part.startsWith('s:') || part.startsWith('h:');

/**
 * Vectors to one vec0 chunk blob (its default is 1,024: 512 KB at 512 dimensions). Each insert
 * writes its vector into the chunk through SQLite's incremental blob I/O, which walks the blob's
 * overflow pages from the first: under ingest that walk was ~3% of the main thread, ~0.5% at
 * 128 (bench/ingest.js under perf). An exact KNN (partitions of at most BRUTE_FORCE_MAX rows)
 * opens 16 chunks instead of 2, about 0.2 ms more. A table made before keeps its chunk size.
 */
const VEC0_CHUNK_ROWS = 128;

export const FLAG_PROVISIONAL = 1;
export const FLAG_SUPERSEDED = 2;
export const FLAG_EMPTY = 0x40;

export interface Placement {
  part: string;
  flags: number;
}

/** The artifacts columns a placement depends on. */
export interface PlacedRow {
  rowid: number;
  state: string;
  space: string;
  writer_identity: string;
  provisional: number;
}

const SERVED = new Set(['ACTIVE', 'SUPERSEDED']);

/** Served rows and the held rows their writer may recall need a vector; nothing else is embedded. */
export const wantsVector = (state: string) => SERVED.has(state) || state === 'L1_SCANNED';

export function placementOf(row: PlacedRow, empty: boolean): Placement {
  if (empty) return { part: EMPTY, flags: FLAG_EMPTY };
  if (SERVED.has(row.state)) {
    return {
      part: servedPartition(row.space),
      flags: (row.provisional === 1 ? FLAG_PROVISIONAL : 0) | (row.state === 'SUPERSEDED' ? FLAG_SUPERSEDED : 0),
    };
  }
  if (row.state === 'L1_SCANNED') return { part: heldPartition(row.writer_identity), flags: 0 };
  return { part: PARKED, flags: 0 };
}

export interface StoredPlacement extends Placement {
  rowid: number;
}

export interface CodeRow {
  rowid: number;
  flags: number;
  code: Buffer;
}

/** A row beside where its vector is stored (stored_part null: it has none). */
export interface RowAndVector extends PlacedRow {
  stored_part: string | null;
  stored_flags: number | null;
}

/** The placement of a row's stored vector, or undefined when it has none. */
export const storedOf = (r: RowAndVector): StoredPlacement | undefined =>
  r.stored_part === null ? undefined : { rowid: r.rowid, part: r.stored_part, flags: r.stored_flags! };

const ARTIFACT_COLUMNS = 'a.rowid AS rowid, a.state AS state, a.space AS space, a.writer_identity AS writer_identity, a.provisional AS provisional';
const STORED_COLUMNS = 'c.part AS stored_part, c.flags AS stored_flags';

export class VectorIndex {
  private readonly s: Record<string, Database.Statement>;
  private readonly knn = new Map<number, Database.Statement>();
  private readonly storedVectors: (rowids: readonly number[]) => StoredVector[];

  constructor(
    private readonly db: Database.Database,
    readonly model: string,
    readonly dims: number,
    log: Log,
  ) {
    sqliteVec.load(db);
    db.exec('CREATE TABLE IF NOT EXISTS main.vector_model (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID');
    const value = db.prepare(`SELECT value FROM main.vector_model WHERE key = ?`).pluck();
    const stored = { model: value.get('model') as string | undefined, format: value.get('format') as string | undefined };
    if (stored.model !== undefined && (stored.model !== model || stored.format !== STORAGE_FORMAT)) {
      log.info(
        `stored vectors are ${stored.model} in ${stored.format ?? 'an older format'}, this gate makes ${model} in ${STORAGE_FORMAT}: ` +
          'dropping them; every row is embedded again',
      );
      db.exec('DROP TABLE IF EXISTS main.vector_index; DROP TABLE IF EXISTS main.vector_codes; DROP TABLE IF EXISTS main.vector_values;');
    }
    db.exec(`
      CREATE VIRTUAL TABLE IF NOT EXISTS main.vector_index USING vec0(
        part text partition key, provisional integer, superseded integer, e int8[${dims}] distance_metric=cosine, chunk_size=${VEC0_CHUNK_ROWS});
      CREATE TABLE IF NOT EXISTS main.vector_codes (
        rowid INTEGER PRIMARY KEY, part TEXT NOT NULL, flags INTEGER NOT NULL, code BLOB NOT NULL);
      CREATE INDEX IF NOT EXISTS main.vector_codes_part ON vector_codes(part);
      CREATE TABLE IF NOT EXISTS main.vector_values (rowid INTEGER PRIMARY KEY, e BLOB NOT NULL);
    `);
    const remember = db.prepare(`INSERT INTO main.vector_model (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`);
    remember.run('model', model);
    remember.run('format', STORAGE_FORMAT);
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      vecInsert: p(`INSERT INTO main.vector_index (rowid, part, provisional, superseded, e) VALUES (?, ?, ?, ?, vec_int8(?))`),
      vecDelete: p('DELETE FROM main.vector_index WHERE rowid = ?'),
      vecFlags: p('UPDATE main.vector_index SET provisional = ?, superseded = ? WHERE rowid = ?'),
      valueGet: p('SELECT e FROM main.vector_values WHERE rowid = ?').pluck(),
      valuePut: p('INSERT INTO main.vector_values (rowid, e) VALUES (?, ?) ON CONFLICT(rowid) DO UPDATE SET e = excluded.e'),
      valueDelete: p('DELETE FROM main.vector_values WHERE rowid = ?'),
      codePut: p(`INSERT INTO main.vector_codes (rowid, part, flags, code) VALUES (?, ?, ?, ?)
        ON CONFLICT(rowid) DO UPDATE SET part = excluded.part, flags = excluded.flags, code = excluded.code`),
      codeMove: p('UPDATE main.vector_codes SET part = ?, flags = ? WHERE rowid = ?'),
      codeGet: p('SELECT rowid, part, flags FROM main.vector_codes WHERE rowid = ?'),
      codeWithBytes: p('SELECT rowid, part, flags, code FROM main.vector_codes WHERE rowid = ?'),
      codeDelete: p('DELETE FROM main.vector_codes WHERE rowid = ?'),
      counts: p('SELECT part, count(*) AS n FROM main.vector_codes GROUP BY part'),
      partition: p('SELECT rowid, flags, code FROM main.vector_codes WHERE part = ? AND rowid > ? ORDER BY rowid LIMIT ?'),
      // An erased row is no row to the vector index: it wants no vector, and a stored one is an orphan.
      row: p(`SELECT ${ARTIFACT_COLUMNS}, a.content_hash AS content_hash FROM main.artifacts a WHERE a.rowid = ? AND a.erased_seq IS NULL`),
      missing: p(`SELECT ${ARTIFACT_COLUMNS} FROM main.artifacts a
        WHERE a.state IN ('ACTIVE', 'SUPERSEDED', 'L1_SCANNED') AND a.erased_seq IS NULL AND a.rowid > ?
          AND NOT EXISTS (SELECT 1 FROM main.vector_codes c WHERE c.rowid = a.rowid)
        ORDER BY a.rowid LIMIT ?`),
      storedWithRow: p(`SELECT c.rowid AS rowid, c.part AS part, c.flags AS flags, a.state AS state, a.space AS space,
          a.writer_identity AS writer_identity, a.provisional AS provisional, a.rowid IS NULL AS orphan
        FROM main.vector_codes c LEFT JOIN main.artifacts a ON a.rowid = c.rowid AND a.erased_seq IS NULL
        WHERE c.rowid > ? ORDER BY c.rowid LIMIT ?`),
      served: p(`SELECT ${ARTIFACT_COLUMNS}, a.content_hash AS content_hash FROM main.artifacts a
        WHERE a.state IN ('ACTIVE', 'SUPERSEDED', 'L1_SCANNED') AND a.erased_seq IS NULL AND a.rowid > ? ORDER BY a.rowid LIMIT ?`),
      // With each row, its stored vector's placement: the embed stage asked it row by row after every commit.
      // An ingest leaves its row in L0_RAW, which wants no vector: the scan after it names the row again.
      touched: p(`SELECT DISTINCT ${ARTIFACT_COLUMNS}, ${STORED_COLUMNS} FROM main.journal j
          JOIN main.artifacts a ON a.artifact_id = j.artifact_id LEFT JOIN main.vector_codes c ON c.rowid = a.rowid
        WHERE j.seq > ? AND j.seq <= ? AND j.artifact_id IS NOT NULL AND j.type != 'ingest' AND a.erased_seq IS NULL`),
      // A batch of rows (a JSON array of rowids) with their content hash and stored placement, in one statement.
      rows: p(`SELECT ${ARTIFACT_COLUMNS}, a.content_hash AS content_hash, ${STORED_COLUMNS} FROM json_each(?) j
          JOIN main.artifacts a ON a.rowid = j.value LEFT JOIN main.vector_codes c ON c.rowid = a.rowid
        WHERE a.erased_seq IS NULL`),
    };
    this.storedVectors = storedVectorsReader(db);
  }

  /** The row's current artifacts columns, with its content hash. */
  row(rowid: number): (PlacedRow & { content_hash: string }) | undefined {
    return this.s.row!.get(rowid) as (PlacedRow & { content_hash: string }) | undefined;
  }

  /** These rows as row() answers them, each beside its stored placement; rows erased or gone are left out. */
  rows(rowids: readonly number[]): Map<number, RowAndVector & { content_hash: string }> {
    const found = this.s.rows!.all(JSON.stringify(rowids)) as Array<RowAndVector & { content_hash: string }>;
    return new Map(found.map((r) => [r.rowid, r]));
  }

  stored(rowid: number): StoredPlacement | undefined {
    return this.s.codeGet!.get(rowid) as StoredPlacement | undefined;
  }

  storedWithCode(rowid: number): (StoredPlacement & { code: Uint8Array }) | undefined {
    const r = this.s.codeWithBytes!.get(rowid) as (StoredPlacement & { code: Buffer }) | undefined;
    return r === undefined ? undefined : { ...r, code: new Uint8Array(r.code.buffer, r.code.byteOffset, r.code.byteLength) };
  }

  /** Runs `work` in one transaction of its own (at start, before the journal writer takes over). */
  transaction(work: () => void): void {
    this.db.transaction(work)();
  }

  vector(rowid: number): Int8Array | undefined {
    const bytes = this.s.valueGet!.get(rowid) as Buffer | undefined;
    return bytes === undefined ? undefined : new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** The stored vectors of these rows; rows without one are left out. */
  vectors(rowids: readonly number[]): StoredVector[] {
    return this.storedVectors(rowids);
  }

  /**
   * Stores (or replaces) a row's vector and code under a placement. Call inside a
   * transaction. `replacing`: the row has a stored vector (vector_codes and vector_index
   * are written together); a new row skips vec0's delete, a lookup that found nothing and
   * cost ~24 µs an ingest.
   */
  put(rowid: number, vector: Int8Array, code: Uint8Array, at: Placement, replacing = true): void {
    const id = BigInt(rowid);
    if (replacing) this.s.vecDelete!.run(id);
    this.s.vecInsert!.run(id, at.part, ...metadata(at.flags), bytesOf(vector));
    this.s.codePut!.run(rowid, at.part, at.flags, bytesOf(code));
    this.s.valuePut!.run(rowid, bytesOf(vector));
  }

  /** Gives a stored row a new placement; vec0 cannot update a partition key, so a new partition is a delete and an insert. */
  place(rowid: number, from: Placement, to: Placement): void {
    const id = BigInt(rowid);
    if (from.part === to.part) {
      this.s.vecFlags!.run(...metadata(to.flags), id);
    } else {
      const vector = this.vector(rowid);
      if (vector === undefined) throw new Error(`vector ${rowid} is in vector_codes but not in vector_values`);
      this.s.vecDelete!.run(id);
      this.s.vecInsert!.run(id, to.part, ...metadata(to.flags), bytesOf(vector));
    }
    this.s.codeMove!.run(to.part, to.flags, rowid);
  }

  remove(rowid: number): void {
    this.s.vecDelete!.run(BigInt(rowid));
    this.s.codeDelete!.run(rowid);
    this.s.valueDelete!.run(rowid);
  }

  partitionCounts(): Map<string, number> {
    return new Map((this.s.counts!.all() as Array<{ part: string; n: number }>).map((r) => [r.part, r.n]));
  }

  /** A partition's codes in rowid order, a chunk at a time. */
  *partitionCodes(part: string, chunk = 10000): Generator<CodeRow[]> {
    for (let after = 0; ; ) {
      const rows = this.s.partition!.all(part, after, chunk) as CodeRow[];
      if (rows.length === 0) return;
      yield rows;
      after = rows[rows.length - 1]!.rowid;
    }
  }

  /** Rows that want a vector and have none, in rowid order, a chunk at a time. */
  *missing(chunk = 10000): Generator<PlacedRow[]> {
    for (let after = 0; ; ) {
      const rows = this.s.missing!.all(after, chunk) as PlacedRow[];
      if (rows.length === 0) return;
      yield rows;
      after = rows[rows.length - 1]!.rowid;
    }
  }

  /** Every stored row beside its current artifacts columns (orphan: no such artifact), a chunk at a time. */
  *storedRows(chunk = 10000): Generator<Array<StoredPlacement & PlacedRow & { orphan: number }>> {
    for (let after = 0; ; ) {
      const rows = this.s.storedWithRow!.all(after, chunk) as Array<StoredPlacement & PlacedRow & { orphan: number }>;
      if (rows.length === 0) return;
      yield rows;
      after = rows[rows.length - 1]!.rowid;
    }
  }

  /** Every row that wants a vector, with its content hash, a chunk at a time (gv.rebuild's check). */
  *rowsWantingVectors(chunk = 1000): Generator<Array<PlacedRow & { content_hash: string }>> {
    for (let after = 0; ; ) {
      const rows = this.s.served!.all(after, chunk) as Array<PlacedRow & { content_hash: string }>;
      if (rows.length === 0) return;
      yield rows;
      after = rows[rows.length - 1]!.rowid;
    }
  }

  /** The rows named by journal events in (after, last]: what a commit may have moved. */
  touched(after: number, last: number): RowAndVector[] {
    return this.s.touched!.all(after, last) as RowAndVector[];
  }

  /**
   * Exact cosine KNN inside one partition (sqlite-vec scans it whole), skipping provisional
   * and superseded rows as `skip` says. Distance is 1 - cosine.
   */
  nearest(part: string, query: Int8Array, k: number, skip: number): Array<{ rowid: number; distance: number }> {
    let statement = this.knn.get(skip);
    if (!statement) {
      const filters = [
        ...(skip & FLAG_PROVISIONAL ? [' AND provisional = 0'] : []),
        ...(skip & FLAG_SUPERSEDED ? [' AND superseded = 0'] : []),
      ].join('');
      statement = this.db.prepare(
        `SELECT rowid, distance FROM main.vector_index WHERE e MATCH vec_int8(?) AND k = ? AND part = ?${filters}`,
      );
      this.knn.set(skip, statement);
    }
    return statement.all(bytesOf(query), k, part) as Array<{ rowid: number; distance: number }>;
  }
}

const bytesOf = (v: ArrayBufferView) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
/** vec0's integer metadata columns refuse a JavaScript number (bound as a float), so the flags go as BigInts. */
const metadata = (flags: number): [bigint, bigint] => [flags & FLAG_PROVISIONAL ? 1n : 0n, flags & FLAG_SUPERSEDED ? 1n : 0n];
