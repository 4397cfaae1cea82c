import { createHash } from 'node:crypto';

/**
 * RFC 9162 2.1.1 hashing with SHA-256: a leaf is hashed with the prefix 0x00, an interior
 * node with 0x01, so no leaf can pass for a node (second preimages). The journal's leaf is
 * the event id's 32 raw bytes (the sha256 of the event's canonical body): a proof then
 * binds an id every event page already serves, and anyone holding the body checks the id.
 */
const LEAF = Buffer.from([0]);
const NODE = Buffer.from([1]);

export const HASH_BYTES = 32;

export function leafHash(leaf: Uint8Array): Buffer {
  return createHash('sha256').update(LEAF).update(leaf).digest();
}

/** The leaf hash of a journal event, from its id (64 hex characters). */
export function eventLeafHash(eventId: string): Buffer {
  return leafHash(Buffer.from(eventId, 'hex'));
}

export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  return createHash('sha256').update(NODE).update(left).update(right).digest();
}

/** The largest power of two smaller than n (n > 1): where RFC 9162 splits a tree of n leaves. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}
