import type Database from 'better-sqlite3';
import type { JournalEvent } from '../journal/event.js';
import { eventLeafHash, nodeHash } from '../journal/merkle-hash.js';

/**
 * The journal as an RFC 9162 Merkle tree, leaf i being the event of seq i + 1. The table
 * keeps each complete subtree's hash above the leaves, (level, idx) covering leaves
 * [idx * 2^level, (idx + 1) * 2^level): about one row per event, appended at the right
 * edge of each level. Leaves are not stored: a leaf's hash comes from the journal's own
 * event id. Any root or proof is then O(log n) point reads (log-tree-reads.ts).
 */
export function logTreeTables(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${schema}.log_tree (
      level INTEGER NOT NULL,
      idx INTEGER NOT NULL,
      hash BLOB NOT NULL,
      PRIMARY KEY (level, idx)
    ) WITHOUT ROWID;
  `;
}

export const logTreeDigestQueries = (schema: string) => ({
  log_tree: `SELECT level, idx, hash FROM ${schema}.log_tree ORDER BY level, idx`,
});

/**
 * Folds every event into the tree, inside the append transaction, keeping no state of its
 * own: a rolled-back write takes its nodes with it. Appending leaf i completes one subtree
 * per trailing one bit of i; the left sibling at level 0 is the previous event, whose id
 * the event names (`prev`), and above it a stored node.
 */
export class LogTreeReducer {
  private readonly node: Database.Statement<[number, number], Buffer>;
  private readonly insert: Database.Statement<[number, number, Buffer]>;

  constructor(db: Database.Database, schema: string) {
    this.node = db.prepare<[number, number], Buffer>(`SELECT hash FROM ${schema}.log_tree WHERE level = ? AND idx = ?`).pluck();
    this.insert = db.prepare<[number, number, Buffer]>(`INSERT INTO ${schema}.log_tree (level, idx, hash) VALUES (?, ?, ?)`);
  }

  apply(event: JournalEvent): void {
    let index = event.seq - 1;
    let hash = eventLeafHash(event.event_id);
    for (let level = 0; index % 2 === 1; level++, index = (index - 1) / 2) {
      const left = level === 0 ? this.previousLeaf(event) : this.node.get(level, index - 1);
      if (left === undefined) throw new Error(`the log tree lacks node (${level}, ${index - 1}) below seq ${event.seq}`);
      hash = nodeHash(left, hash);
      this.insert.run(level + 1, (index - 1) / 2, hash);
    }
  }

  private previousLeaf(event: JournalEvent): Buffer {
    if (event.prev === null) throw new Error(`event ${event.seq} names no previous event`);
    return eventLeafHash(event.prev);
  }
}
