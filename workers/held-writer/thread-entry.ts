/**
 * Worker thread that writes the held rows' text index (held_fts, in held-index.db) on a
 * connection of its own, so the FTS5 inserts of every ingested claim (its tokenizing, segment
 * writes and merges) run beside the main thread instead of on it
 * (src/recall/held-writer-thread.ts). It never writes gate.db: it reads the artifacts view
 * and the content store there, inside each batch's transaction, after taking held-index.db's
 * write lock (held-index-file.ts), so what it writes is what the views say then.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { HeldEntries } from './held-entries.js';
import { attachHeldIndex, takeHeldWriteLock, type HeldIndexFileSettings } from './held-index-file.js';
import { lowerThisThread } from '../thread-priority.js';

// Off the answer's path like the embed pool: the journal writer, the sockets and the scan pool
// (which every ingest waits for) win a contended core (workers/thread-priority.ts). Measured at
// the gate's priority it took the second core from the scan pool, and the main thread waited.
lowerThisThread();

export interface HeldWriterSettings {
  /** gate.db, read for the rows and their bytes. */
  views: string;
  index: HeldIndexFileSettings;
}

export interface HeldWriteRequest {
  id: number;
  rowids: number[];
}

export interface HeldWriteAnswer {
  id: number;
  error?: string;
}

const settings = workerData as HeldWriterSettings;
const db = new Database(settings.views, { fileMustExist: true });
db.pragma(`mmap_size = ${settings.index.mmapBytes}`);
attachHeldIndex(db, settings.index);
const entries = new HeldEntries(db);
const lock = takeHeldWriteLock(db);
const write = db.transaction((rowids: number[]) => {
  lock.run();
  entries.sync(rowids);
});

parentPort!.on('message', (request: HeldWriteRequest | 'stop') => {
  if (request === 'stop') {
    db.close();
    parentPort!.close();
    return;
  }
  const answer: HeldWriteAnswer = { id: request.id };
  try {
    write(request.rowids);
  } catch (error) {
    answer.error = error instanceof Error ? error.message : String(error);
  }
  parentPort!.postMessage(answer);
});
