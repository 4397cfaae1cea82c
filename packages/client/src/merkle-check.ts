import type { VerifiedCheckpoint } from './checkpoint-check.js';
import { ProofError } from './proof-error.js';
import { fromBase64, fromHex, leafHash, nodeHash, sameBytes } from './web-hash.js';

/** An inclusion proof as the gate serves it: the leaf's index and its audit path, bottom up, base64. */
export interface InclusionProofJson {
  leaf_index: number;
  hashes: string[];
}

const decodePath = (hashes: unknown): Uint8Array[] => {
  if (!Array.isArray(hashes) || hashes.length > 64) throw new ProofError('malformed', 'a proof is a list of at most 64 hashes');
  return hashes.map((h) => {
    const bytes = typeof h === 'string' ? fromBase64(h) : new Uint8Array();
    if (bytes.length !== 32) throw new ProofError('malformed', 'each proof hash is 32 bytes of base64');
    return bytes;
  });
};

/** RFC 9162 2.1.3.2: whether `leaf` (the hash of a leaf) at `index` is in the tree of `size` leaves with root `root`. */
export async function inclusionHolds(index: number, size: number, leaf: Uint8Array, path: Uint8Array[], root: Uint8Array): Promise<boolean> {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = await nodeHash(p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn /= 2;
        sn = Math.floor(sn / 2);
      }
    } else {
      r = await nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && sameBytes(r, root);
}

/** RFC 9162 2.1.4.2: whether the tree of `m` leaves with `oldRoot` is a prefix of the tree of `n` with `newRoot`. */
export async function consistencyHolds(m: number, n: number, oldRoot: Uint8Array, newRoot: Uint8Array, proof: Uint8Array[]): Promise<boolean> {
  if (!Number.isSafeInteger(m) || !Number.isSafeInteger(n) || m < 1 || m > n) return false;
  if (m === n) return proof.length === 0 && sameBytes(oldRoot, newRoot);
  if (proof.length === 0) return false;
  const path = (m & (m - 1)) === 0 ? [oldRoot, ...proof] : proof;
  let fn = m - 1;
  let sn = n - 1;
  while (fn % 2 === 1) {
    fn = (fn - 1) / 2;
    sn = Math.floor(sn / 2);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = await nodeHash(c, fr);
      sr = await nodeHash(c, sr);
      while (fn % 2 === 0 && fn !== 0) {
        fn /= 2;
        sn = Math.floor(sn / 2);
      }
    } else {
      sr = await nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && sameBytes(fr, oldRoot) && sameBytes(sr, newRoot);
}

/**
 * Checks that the journal event `eventId` (64 hex) is leaf `proof.leaf_index` of the tree the
 * verified checkpoint signs; when `seq` is given, that the leaf is that seq's (leaf seq - 1).
 */
export async function verifyInclusion(checkpoint: VerifiedCheckpoint, eventId: string, proof: InclusionProofJson, seq?: number): Promise<void> {
  if (!/^[0-9a-f]{64}$/.test(eventId)) throw new ProofError('malformed', 'an event id is 64 lower-case hex characters');
  if (typeof proof !== 'object' || proof === null || !Number.isSafeInteger(proof.leaf_index)) throw new ProofError('malformed', 'an inclusion proof is {leaf_index, hashes}');
  if (seq !== undefined && proof.leaf_index !== seq - 1) throw new ProofError('inclusion', `the proof is of leaf ${proof.leaf_index}, not of seq ${seq}`);
  if (proof.leaf_index >= checkpoint.size) throw new ProofError('wrong_log', `leaf ${proof.leaf_index} lies beyond the checkpoint's ${checkpoint.size} events`);
  const holds = await inclusionHolds(proof.leaf_index, checkpoint.size, await leafHash(fromHex(eventId)), decodePath(proof.hashes), fromBase64(checkpoint.root));
  if (!holds) throw new ProofError('inclusion', `event ${eventId.slice(0, 16)} is not proven in the tree of ${checkpoint.size} events`);
}

/** Checks that the older verified checkpoint's tree is a prefix of the newer's: nothing in it was rewritten. */
export async function verifyConsistency(older: VerifiedCheckpoint, newer: VerifiedCheckpoint, hashes: string[]): Promise<void> {
  if (older.origin !== newer.origin) throw new ProofError('wrong_log', 'the two checkpoints are of different logs');
  if (older.size > newer.size) throw new ProofError('wrong_log', `the older checkpoint (${older.size}) is larger than the newer (${newer.size})`);
  const holds = await consistencyHolds(older.size, newer.size, fromBase64(older.root), fromBase64(newer.root), decodePath(hashes));
  if (!holds) throw new ProofError('consistency', `the tree of ${older.size} events is not proven a prefix of the tree of ${newer.size}`);
}
