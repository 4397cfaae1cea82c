import type Database from 'better-sqlite3';
import { eventLeafHash, nodeHash, splitPoint } from '../forms/merkle-hash.js';
import { nodePosition } from './log-tree-position.js';
import { checkStoredTree, type TreeCheck } from './log-tree-check.js';
import type { ChainReport } from '../journal/verify-chain.js';

/** An RFC 9162 inclusion proof: the audit path of one leaf, bottom up, in a tree of `tree_size` leaves. */
export interface InclusionProof {
  leaf_index: number;
  tree_size: number;
  hashes: Buffer[];
}

const isPowerOfTwo = (n: number) => n > 0 && (n & (n - 1)) === 0;

/**
 * Roots and proofs of the journal's Merkle tree (log-tree.ts) at any size up to the
 * journal's: every subtree RFC 9162's recursion asks for is either a stored complete node,
 * a leaf (its event id, read from the journal), or the right edge, split again; so a root
 * or a proof costs O(log n) point reads. Sizes and indexes are leaf counts: size n is the
 * journal up to seq n.
 */
export class LogTreeReads {
  private readonly node: Database.Statement<[number], Buffer>;
  private readonly eventId: Database.Statement<[number], string>;
  private readonly head: Database.Statement<[], number | null>;
  private readonly db: Database.Database;

  constructor(db: Database.Database) {
    this.node = db.prepare<[number], Buffer>('SELECT hash FROM log_tree WHERE pos = ?').pluck();
    this.eventId = db.prepare<[number], string>('SELECT event_id FROM journal WHERE seq = ?').pluck();
    this.head = db.prepare<[], number | null>('SELECT MAX(seq) FROM journal').pluck();
    this.db = db;
  }

  /** The number of leaves: the committed journal's last seq. */
  size(): number {
    return this.head.get() ?? 0;
  }

  /** MTH(D[start : start + count]) for a subtree RFC 9162's recursion names (start a multiple of the split above it). */
  private subtree(start: number, count: number): Buffer {
    if (count === 1) {
      const id = this.eventId.get(start + 1);
      if (id === undefined) throw new Error(`the journal has no seq ${start + 1}`);
      return eventLeafHash(id);
    }
    if (isPowerOfTwo(count) && start % count === 0) {
      const level = Math.log2(count);
      const hash = this.node.get(nodePosition(level, start / count));
      if (hash === undefined) throw new Error(`the log tree lacks node (${level}, ${start / count})`);
      return hash;
    }
    const k = splitPoint(count);
    return nodeHash(this.subtree(start, k), this.subtree(start + k, count - k));
  }

  /** The root of the tree of the first `size` events. */
  root(size: number): Buffer {
    this.checkSize(size);
    return this.subtree(0, size);
  }

  /** PATH(m, D[n]) of RFC 9162 2.1.3.1: leaf `index` (seq index + 1) in the tree of `size` leaves. */
  inclusion(index: number, size: number): InclusionProof {
    this.checkSize(size);
    if (!Number.isInteger(index) || index < 0 || index >= size) throw new RangeError(`leaf ${index} is outside a tree of ${size}`);
    const path = (m: number, start: number, n: number): Buffer[] => {
      if (n === 1) return [];
      const k = splitPoint(n);
      return m < k
        ? [...path(m, start, k), this.subtree(start + k, n - k)]
        : [...path(m - k, start + k, n - k), this.subtree(start, k)];
    };
    return { leaf_index: index, tree_size: size, hashes: path(index, 0, size) };
  }

  /** PROOF(m, D[n]) of RFC 9162 2.1.4.1: the tree of `from` leaves is a prefix of the tree of `to`. */
  consistency(from: number, to: number): Buffer[] {
    this.checkSize(to);
    if (!Number.isInteger(from) || from < 1 || from > to) throw new RangeError(`a consistency proof runs from 1 to ${to} leaves, not ${from}`);
    const subproof = (m: number, start: number, n: number, whole: boolean): Buffer[] => {
      if (m === n) return whole ? [] : [this.subtree(start, n)];
      const k = splitPoint(n);
      return m <= k
        ? [...subproof(m, start, k, whole), this.subtree(start + k, n - k)]
        : [...subproof(m - k, start + k, n - k, false), this.subtree(start, k)];
    };
    return subproof(from, 0, to, true);
  }

  /** Whether the stored tree holds exactly the nodes the ids of a chain walk give (gv.audit_chain). */
  checkStored(report: ChainReport): TreeCheck {
    return checkStoredTree(this.db, report);
  }

  private checkSize(size: number): void {
    const head = this.size();
    if (!Number.isInteger(size) || size < 1 || size > head) throw new RangeError(`the journal holds ${head} events, not ${size}`);
  }
}
