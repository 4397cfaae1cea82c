import type { Piscina } from 'piscina';
import PQueue from 'p-queue';
import type Database from 'better-sqlite3';
import type { JournalWriter } from '../src/journal/group-commit.js';
import type { CommitFollower, CommittedRange } from '../src/journal/followers.js';
import type { Log } from '../src/log.js';
import type { PartitionCodes, PlacementChange } from '../src/recall/partition-codes.js';
import { isZero } from '../workers/embed/quantize.js';
import type { FreshBodies } from '../src/recall/fresh-bodies.js';
import { FLAG_EMPTY, placementOf, storedOf, wantsVector, type Placement, type RowAndVector, type VectorIndex } from '../src/recall/vector-index.js';
import { backendDims, backendLabel, quantizedLayout, type EmbedBackend, type EmbedTask } from '../workers/embed/backend.js';
import { packTexts } from '../workers/packed-texts.js';
import { hashedNgrams, type WordWeights } from '../workers/embed/hashed-ngrams.js';
import { waitedMs, waitStart, type QueueReading } from './queue-reading.js';
import { newPool } from '../src/threads.js';

export interface EmbedStageOptions {
  backend: EmbedBackend;
  threads: number;
  batchMax: number;
}

export interface VectorCheck {
  model: string;
  /** Rows that want a vector (served, or held in L1_SCANNED) whose vector was recomputed. */
  checked: number;
  /** Stored vectors equal, byte for byte, to the recomputed ones. */
  equal: number;
  /** Rows that had no vector. */
  missing: number;
  /** Vectors written from the recomputation (the missing and the differing ones). */
  rewritten: number;
  /** Rows the backend could not embed (left as they were and queued again). */
  failed: number;
  ms: number;
}

/** A failed batch is retried after this long, doubling up to the cap, so a dead backend is not hammered. */
const RETRY_FIRST_MS = 5_000;
const RETRY_CAP_MS = 300_000;
/** A catch-up of more rows than this logs its progress every PROGRESS_MS (every catch-up logs its end). */
const PROGRESS_ROWS = 2_000;
const PROGRESS_MS = 10_000;
/**
 * Embedded vectors are written together, up to this many or this long after the first
 * waits: vec0 keeps one chunk per partition (a held partition per writer), so a write of a
 * commit's dozen rows dirtied ~5 pages a vector (chunk vectors, rowids, validity, two
 * metadata columns), ~45 of the ~150 pages each group commit wrote to the WAL; rows
 * written together share those pages. Recall already counts rows waiting for a vector.
 */
const WRITE_BATCH = 512;
const WRITE_LINGER_MS = 100;
/**
 * Rows wait this long for others before going to the pool, unless a whole batch is queued:
 * each pool task wakes a worker (piscina's postTask, ~4% of the main thread under ingest when
 * every group commit's dozen rows went on their own), and a vector is derived after the
 * answer, so nothing waits for it but recall's count of rows without one.
 */
const EMBED_LINGER_MS = 25;

const sameArrays = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};
const samePlacement = (a: Placement, b: Placement) => a.part === b.part && a.flags === b.flags;

/** A row's vector as it is stored, quantized in the pool: int8 values and their sign code. */
interface Embedded {
  vector: Int8Array;
  code: Uint8Array;
}

/**
 * The embed stage: rows that enter ACTIVE (served) or L1_SCANNED (held, for their writer's
 * recall) are embedded in the Piscina embed pool after their commit and written into the
 * vector index, which is derived like the FTS tables and never journaled. The journal
 * writer announces each commit, so the stage follows the journal without polling it; at
 * start a catch-up finds every row that wants a vector and has none (a crash between a
 * commit and its embedding, or a new model label), so nothing is lost. Rows moving between
 * served, held and parked keep their vector and only change partition. The queue holds
 * rowids of rows already durable in the journal, so it needs no refusal of its own: it is
 * bounded by the rows that want a vector, and ingest is bounded upstream (scan queue,
 * quarantine depth); a backlog only delays vectors, and a restart finds it again.
 */
