/**
 * Piscina worker entry for the code-scan pool: scans one large vector partition's binary
 * codes, which live in a shared WebAssembly memory the main thread writes, then re-ranks the
 * nearest few hundred by their stored int8 vectors, read through this thread's own
 * connection to gate.db. Both run while the main thread ranks the lexical list of the same
 * hybrid recall. It only reads: the connection is query_only.
 */
import Database from 'better-sqlite3';
import { workerData } from 'node:worker_threads';
import { nearestSlots, type ScanTarget } from './nearest-slots.js';
import { cosine } from '../embed/quantize.js';
import { storedVectorsReader, type StoredVector } from './stored-vectors.js';

/** Where the stored vectors are: gate.db and how the gate reads it. */
export interface StoredVectors {
  path: string;
  mmapBytes: number;
  cacheKiB: number;
}

export interface CodeScanTask {
  target: ScanTarget;
  /** The query's code, and its vector for the exact re-rank. */
  query: Uint8Array;
  vector: Float32Array;
  mask: number;
  /** How many code-nearest candidates are re-ranked, and how many of them are answered. */
  pool: number;
  keep: number;
}

export interface CodeScanAnswer {
  rowids: Float64Array;
  scores: Float64Array;
  /** How many candidates the scan found (fewer than `pool`: the partition holds no more). */
  candidates: number;
}

let storedVectors: ((rowids: ArrayLike<number>) => StoredVector[]) | null = null;
function vectorReader(): (rowids: ArrayLike<number>) => StoredVector[] {
  if (storedVectors !== null) return storedVectors;
  const where = workerData as StoredVectors;
  const db = new Database(where.path, { fileMustExist: true });
  db.pragma('query_only = ON');
  db.pragma(`cache_size = -${where.cacheKiB}`);
  db.pragma(`mmap_size = ${where.mmapBytes}`);
  return (storedVectors = storedVectorsReader(db));
}

export default function scanCodes(task: CodeScanTask): CodeScanAnswer {
  const slots = nearestSlots(task.target, task.query, task.mask, task.pool);
  // In rowid order: neighbouring rows share pages, and the reads walk the table forwards.
  const rowids = Float64Array.from(slots, (slot) => task.target.rowids[slot]!).sort();
  const found: { rowid: number; score: number }[] = [];
  // A row removed since the scan was asked for has no vector, so it is not read: the main thread re-checks every row anyway.
  for (const { rowid, vector } of vectorReader()(rowids)) found.push({ rowid, score: cosine(task.vector, vector) });
  found.sort((a, b) => b.score - a.score || a.rowid - b.rowid);
  const kept = found.slice(0, task.keep);
  return { rowids: Float64Array.from(kept, (r) => r.rowid), scores: Float64Array.from(kept, (r) => r.score), candidates: slots.length };
}
