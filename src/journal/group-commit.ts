import type Database from 'better-sqlite3';
import type { Journal } from './journal.js';
import type { WalSync } from './wal-sync.js';
import type { CommitFollower, CommittedRange, WritePressure } from './followers.js';

interface Pending<T> {
  work: () => T;
  signLater: boolean;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/**
 * A write in a fast batch refused: the batch is rolled back and replayed write by write,
 * where the refusing write refuses again and is answered with its own error.
 */
class BatchNeedsCare extends Error {
  constructor() {
    super('a write in the batch refused');
  }
}

export interface WriteOptions {
  /**
   * The work's events are signed on the signing thread while the batch's other writes run
   * (Journal.signingLater): only for work that reads no journal row, since its own rows are
   * inserted just before the next write that does not sign later, or before COMMIT.
   */
  signLater?: boolean;
  /**
   * A derived index's own write (the held index written on this connection): never held back
   * by `pressure`, which may be waiting for that very write.
   */
  derived?: boolean;
}

export interface GroupCommitOptions {
  maxBatch: number;
  /** Under load, commits are at least this far apart, so each fsync carries more writes. */
  windowMs: number;
  /** Where a commit follower's exception goes; the commit it was told of has landed regardless. */
  onListenerError?: (error: unknown) => void;
  /**
   * With synchronous = full: the off-thread WAL fsync a commit's writes wait for before
   * they are answered and its followers told. Without it, a commit is answered when SQLite
   * returns from it.
   */
  walSync?: WalSync;
}

/**
 * Group commit: writes share one SQLite transaction (one fsync) and each is answered only
 * after that transaction commits. When the journal has been idle the batch commits on the
 * next turn of the event loop; under load, commits are spaced by the window so one fsync
 * carries many writes (docs/performance.md#floors: ~5,500 commits/s with fsync against ~160,000 appends/s
 * batched). A write's refusal rolls back only that write: the batch is replayed with a
 * savepoint per write. Writes must therefore be functions of the database alone, safe to
 * run again after a rollback.
 */
export class JournalWriter {
  private queue: Pending<unknown>[] = [];
  private readonly followers: CommitFollower[] = [];
  private readonly pressures: WritePressure[] = [];
  private timer: { cancel: () => void } | null = null;
  private closed = false;
  private lastCommitAt = 0;
  /** Values and refusals writes settled with, each computed in a commit that was durable when it was told. */
  private readonly toldDurable = new WeakSet<object>();
  private readonly savepoint: Database.Statement;
  private readonly release: Database.Statement;
  private readonly rollbackTo: Database.Statement;
  private readonly fast: Database.Transaction<(batch: Pending<unknown>[]) => Array<{ ok: boolean; value: unknown }>>;
  private readonly careful: Database.Transaction<(batch: Pending<unknown>[]) => Array<{ ok: boolean; value: unknown }>>;

  constructor(
    db: Database.Database,
    private readonly journal: Journal,
    private readonly options: GroupCommitOptions,
  ) {
    this.savepoint = db.prepare('SAVEPOINT write');
    this.release = db.prepare('RELEASE write');
    this.rollbackTo = db.prepare('ROLLBACK TO write');
    // Savepoints cost (each makes FTS5 flush its pending index), so a batch first runs
    // without them; a refusal inside it rolls the whole batch back to run carefully.
    // Rows whose signatures the signing thread makes are written before any write that does
    // not sign later and before COMMIT, outside any savepoint: their failure fails the commit.
    const inBatch = (runItem: (item: Pending<unknown>) => { ok: boolean; value: unknown }) =>
      db.transaction((batch: Pending<unknown>[]) => {
        const results = batch.map((item) => {
          if (!item.signLater) journal.writeDeferred();
          return runItem(item);
        });
        journal.writeDeferred();
        return results;
      });
    this.fast = inBatch((item) => {
      try {
        return { ok: true, value: this.run(item) };
      } catch {
        throw new BatchNeedsCare();
      }
    });
    this.careful = inBatch((item) => this.runOne(item));
  }

  private run(item: Pending<unknown>): unknown {
    return item.signLater ? this.journal.signingLater(item.work) : item.work();
  }

  private commit(batch: Pending<unknown>[]): Array<{ ok: boolean; value: unknown }> {
    const head = this.journal.chainHead;
    try {
      return this.fast(batch);
    } catch (error) {
      if (!(error instanceof BatchNeedsCare)) throw error;
      this.journal.resetHead(head);
      return this.careful(batch);
    }
  }