export class EmbedStage implements CommitFollower {
  private readonly pool: Piscina;
  private readonly tasks: PQueue;
  /**
   * Rows waiting to be embedded, in arrival order (a Map keeps insertion order and drops
   * repeats), each with when it began to wait (waitStart), kept through a failed attempt.
   */
  private readonly queued = new Map<number, number>();
  /** Rows whose embedding or write failed, waiting for the retry, with when they began to wait. */
  private readonly failed = new Map<number, number>();
  private inFlight = 0;
  /** Embedded, not yet written: the next vector write carries them all. */
  private unwritten: Array<Embedded & { rowid: number; since: number }> = [];
  private readonly unwrittenIds = new Set<number>();
  /**
   * Stored rows whose move to another partition (a promotion, a demotion) is on its way: from
   * the commit that moved the row until the placement is written and mirrored in memory. A
   * count per row, since a row may move again before its first move lands.
   */
  private readonly moving = new Map<number, number>();
  private writeTimer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private retryMs = RETRY_FIRST_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private dispatchQueued = false;
  private lingerTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private catchUp: { total: number; done: number; started: number; lastLog: number } | null = null;
  private readonly blob: Database.Statement;
  readonly model: string;
  readonly dims: number;

  constructor(
    db: Database.Database,
    private readonly index: VectorIndex,
    private readonly codes: PartitionCodes,
    private readonly writer: JournalWriter,
    private readonly log: Log,
    private readonly options: EmbedStageOptions,
    private readonly fresh: FreshBodies,
  ) {
    this.model = backendLabel(options.backend);
    this.dims = backendDims(options.backend);
    this.blob = db.prepare('SELECT bytes FROM main.blobs WHERE hash = ?').pluck();
    this.pool = newPool({
      entry: new URL('../workers/embed/pool-entry.js', import.meta.url),
      minThreads: options.threads,
      maxThreads: options.threads,
      idleTimeout: Infinity,
      // A remote backend mostly waits on the network, so a thread can carry a query beside a batch.
      concurrentTasksPerWorker: options.backend.kind === 'openai' ? 4 : 1,
    });
    this.tasks = new PQueue({ concurrency: options.threads });
  }

  /**
   * Brings the stored placements in line with the artifacts view, loads the codes of the
   * large partitions, queues every row still without a vector, and from then on follows
   * the writer's commits. Synchronous up to the queueing: a recall right after start
   * sees every stored vector where it belongs.
   */
  start(): void {
    const started = performance.now();
    let moved = 0;
    for (const rows of this.index.storedRows()) {
      this.index.transaction(() => {
        for (const r of rows) {
          if (r.orphan === 1) {
            this.index.remove(r.rowid);
            moved++;
            continue;
          }
          const to = placementOf(r, (r.flags & FLAG_EMPTY) !== 0);
          if (samePlacement(r, to)) continue;
          this.index.place(r.rowid, r, to);
          moved++;
        }
      });
    }
    this.codes.load();
    let missing = 0;
    for (const rows of this.index.missing()) {
      for (const r of rows) this.queued.set(r.rowid, waitStart());
      missing += rows.length;
    }
    const ms = Math.round(performance.now() - started);
    // Said at info when the start found work (a catch-up follows, or vectors moved); a check with nothing to do is a debug line.
    const found = `vector index (${this.model}): ${this.codes.searchable} searchable vectors, ${moved} re-placed, ${missing} rows to embed (checked in ${ms} ms)`;
    if (moved > 0 || missing > 0) this.log.info(found);
    else this.log.debug(found);
    if (missing > 0) this.catchUp = { total: missing, done: 0, started: performance.now(), lastLog: performance.now() };
    this.writer.follow(this);
    this.schedule();
  }

  /** Rows waiting for a vector (queued, being embedded, or waiting to retry) or for their vector's move to another partition. */
  get pending(): number {
    return this.queued.size + this.inFlight + this.unwritten.length + this.failed.size + this.moving.size;
  }

