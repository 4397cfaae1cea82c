import type Database from 'better-sqlite3';
import type { JournalWriter } from '../journal/group-commit.js';
import type { WritePressure } from '../journal/followers.js';
import type { HeldRowsFollower } from '../projections/artifacts.js';
import type { Log } from '../log.js';
import type { HeldWriterSettings } from '../../workers/held-writer/thread-entry.js';
import type { FreshBodies } from './fresh-bodies.js';
import { HeldEntries, heldTextTable, type HeldEntryChanged, type HeldTextCheck } from '../../workers/held-writer/held-entries.js';
import { HeldWriterThread } from './held-writer-thread.js';

/**
 * Rows moved in or out are written together, up to this many or this long after the first
 * moved: one FTS5 segment per batch instead of one per group commit, and the body's tokenizing
 * out of the ingest's own transaction.
 */
const WRITE_BATCH = 512;
const WRITE_LINGER_MS = 100;
/**
 * Rows told and not yet written past which new journal writes wait (JournalWriter's
 * pressure) until half of them are. The thread writes beside the main thread and does not
 * slow it, so without a bound a writer faster than the index (promotions: each row's entry
 * leaves with FTS5's secure delete) left it ever further behind: a shutdown waited for the
 * whole backlog, and a kill left it to the next start's check, before the gate serves.
 */
const BACKLOG_MAX = 2_048;

/**
 * held_fts: the lexical index of each writer's scanned, unflagged held rows (L1_SCANNED),
 * which a writer's recall reads for its own pending rows. It is derived from the artifacts
 * view and the content store, like the vectors, and written after the answer: the artifacts
 * reducer tells which rows entered or left L1_SCANNED inside each commit, and the moves are
 * written in batches of their own, into a file of its own (held-index.db), by a thread with
 * its own connection (HeldWriterThread; through the journal writer once that thread is gone).
 * A writer searching its held rows first has every move told so far written (current()), so
 * an answered ingest is found by its writer's next recall. At start, rows the index lacks or
 * holds wrongly (a crash between a commit and its batch, a lost file) are put right, before
 * the thread starts; gv.rebuild checks it row by row.
 */
export class HeldTextIndex implements HeldRowsFollower, WritePressure {
  private readonly queued = new Set<number>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  /** Rows in batches not yet written (one batch with the thread at a time, the rest waiting for it). */
  private backlog = 0;
  private relief: { promise: Promise<void>; resolve: () => void } | null = null;
  private closed = false;
  private readonly entries: HeldEntries;
  private writerThread: HeldWriterThread | null = null;

  constructor(
    private readonly db: Database.Database,
    private readonly writer: JournalWriter,
    private readonly log: Log,
    fresh: FreshBodies,
    /** Where the writer thread opens gate.db and held-index.db, and how. */
    private readonly threadSettings: HeldWriterSettings,
  ) {
    // A home made before held-index.db kept the index in gate.db: the start's check writes it anew there.
    db.exec('DROP TABLE IF EXISTS main.held_fts');
    db.exec(heldTextTable());
    this.entries = new HeldEntries(db, (hash) => fresh.get(hash));
  }

  /**
   * Rows entering or leaving L1_SCANNED in the commit being made (the artifacts reducer's
   * word). An erased row's words leave in that same commit: gv.erase answers that they are gone.
   */
  moved(rowid: number, erased = false): void {
    if (erased) {
      this.entries.remove(rowid);
      return;
    }
    this.queued.add(rowid);
    if (this.queued.size >= WRITE_BATCH) void this.writeQueued();
    else this.timer ??= setTimeout(() => void this.writeQueued(), WRITE_LINGER_MS);
  }

  /** The thread that writes the batches, once the start made it. */
  get thread(): HeldWriterThread | null {
    return this.writerThread;
  }

  /**
   * A promise while the rows told and not yet written are more than BACKLOG_MAX, resolved
   * once they are half as many: the journal writer holds new writes until then.
   */
  pressure(): Promise<void> | undefined {
    if (this.backlog + this.queued.size <= BACKLOG_MAX) return undefined;
    if (this.relief === null) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.relief = { promise, resolve };
    }
    return this.relief.promise;
  }

  /**
   * Puts right, before the gate serves, every row the index lacks or holds that it should
   * not: moves a crash left unwritten, or a fresh index after the views were replayed.
   */
  start(): void {
    const started = performance.now();
    const check = this.db.transaction(() => this.entries.reconcile())();
    if (check.rewritten > 0) {
      this.log.info(`held index: ${check.rewritten} entries written or removed at start (${Math.round(performance.now() - started)} ms)`);
    }
    this.writerThread = new HeldWriterThread(this.threadSettings, this.log);
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
    return this.writer.write(() => this.entries.reconcile(tell), { derived: true });
  }

  async close(): Promise<void> {
    await this.writeQueued();
    // Moves a failed last batch gave back are left to the next start's check.
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    await this.writerThread?.close();
  }

  private writeQueued(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.queued.size === 0) return this.writing;
    const rowids = [...this.queued];
    this.queued.clear();
    this.backlog += rowids.length;
    // One batch at a time, each after the one before: the thread's own queue stays one batch long.
    const write = () => {
      const thread = this.writerThread?.available === true ? this.writerThread : null;
      return thread === null ? this.writer.write(() => this.entries.sync(rowids), { derived: true }) : thread.write(rowids);
    };
    this.writing = this.writing
      .then(write)
      .catch((error: unknown) => {
        // The moves stay told: the next batch (or the next start) writes them, tried again a
        // linger later so that writes held by the pressure are not left waiting for a move.
        this.log.error(`held index: writing ${rowids.length} moves`, error);
        for (const rowid of rowids) this.queued.add(rowid);
        if (!this.closed) this.timer ??= setTimeout(() => void this.writeQueued(), WRITE_LINGER_MS);
      })
      .finally(() => {
        this.backlog -= rowids.length;
        if (this.relief !== null && this.backlog + this.queued.size <= BACKLOG_MAX / 2) {
          this.relief.resolve();
          this.relief = null;
        }
      });
    return this.writing;
  }
}
