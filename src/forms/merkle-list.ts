import { createHash } from 'node:crypto';
import { leafHash, nodeHash, splitPoint } from './merkle-hash.js';

/**
 * RFC 9162 over a list held in memory (a published collection's rows): the root, and one
 * leaf's audit path. Each costs one hash per leaf and node; the journal's own tree, too
 * large for this, is kept in the database instead (log-tree.ts).
 */
export class MerkleList {
  private readonly leaves: Buffer[];

  constructor(leaves: Uint8Array[]) {
    this.leaves = leaves.map((l) => leafHash(l));
  }

  get size(): number {
    return this.leaves.length;
  }

  private subtree(start: number, count: number): Buffer {
    if (count === 1) return this.leaves[start]!;
    const k = splitPoint(count);
    return nodeHash(this.subtree(start, k), this.subtree(start + k, count - k));
  }

  root(): Buffer {
    return this.leaves.length === 0 ? createHash('sha256').digest() : this.subtree(0, this.leaves.length);
  }

  inclusion(index: number): Buffer[] {
    if (!Number.isInteger(index) || index < 0 || index >= this.leaves.length) throw new RangeError(`leaf ${index} is outside a list of ${this.leaves.length}`);
    const path = (m: number, start: number, n: number): Buffer[] => {
      if (n === 1) return [];
      const k = splitPoint(n);
      return m < k ? [...path(m, start, k), this.subtree(start + k, n - k)] : [...path(m - k, start + k, n - k), this.subtree(start, k)];
    };
    return path(index, 0, this.leaves.length);
  }
}
