/**
 * Worker thread that copies committed WAL frames into gate.db (a PASSIVE checkpoint) on a
 * connection of its own, every few ms, so the copy, its reads and the database file's
 * fsync run on the second core instead of inside a group commit on the main thread (where
 * SQLite's autocheckpoint ran them every ~7 commits, the slowest commits of a run). It
 * writes no row: the main thread stays the only writer of the journal; a checkpoint only
 * moves pages SQLite already made durable in the WAL, and a PASSIVE one never waits for
 * the writer nor makes it wait.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThread } from '../thread-priority.js';

// The journal writer and the sockets win a contended core (workers/thread-priority.ts).
lowerThisThread();

export interface CheckpointSettings {
  path: string;
  everyMs: number;
  /**
   * Shared with the main thread, written here after each pass: [0] when a pass last copied
   * every frame of the WAL (ms since the epoch; 0 before one did), [1] the frames the last
   * pass left uncopied. The metrics read it (a write of two numbers, no message).
   */
  progress: SharedArrayBuffer;
}

const settings = workerData as CheckpointSettings;
const progress = new Float64Array(settings.progress);
const db = new Database(settings.path, { fileMustExist: true });
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try {
    const pass = checkpoint.get() as { busy: number; log: number; checkpointed: number };
    const behind = Math.max(0, pass.log - pass.checkpointed);
    if (behind === 0) progress[0] = Date.now();
    progress[1] = behind;
  } catch (error) {
    // The main thread's autocheckpoint still bounds the WAL; say why this one stopped helping.
    parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
}, settings.everyMs);
parentPort?.on('message', (m: unknown) => {
  if (m === 'stop') {
    clearInterval(timer);
    db.close();
    parentPort?.close();
  }
});