  /**
   * Of these rows, those whose vector is not yet where a search finds it: waiting to be
   * embedded or written (a write's placement counts once it is mirrored in memory), or
   * stored and moving to the partition their state puts them in.
   */
  unplaced(rowids: readonly number[]): number[] {
    return rowids.filter((r) => this.queued.has(r) || this.unwrittenIds.has(r) || this.failed.has(r) || this.moving.has(r));
  }

  /** Rows whose embedding or write failed and wait for the retry: the embedding backend is failing while any do. */
  get failing(): number {
    return this.failed.size;
  }

  /**
   * gv.queues: rows waiting for a vector (first tries and retries) and rows in the pool or
   * waiting for their write. No bound of its own: the queue holds rows already in the journal.
   */
  reading(): QueueReading {
    // A whole pass: a retried row rejoins the queue behind younger ones with its first age.
    let oldest: number | undefined;
    for (const waits of [this.queued, this.failed]) {
      for (const since of waits.values()) if (oldest === undefined || since < oldest) oldest = since;
    }
    return {
      queued: this.queued.size + this.failed.size,
      running: this.inFlight + this.unwritten.length,
      threads: this.options.threads,
      bound: null,
      room: null,
      oldest_wait_ms: waitedMs(oldest),
    };
  }

  /**
   * A query's vector: the local embedding is microseconds of hashing, done here so a query
   * never waits behind a batch in the pool. `weights` weigh the query's words in the local
   * embedding (another backend embeds the text as it is).
   */
  async embedQuery(text: string, weights?: WordWeights): Promise<Float32Array> {
    if (this.options.backend.kind === 'local') return hashedNgrams(text, this.options.backend.scheme, weights);
    const [v] = await this.embedFloats([Buffer.from(text, 'utf8')]);
    return v!;
  }

  /** Rows a search found where they no longer belong: re-placed (or embedded) as a commit would have. */
  misplaced(rowids: readonly number[]): void {
    if (this.closed) return;
    const rows = this.index.rows(rowids);
    this.reconcile(rowids.map((rowid) => rows.get(rowid) ?? rowid));
  }

  committed(range: CommittedRange): void {
    if (this.closed) return;
    try {
      this.reconcile(this.index.touched(range.after, range.last));
    } catch (error) {
      this.log.error(`embed stage: reading commit ${range.after + 1}-${range.last}`, error);
    }
  }

  /** Queues rows that want a vector and have none; re-places stored ones whose state moved (a bare rowid: the row is gone). */
  private reconcile(rows: ReadonlyArray<RowAndVector | number>): void {
    const moves: number[] = [];
    for (const row of rows) {
      const rowid = typeof row === 'number' ? row : row.rowid;
      const stored = typeof row === 'number' ? this.index.stored(rowid) : storedOf(row);
      if (stored === undefined) {
        // A vector on its way is placed by the row's state when it is written.
        if (this.queued.has(rowid) || this.unwrittenIds.has(rowid)) continue;
        if (typeof row !== 'number' && wantsVector(row.state)) this.queued.set(rowid, waitStart());
      } else if (typeof row === 'number' || !samePlacement(stored, placementOf(row, (stored.flags & FLAG_EMPTY) !== 0))) {
        // Stored already, even when its write is not yet answered: a write committed in the same
        // transaction as the move placed it by the state before the move, so it moves now.
        moves.push(rowid);
      }
    }
    if (moves.length > 0) {
      for (const rowid of moves) this.moving.set(rowid, (this.moving.get(rowid) ?? 0) + 1);
      void this.settle(moves);
    }
    this.schedule();
  }

  /**
   * Inside the writer's transaction of an erasure: drops the row's vector, a derived copy of
   * its words (vec0 zeroes the slot). Answers the change for the in-memory codes, to be
   * given to `dropped` once the write commits.
   */
  dropVector(rowid: number): PlacementChange | null {
    const stored = this.index.storedWithCode(rowid);
    if (stored === undefined) return null;
    this.index.remove(rowid);
    return { rowid, from: stored, to: null, code: stored.code };
  }

