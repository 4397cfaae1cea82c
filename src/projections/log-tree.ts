import type Database from 'better-sqlite3';
import type { JournalEvent } from '../forms/event.js';
import { eventLeafHash, nodeHash } from '../forms/merkle-hash.js';
import { nodePosition } from './log-tree-position.js';
import { LogTreeReads } from './log-tree-reads.js';
import { defineView } from './define-view.js';

/**
 * The journal as an RFC 9162 Merkle tree, leaf i being the event of seq i + 1. The table
 * keeps each complete subtree's hash above the leaves, by `nodePosition`: about one row
 * per event. Leaves are not stored: a leaf's hash comes from the journal's own event id.
 * Any root or proof is then O(log n) point reads (log-tree-reads.ts).
 */
export function logTreeTables(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${schema}.log_tree (
      pos INTEGER PRIMARY KEY,
      hash BLOB NOT NULL
    );
  `;
}

export const logTreeDigestQueries = (schema: string) => ({
  log_tree: `SELECT pos, hash FROM ${schema}.log_tree ORDER BY pos`,
});

/**
 * Folds every event into the tree, inside the append transaction, keeping nothing of the
 * tree in memory: a rolled-back write takes its nodes with it. Appending leaf i completes
 * one subtree per trailing one bit of i; the left sibling at level 0 is the previous event,
 * whose id the event names (`prev`), and above it a stored node.
 */
export class LogTreeReducer {
  private readonly node: Database.Statement<[number], Buffer>;
  private readonly insert: Database.Statement<[number, Buffer]>;
  /** The last leaf hashed, by event id: the next event's left sibling (a hash of an id never changes, so no rollback can stale it). */
  private lastLeaf: { id: string; hash: Buffer } | null = null;

  constructor(db: Database.Database, schema: string) {
    this.node = db.prepare<[number], Buffer>(`SELECT hash FROM ${schema}.log_tree WHERE pos = ?`).pluck();
    this.insert = db.prepare<[number, Buffer]>(`INSERT INTO ${schema}.log_tree (pos, hash) VALUES (?, ?)`);
  }

  apply(event: JournalEvent): void {
    let index = event.seq - 1;
    const leaf = eventLeafHash(event.event_id);
    let hash = leaf;
    for (let level = 0; index % 2 === 1; level++, index = (index - 1) / 2) {
      const left = level === 0 ? this.previousLeaf(event) : this.node.get(nodePosition(level, index - 1));
      if (left === undefined) throw new Error(`the log tree lacks node (${level}, ${index - 1}) below seq ${event.seq}`);
      hash = nodeHash(left, hash);
      this.insert.run(nodePosition(level + 1, (index - 1) / 2), hash);
    }
    this.lastLeaf = { id: event.event_id, hash: leaf };
  }

  private previousLeaf(event: JournalEvent): Buffer {
    if (event.prev === null) throw new Error(`event ${event.seq} names no previous event`);
    return this.lastLeaf?.id === event.prev ? this.lastLeaf.hash : eventLeafHash(event.prev);
  }
}

/** The journal's Merkle tree: it folds every event, whatever its type. */
export const logTreeView = defineView({
  name: 'log-tree',
  tables: logTreeTables,
  digest: logTreeDigestQueries,
  reducer: (db, schema) => new LogTreeReducer(db, schema),
  reads: {
    /** Roots and proofs of the journal's Merkle tree (checkpoints, inclusion, consistency). */
    logTree: ({ db }) => new LogTreeReads(db),
  },
});
