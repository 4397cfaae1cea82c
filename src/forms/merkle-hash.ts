import { hash } from 'node:crypto';

/**
 * RFC 9162 2.1.1 hashing with SHA-256: a leaf is hashed with the prefix 0x00, an interior
 * node with 0x01, so no leaf can pass for a node (second preimages). The journal's leaf is
 * the event id's 32 raw bytes (the sha256 of the event's canonical body): a proof then
 * binds an id every event page already serves, and anyone holding the body checks the id.
 */
const LEAF = 0;
const NODE = 1;

export const HASH_BYTES = 32;

// One-shot crypto.hash over prefix and input in one buffer: a claim hashes two leaves and
// a few nodes, and a Hash object with its updates costs about a third more.
export function leafHash(leaf: Uint8Array): Buffer {
  const input = Buffer.allocUnsafe(1 + leaf.length);
  input[0] = LEAF;
  input.set(leaf, 1);
  return hash('sha256', input, 'buffer');
}

/** The leaf hash of a journal event, from its id (64 hex characters). */
export function eventLeafHash(eventId: string): Buffer {
  return leafHash(Buffer.from(eventId, 'hex'));
}

export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  const input = Buffer.allocUnsafe(1 + left.length + right.length);
  input[0] = NODE;
  input.set(left, 1);
  input.set(right, 1 + left.length);
  return hash('sha256', input, 'buffer');
}

/** The largest power of two smaller than n (n > 1): where RFC 9162 splits a tree of n leaves. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}