  /** The codes in memory follow vectors dropped by a committed write. */
  dropped(changes: readonly PlacementChange[]): void {
    this.codes.apply(changes);
  }

  /** Makes each stored row's placement match its current state, in one journal-writer transaction. */
  private async settle(rowids: readonly number[]): Promise<void> {
    try {
      const changes = await this.writer.write(() => {
        const out: PlacementChange[] = [];
        for (const rowid of rowids) {
          const stored = this.index.storedWithCode(rowid);
          if (stored === undefined) continue;
          const row = this.index.row(rowid);
          if (row === undefined) {
            this.index.remove(rowid);
            out.push({ rowid, from: stored, to: null, code: stored.code });
            continue;
          }
          const to = placementOf(row, (stored.flags & FLAG_EMPTY) !== 0);
          if (samePlacement(stored, to)) continue;
          this.index.place(rowid, stored, to);
          out.push({ rowid, from: stored, to, code: stored.code });
        }
        return out;
      });
      this.codes.apply(changes);
    } catch (error) {
      this.log.error(`embed stage: re-placing ${rowids.length} vectors`, error);
    } finally {
      for (const rowid of rowids) {
        const n = this.moving.get(rowid) ?? 0;
        if (n <= 1) this.moving.delete(rowid);
        else this.moving.set(rowid, n - 1);
      }
    }
  }

  private schedule(): void {
    if (this.dispatchQueued || this.closed) return;
    // Fewer than a batch, and not catching up at start: wait for more rows to share the task.
    if (this.queued.size < this.options.batchMax && this.catchUp === null) {
      this.lingerTimer ??= setTimeout(() => {
        this.lingerTimer = null;
        this.dispatch();
      }, EMBED_LINGER_MS);
      return;
    }
    if (this.lingerTimer !== null) clearTimeout(this.lingerTimer);
    this.lingerTimer = null;
    this.dispatchQueued = true;
    setImmediate(() => {
      this.dispatchQueued = false;
      this.dispatch();
    });
  }

  private dispatch(): void {
    if (this.closed || this.queued.size === 0 || this.tasks.size + this.tasks.pending >= this.options.threads) return;
    // What queued meanwhile goes once a batch is full or has waited its linger (schedule), not
    // at once: each task's own round trip would otherwise set the batch size (a row or two).
    void this.tasks.add(() => this.runBatch()).then(() => this.schedule());
  }

  private async runBatch(): Promise<void> {
    const taken: Array<[rowid: number, since: number]> = [];
    for (const entry of this.queued) {
      this.queued.delete(entry[0]);
      taken.push(entry);
      if (taken.length === this.options.batchMax) break;
    }
    // The rows as they are now, in one statement; an erased row is not among them.
    const rows = this.index.rows(taken.map(([rowid]) => rowid));
    const batch: Array<{ rowid: number; bytes: Uint8Array; since: number }> = [];
    for (const [rowid, since] of taken) {
      const row = rows.get(rowid);
      if (row === undefined || !wantsVector(row.state) || row.stored_part !== null) continue;
      const bytes = this.bytesOf(row.content_hash);
      if (bytes === undefined) continue;
      batch.push({ rowid, bytes, since });
    }
    if (batch.length === 0) return this.progress(0);
    this.inFlight += batch.length;
    let vectors: Embedded[];
    try {
      vectors = await this.embedRows(batch.map((b) => b.bytes));
    } catch (error) {
      this.log.error(`embed stage: ${batch.length} rows not embedded (retried in ${Math.round(this.retryMs / 1000)} s)`, error);
      for (const b of batch) this.failed.set(b.rowid, b.since);
      this.retryLater();
      return;
    } finally {
      this.inFlight -= batch.length;
    }
    this.retryMs = RETRY_FIRST_MS;
    batch.forEach((b, i) => {
      this.unwritten.push({ rowid: b.rowid, ...vectors[i]!, since: b.since });
      this.unwrittenIds.add(b.rowid);
    });
    if (this.unwritten.length >= WRITE_BATCH || this.closed) void this.writeUnwritten();
    else this.writeTimer ??= setTimeout(() => void this.writeUnwritten(), WRITE_LINGER_MS);
  }

