import type Database from 'better-sqlite3';

export interface HeldIndexFileSettings {
  path: string;
  /** As the main connection's (NORMAL under journal.synchronous = full: its WAL is synced at checkpoints). */
  synchronous: string;
  secureDelete: boolean;
  mmapBytes: number;
}

/**
 * Attaches the held rows' text index, a database file of its own (`held-index.db` in the
 * home), as schema `held`: on the main connection, which reads it (a writer's recall of its
 * held rows) and writes it rarely (the start's check, gv.rebuild's, an erasure), and on the
 * writer thread's, which writes every batch (workers/held-writer/thread-entry.ts).
 *
 * Why a file of its own: SQLite lets one connection write a database at a time, and the
 * journal's group commit must never wait for the index's thread. In gate.db the thread's
 * batches held the write lock when 29% of the group commits wanted it (bench/ingest.js); in
 * their own file they only ever wait for each other. Nothing in it is a fact: it is derived
 * from gate.db's views and content store, checked and put right at every start, so it is
 * synced as gate.db's WAL is not (only at its checkpoints) and a lost or deleted file is
 * written again.
 */
export function attachHeldIndex(db: Database.Database, settings: HeldIndexFileSettings): void {
  db.prepare("ATTACH DATABASE ? AS held").run(settings.path);
  db.pragma('held.journal_mode = WAL');
  db.pragma(`held.synchronous = ${settings.synchronous}`);
  // Deleted entries are zeroed, as gate.db's pages are (gv.erase).
  db.pragma(`held.secure_delete = ${settings.secureDelete ? 'ON' : 'OFF'}`);
  db.pragma(`held.mmap_size = ${settings.mmapBytes}`);
  db.pragma('held.cache_size = -4096');
  // One row that each batch of the thread updates first: see takeHeldWriteLock.
  db.exec(`CREATE TABLE IF NOT EXISTS held.held_writes (batches INTEGER NOT NULL);
    INSERT INTO held.held_writes (batches) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM held.held_writes)`);
}

/**
 * A statement that takes held-index.db's write lock, to run first in a batch's transaction:
 * the batch then reads gate.db's rows in a snapshot begun after the lock was taken. An
 * erasure removes the row's entry inside the group commit that erases it, holding gate.db's
 * lock and then this one, and SQLite commits gate.db first: so a batch either holds this lock
 * before the erasure can remove the entry (which it then does, after the batch), or reads the
 * row as erased. Read before the lock, a batch could index a row the erasure just emptied.
 */
export function takeHeldWriteLock(db: Database.Database): Database.Statement {
  return db.prepare('UPDATE held.held_writes SET batches = batches + 1');
}
