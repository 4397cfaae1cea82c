import type { Worker } from 'node:worker_threads';
import { newThread } from '../threads.js';
import type Database from 'better-sqlite3';
import type { CheckpointSettings } from '../../workers/checkpoint/thread-entry.js';
import type { Log } from '../log.js';
import { stopThread } from '../stop-thread.js';

/**
 * How often the checkpoint thread copies the WAL into the database. A page written by many
 * commits in between (a table's last page, an index's upper pages) is copied once: at 10 ms
 * the thread copied nearly every commit's pages on its own and was busy 34-55% of a core under
 * ingest; at 100 ms the gate's threads besides the main one spent ~0.37 ms a claim instead of
 * ~0.42 (bench/ingest.js, 20,000 claims). The WAL then holds ~100 ms of commits (~8 MB at
 * 1,500 claims/s) before the writer starts it over.
 */
const EVERY_MS = 100;
/**
 * The main connection's own autocheckpoint, now a bound only: it runs when the WAL has grown
 * this many frames (~160 MB) without a restart. Under steady ingest the WAL restarts only
 * through it (the thread's passes never end with every frame copied while commits keep
 * coming), so it sets how often the main thread copies the last frames and fsyncs gate.db
 * inside a commit: at 10,000 frames that was ~2.5% of the main thread (perf, 1,700 claims/s),
 * at 40,000 ~0.9%, one commit stalled every ~2 s instead of every ~0.5 s.
 */
const FALLBACK_FRAMES = 40_000;
/** Longest the thread may take to stop (it takes a few ms) before it is terminated. */
const STOP_MAX_MS = 2_000;

/**
 * Runs WAL checkpoints beside the writer on a thread of their own (see
 * workers/checkpoint/thread-entry.ts). Measured on the ingest bench: SQLite's default
 * autocheckpoint (1,000 frames) ran inside every ~7th group commit, copying ~1,000 pages
 * and fsyncing gate.db on the main thread.
 */
export class WalCheckpointer {
  private readonly worker: Worker;
  private stopped: Promise<void> | null = null;
  private exited = false;
  private readonly progress = new Float64Array(new SharedArrayBuffer(2 * Float64Array.BYTES_PER_ELEMENT));

  constructor(
    private readonly db: Database.Database,
    log: Log,
  ) {
    db.pragma(`wal_autocheckpoint = ${FALLBACK_FRAMES}`);
    const settings: CheckpointSettings = { path: db.name, everyMs: EVERY_MS, progress: this.progress.buffer as SharedArrayBuffer };
    this.worker = newThread(new URL('../../workers/checkpoint/thread-entry.js', import.meta.url), { workerData: settings });
    this.worker.on('message', (m: { error?: string }) => {
      if (m.error !== undefined) log.error(`wal checkpoint thread: ${m.error}`);
    });
    this.worker.on('error', (error) => log.error('wal checkpoint thread stopped', error));
    this.worker.on('exit', () => {
      this.exited = true;
    });
    // A gate that is otherwise done must not be kept alive by its housekeeping.
    this.worker.unref();
  }

  /**
   * A TRUNCATE checkpoint on the main connection: every frame copied into gate.db and the
   * WAL cut to nothing, so no older frame keeps a page as it was before an erasure zeroed
   * it (a PASSIVE checkpoint leaves the file's old frames in place to be overwritten).
   * It waits for readers through the busy handler; false when one still held it.
   */
  truncate(): boolean {
    const [result] = this.db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
    return result?.busy === 0;
  }

  /**
   * How far the checkpoints keep up: when a pass last copied the whole WAL into gate.db
   * (ms since the epoch, null before one did) and the frames the last pass left behind.
   * Under steady ingest the WAL is rarely wholly copied (docs/journal.md), so an age that
   * grows for minutes with frames behind says the thread does not keep up.
   */
  walProgress(): { lastComplete: number | null; framesBehind: number } {
    return { lastComplete: this.progress[0] === 0 ? null : this.progress[0]!, framesBehind: this.progress[1]! };
  }

  /** Stops the thread (its connection closed) before the main connection closes and checkpoints the rest. */
  close(): Promise<void> {
    this.stopped ??= this.exited ? Promise.resolve() : stopThread(this.worker, STOP_MAX_MS);
    return this.stopped;
  }
}