  /** Writes every embedded vector waiting, in one journal-writer transaction. */
  private writeUnwritten(): Promise<void> {
    if (this.writeTimer !== null) clearTimeout(this.writeTimer);
    this.writeTimer = null;
    const batch = this.unwritten;
    if (batch.length === 0) return this.writing;
    this.unwritten = [];
    this.inFlight += batch.length;
    const written = this.writer
      .write(() => this.store(batch))
      .then(
        (changes) => {
          this.codes.apply(changes);
          this.progress(batch.length);
        },
        (error: unknown) => {
          this.log.error(`embed stage: storing ${batch.length} vectors`, error);
          for (const b of batch) this.failed.set(b.rowid, b.since);
          this.retryLater();
        },
      )
      .finally(() => {
        this.inFlight -= batch.length;
        for (const b of batch) this.unwrittenIds.delete(b.rowid);
      });
    this.writing = this.writing.then(() => written);
    return written;
  }

  /**
   * Writes new vectors where their rows now belong (inside the writer's transaction; safe to
   * run again): the rows and their stored placements read in one statement; a row erased or
   * gone since it was embedded gets none.
   */
  private store(vectors: ReadonlyArray<Embedded & { rowid: number }>): PlacementChange[] {
    const rows = this.index.rows(vectors.map((b) => b.rowid));
    // A row embedded twice (queued again while in the pool) is written twice: the second replaces the first.
    const written = new Map<number, Placement>();
    const changes: PlacementChange[] = [];
    for (const { rowid, vector, code } of vectors) {
      const row = rows.get(rowid);
      if (row === undefined) continue;
      const from = written.get(rowid) ?? storedOf(row) ?? null;
      const to = placementOf(row, isZero(vector));
      this.index.put(rowid, vector, code, to, from !== null);
      written.set(rowid, to);
      changes.push({ rowid, from, to, code });
    }
    return changes;
  }

  /** A body's bytes: the ingest's own when still at hand, else the content store's (undefined: gone with an erasure). */
  private bytesOf(contentHash: string): Uint8Array | undefined {
    return this.fresh.get(contentHash) ?? (this.blob.get(contentHash) as Buffer | undefined);
  }

  /** Texts through the pool as floats (a query); throws when the backend fails or answers something that is not vectors. */
  private async embedFloats(texts: readonly Uint8Array[]): Promise<Float32Array[]> {
    const out = new Float32Array(await this.runTask(texts, false));
    if (out.length !== texts.length * this.dims) throw new Error(`the embed pool answered ${out.length} floats for ${texts.length} texts`);
    return texts.map((_, i) => out.subarray(i * this.dims, (i + 1) * this.dims));
  }

  /** Rows' texts through the pool, answered as stored (int8 and sign code, quantized in the worker). */
  private async embedRows(texts: readonly Uint8Array[]): Promise<Embedded[]> {
    const out = await this.runTask(texts, true);
    const layout = quantizedLayout(texts.length, this.dims);
    if (out.byteLength !== layout.total) throw new Error(`the embed pool answered ${out.byteLength} bytes for ${texts.length} quantized vectors`);
    const codesAt = texts.length * this.dims;
    return texts.map((_, i) => ({
      vector: new Int8Array(out, i * this.dims, this.dims),
      code: new Uint8Array(out, codesAt + i * layout.codeBytes, layout.codeBytes),
    }));
  }

  /** One pool task: the texts packed into one buffer and moved to the worker, its answer moved back. */
  private async runTask(texts: readonly Uint8Array[], quantized: boolean): Promise<ArrayBuffer> {
    const packed = packTexts(texts);
    const task: EmbedTask = { backend: this.options.backend, texts: packed, ...(quantized ? { quantized } : {}) };
    return (await this.pool.run(task, { transferList: [packed.bytes] })) as ArrayBuffer;
  }

