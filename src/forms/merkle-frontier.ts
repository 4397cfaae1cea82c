import { createHash } from 'node:crypto';
import { nodeHash } from './merkle-hash.js';

/**
 * The root of an RFC 9162 tree computed in one pass over its leaves, keeping only the right
 * edge: the hashes of the complete subtrees that make up the leaves so far (one per set bit
 * of the count). `gate verify` walks the journal with it, independently of the stored tree.
 */
export class MerkleFrontier {
  private readonly edge: Buffer[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Adds a leaf; `onNode` hears each complete subtree it completes, as (level, idx) of log-tree.ts. */
  push(leafHash: Buffer, onNode?: (level: number, idx: number, hash: Buffer) => void): void {
    let hash = leafHash;
    for (let n = this.count, level = 1; n % 2 === 1; n = (n - 1) / 2, level++) {
      hash = nodeHash(this.edge.pop()!, hash);
      onNode?.(level, (n - 1) / 2, hash);
    }
    this.edge.push(hash);
    this.count += 1;
  }

  /** MTH of the leaves so far; of none, the hash of the empty string (RFC 9162 2.1.1). */
  root(): Buffer {
    if (this.edge.length === 0) return createHash('sha256').digest();
    let hash = this.edge[this.edge.length - 1]!;
    for (let i = this.edge.length - 2; i >= 0; i--) hash = nodeHash(this.edge[i]!, hash);
    return hash;
  }
}