  private runOne(item: Pending<unknown>): { ok: boolean; value: unknown } {
    const head = this.journal.chainHead;
    this.savepoint.run();
    try {
      const value = this.run(item);
      this.release.run();
      return { ok: true, value };
    } catch (error) {
      this.rollbackTo.run();
      this.release.run();
      this.journal.resetHead(head);
      return { ok: false, value: error };
    }
  }

  /**
   * Tells `follower` of every commit that appended journal events, after it commits, so a
   * derived index (vectors) follows the journal without polling it. A rolled-back write
   * never appears: a refused write resets the chain head, so the seqs it used are
   * reused by the next write, and a failed commit announces nothing.
   */
  follow(follower: CommitFollower): void {
    this.followers.push(follower);
  }

  /**
   * A derived index written beside the writer (the held index's thread) that fell too far
   * behind holds the writes that would give it more to do (HeldTextIndex.pressure).
   */
  holdWritesFor(pressure: WritePressure): void {
    this.pressures.push(pressure);
  }

  private announce(range: CommittedRange): void {
    for (const follower of this.followers) {
      try {
        follower.committed(range);
      } catch (error) {
        this.options.onListenerError?.(error);
      }
    }
  }

  private held(): Promise<void> | undefined {
    for (const p of this.pressures) {
      const held = p.pressure();
      if (held !== undefined) return held;
    }
    return undefined;
  }

  /** Runs `work` inside the next group transaction; resolves after the commit (and its sync). */
  write<T>(work: () => T, options: WriteOptions = {}): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the journal writer is closed'));
    const failure = this.options.walSync?.failure;
    if (failure) return Promise.reject(failure);
    const held = options.derived === true ? undefined : this.held();
    if (held !== undefined) return held.then(() => this.write(work, options));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, signLater: options.signLater === true, resolve, reject } as Pending<unknown>);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.timer !== null) return;
    const wait = this.lastCommitAt + this.options.windowMs - performance.now();
    if (wait > 0) {
      const t = setTimeout(() => this.flush(), wait);
      this.timer = { cancel: () => clearTimeout(t) };
    } else {
      const i = setImmediate(() => this.flush());
      this.timer = { cancel: () => clearImmediate(i) };
    }
  }

  /** Commits everything queued now; also used by shutdown and before a rebuild. */
  flush(): void {
    this.timer?.cancel();
    this.timer = null;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      const after = this.journal.chainHead.seq;
      let results: Array<{ ok: boolean; value: unknown }>;
      try {
        results = this.commit(batch);
      } catch (error) {
        // The commit itself failed (disk full, I/O error): nothing of the batch landed.
        this.journal.resetHead();
        for (const item of batch) item.reject(error);
        continue;
      } finally {
        this.lastCommitAt = performance.now();
      }
      const last = this.journal.chainHead.seq;
      const settle = (syncError: Error | null) => {
        if (syncError === null && last > after) this.announce({ after, last });
        batch.forEach((item, i) => {
          const r = results[i]!;
          if (syncError !== null) return item.reject(syncError);
          if (typeof r.value === 'object' && r.value !== null) this.toldDurable.add(r.value);
          if (r.ok) item.resolve(r.value);
          else item.reject(r.value);
        });
      };
      const sync = this.options.walSync;
      if (sync === undefined) settle(null);
      else {
        sync.committed();
        sync.after(settle);
      }
    }
  }

  /**
   * Resolves once every commit made so far is durable: an answer computed from the views
   * waits for it, so nothing is told of a write that a power cut could still undo. An
   * answer that is the very value (or refusal) a write settled with was computed inside
   * that write's transaction, and writes settle only once durable: it need not wait again
   * for commits made after it.
   */
  durable(answer?: unknown): Promise<void> | undefined {
    const sync = this.options.walSync;
    if (sync === undefined || !(sync.pending || sync.failure)) return undefined;
    if (typeof answer === 'object' && answer !== null && this.toldDurable.has(answer)) return undefined;
    return sync.settled();
  }

  /** Commits what is queued; resolves once it is durable. */
  close(): Promise<void> {
    this.flush();
    this.closed = true;
    return this.durable() ?? Promise.resolve();
  }
}
