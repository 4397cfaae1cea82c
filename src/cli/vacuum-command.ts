import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { resolveHome } from '../config/home.js';
import { acquireHomeLock } from '../home-lock.js';

const MiB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** One database file's size and free pages, then SQLite's VACUUM of it: the file rewritten without them. */
function vacuum(path: string): { before: number; free: number; after: number } {
  const db = new Database(path, { fileMustExist: true });
  try {
    // The WAL copied into the file and cut to nothing first, so the sizes are the file's.
    db.pragma('wal_checkpoint(TRUNCATE)');
    const size = () => (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
    const before = size();
    const free = (db.pragma('freelist_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
    db.exec('VACUUM');
    db.pragma('wal_checkpoint(TRUNCATE)');
    return { before, free, after: size() };
  } finally {
    db.close();
  }
}

/**
 * `gate vacuum`: gives the disk back the pages a home's databases no longer use (freed by
 * erasures, by rows that left the held index, by views dropped at an upgrade), on a stopped
 * gate: SQLite's VACUUM rewrites the whole file, which needs about its size again in free
 * space while it runs (docs/operations.md, "Disk").
 */
export function vacuumCommand(options: { home?: string }): void {
  const paths = resolveHome(options.home);
  if (!existsSync(paths.db)) {
    process.stderr.write(`gate vacuum: no journal at ${paths.db}\n`);
    process.exit(2);
  }
  let release: () => void;
  try {
    release = acquireHomeLock(paths.lock);
  } catch (error) {
    process.stderr.write(`gate vacuum: ${error instanceof Error ? error.message : String(error)}: stop the gate first\n`);
    process.exit(1);
  }
  try {
    for (const path of [paths.db, paths.heldIndex].filter((p) => existsSync(p))) {
      const { before, free, after } = vacuum(path);
      process.stdout.write(`${path}: ${MiB(before)} -> ${MiB(after)} (${MiB(free)} of free pages, ${MiB(before - after)} given back)\n`);
    }
  } finally {
    release();
  }
}