  private retryLater(): void {
    if (this.retryTimer !== null || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      for (const [rowid, since] of this.failed) this.queued.set(rowid, since);
      this.failed.clear();
      this.schedule();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(RETRY_CAP_MS, this.retryMs * 2);
  }

  /** `rows`: vectors just written (their write still counted in flight), or 0 after an empty batch. */
  private progress(rows: number): void {
    const c = this.catchUp;
    if (c === null) return;
    c.done += rows;
    const now = performance.now();
    // Other batches may still be embedding or waiting for their write (a write settles after its fsync).
    const othersBusy = this.inFlight > rows || this.unwritten.length > 0;
    if (c.done >= c.total || (!othersBusy && this.queued.size === 0 && this.failed.size === 0)) {
      this.log.info(`vector catch-up done: ${c.done} rows embedded in ${Math.round((now - c.started) / 1000)} s`);
      this.catchUp = null;
    } else if (c.total > PROGRESS_ROWS && now - c.lastLog >= PROGRESS_MS) {
      c.lastLog = now;
      const rate = c.done / ((now - c.started) / 1000);
      this.log.info(`vector catch-up: ${c.done} of ${c.total} rows embedded (${Math.round(rate)}/s, about ${Math.round((c.total - c.done) / rate)} s left)`);
    }
  }

  /**
   * gv.rebuild's check of the vector index: every row that wants a vector is embedded again
   * in the pool and compared, byte for byte, with its stored int8 vector; missing and
   * differing vectors are rewritten.
   */
  async verify(): Promise<VectorCheck> {
    const started = performance.now();
    const check: VectorCheck = { model: this.model, checked: 0, equal: 0, missing: 0, rewritten: 0, failed: 0, ms: 0 };
    for (const rows of this.index.rowsWantingVectors(this.options.batchMax * this.options.threads * 4)) {
      const batches: Array<typeof rows> = [];
      for (let i = 0; i < rows.length; i += this.options.batchMax) batches.push(rows.slice(i, i + this.options.batchMax));
      await Promise.all(
        batches.map((batch) =>
          this.tasks.add(async () => {
            const withBytes = batch
              // The content store's bytes, not the ingest's: this is the check of what is stored.
              .map((r) => ({ rowid: r.rowid, bytes: this.blob.get(r.content_hash) as Buffer | undefined }))
              .filter((r): r is { rowid: number; bytes: Buffer } => r.bytes !== undefined);
            let vectors: Embedded[];
            try {
              vectors = await this.embedRows(withBytes.map((r) => r.bytes));
            } catch (error) {
              this.log.error(`gv.rebuild: ${withBytes.length} rows could not be embedded`, error);
              check.failed += withBytes.length;
              for (const r of withBytes) this.failed.set(r.rowid, waitStart());
              this.retryLater();
              return;
            }
            const differing: Array<Embedded & { rowid: number }> = [];
            withBytes.forEach((r, i) => {
              check.checked++;
              const stored = this.index.vector(r.rowid);
              if (stored === undefined) check.missing++;
              else if (sameArrays(stored, vectors[i]!.vector)) {
                check.equal++;
                return;
              }
              differing.push({ rowid: r.rowid, ...vectors[i]! });
            });
            if (differing.length === 0) return;
            const changes = await this.writer.write(() => this.store(differing));
            this.codes.apply(changes);
            check.rewritten += changes.length;
          }),
        ),
      );
    }
    check.ms = Math.round(performance.now() - started);
    return check;
  }

  /**
   * Stops taking work, lets the batches in the pool finish and their vectors reach the
   * writer, then stops the pool. Rows still queued are left to the next start's catch-up.
   */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    if (this.lingerTimer !== null) clearTimeout(this.lingerTimer);
    await this.tasks.onIdle();
    await this.writeUnwritten();
    await this.writing;
    const left = this.queued.size + this.failed.size;
    if (left > 0) this.log.info(`embed stage stopped with ${left} rows to embed; the next start embeds them`);
    await this.pool.destroy();
  }
}
