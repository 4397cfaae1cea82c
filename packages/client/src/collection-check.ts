import { verifyAsync } from '@noble/ed25519';
import { canonicalJson } from './forms/canonical-form.js';
import { COLLECTION_EVENT, COLLECTION_FORMAT, collectionSigningText, rowLeaf, type CollectionHeader, type CollectionRow } from './forms/collection-form.js';
import { verifyCheckpoint } from './checkpoint-check.js';
import { inclusionHolds, verifyInclusion, type InclusionProofJson } from './merkle-check.js';
import { ProofError } from './proof-error.js';
import { provenKeys } from './key-chain-check.js';
import { fromBase64, leafHash, nodeHash, sha256, toBase64 } from './web-hash.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const utf8 = (s: string) => new TextEncoder().encode(s);

async function signatureHolds(key: string, message: string, signature: unknown): Promise<boolean> {
  if (typeof signature !== 'string') return false;
  try {
    return await verifyAsync(fromBase64(signature), utf8(message), fromBase64(key), { zip215: false });
  } catch {
    return false;
  }
}

/** RFC 9162 MTH over leaf hashes, right edge kept as complete subtrees (one pass). */
async function rootOf(leaves: Uint8Array[]): Promise<Uint8Array> {
  if (leaves.length === 0) return sha256(new Uint8Array());
  const edge: Uint8Array[] = [];
  for (let i = 0; i < leaves.length; i++) {
    let hash = leaves[i]!;
    for (let n = i; n % 2 === 1; n = (n - 1) / 2) hash = await nodeHash(edge.pop()!, hash);
    edge.push(hash);
  }
  let root = edge[edge.length - 1]!;
  for (let i = edge.length - 2; i >= 0; i--) root = await nodeHash(edge[i]!, root);
  return root;
}

export interface VerifiedCollection {
  collection_id: string;
  header: CollectionHeader;
  /** How many rows were checked against the signed rows root: all of them, one (a membership proof), or none (a partial page). */
  rows_checked: number;
}

/**
 * Checks a gv.collection answer with the deployment id alone:
 * - the header is this deployment's `gate.collection/1`, its id is the hash of its canonical
 *   JSON, and the deployment's signature over it holds;
 * - the checkpoint inside it (where the snapshot was cut) is signed and of `journal_size`;
 * - the publish event is on the record: its body hashes to its id, is signed, is the
 *   `collection-published` event naming this collection after the cut, and is proven in
 *   the journal's current checkpoint (also signed);
 * - the rows: `allRows` (every page put together) or a whole one-page answer must give the
 *   signed rows root; or the answer's one row must be proven a member by its `row_proof`.
 * A page that is not the whole collection checks no row (`rows_checked` 0).
 * After a key rotation, what was signed at the publish (the publish event, the header's
 * checkpoint) is checked against the key signing then, and what is signed when served (the
 * header's signature, the answer's checkpoint) against the newest, each proven from the
 * deployment id by the answer's `key_rotations`.
 */
export async function verifyCollection(deploymentId: string, answer: unknown, allRows?: CollectionRow[]): Promise<VerifiedCollection> {
  if (!isObject(answer) || !isObject(answer['collection']) || !isObject(answer['publish'])) throw new ProofError('malformed', 'not a gv.collection answer');
  const header = answer['collection'] as unknown as CollectionHeader;
  if (header.format !== COLLECTION_FORMAT) throw new ProofError('malformed', `not a ${COLLECTION_FORMAT} header`);
  if (header.deployment_id !== deploymentId) throw new ProofError('wrong_log', 'the collection was published by another deployment');
  const id = `sha256:${hex(await sha256(utf8(canonicalJson(header))))}`;
  if (answer['collection_id'] !== id) throw new ProofError('collection', 'the collection id is not the hash of its header');
  const keys = await provenKeys(deploymentId, answer['key_rotations']);
  if (!(await signatureHolds(keys.current, collectionSigningText(header), answer['signature']))) {
    throw new ProofError('signature', "the collection's signature does not verify against the deployment's key");
  }
  const publish = answer['publish'];
  if (typeof publish['body'] !== 'string' || typeof publish['event_id'] !== 'string' || typeof publish['seq'] !== 'number') {
    throw new ProofError('malformed', 'the publish event lacks its body, id or seq');
  }
  const publishKey = keys.keyAt(publish['seq']);
  const cut = await verifyCheckpoint(deploymentId, header.checkpoint, publishKey);
  if (cut.size !== header.journal_size) throw new ProofError('collection', 'the checkpoint inside the header is not of its journal position');

  if (hex(await sha256(utf8(publish['body']))) !== publish['event_id']) throw new ProofError('collection', "the publish event's body does not hash to its id");
  if (!(await signatureHolds(publishKey, publish['body'], publish['sig']))) throw new ProofError('signature', "the publish event's signature does not verify");
  const event = JSON.parse(publish['body']) as { seq?: unknown; type?: unknown; data?: { collection_id?: unknown } };
  if (event.type !== COLLECTION_EVENT || event.data?.collection_id !== id || event.seq !== publish['seq']) {
    throw new ProofError('collection', 'the publish event does not publish this collection at its seq');
  }
  if (publish['seq'] <= header.journal_size) throw new ProofError('collection', 'the publish event lies inside the snapshot it cut');
  if (typeof answer['checkpoint'] !== 'string') throw new ProofError('malformed', 'the answer carries no checkpoint');
  const now = await verifyCheckpoint(deploymentId, answer['checkpoint'], keys.current);
  await verifyInclusion(now, publish['event_id'], publish['inclusion'] as InclusionProofJson, publish['seq']);

  const rowsRoot = fromBase64(header.rows_root);
  const page = Array.isArray(answer['rows']) ? (answer['rows'] as CollectionRow[]) : null;
  const whole = allRows ?? (page !== null && answer['offset'] === 0 && answer['next_offset'] === null ? page : null);
  if (whole !== null) {
    if (whole.length !== header.rows) throw new ProofError('collection', `the collection holds ${header.rows} rows, not ${whole.length}`);
    const root = await rootOf(await Promise.all(whole.map((r) => leafHash(rowLeaf(r)))));
    if (toBase64(root) !== header.rows_root) throw new ProofError('collection', 'the rows do not give the signed rows root');
    return { collection_id: id, header, rows_checked: whole.length };
  }
  if (isObject(answer['row']) && isObject(answer['row_proof'])) {
    const proof = answer['row_proof'] as unknown as InclusionProofJson;
    const path = Array.isArray(proof.hashes) ? proof.hashes.map((h) => fromBase64(String(h))) : [];
    const leaf = await leafHash(rowLeaf(answer['row'] as unknown as CollectionRow));
    if (!(await inclusionHolds(proof.leaf_index, header.rows, leaf, path, rowsRoot))) throw new ProofError('inclusion', 'the row is not proven a member of the collection');
    return { collection_id: id, header, rows_checked: 1 };
  }
  return { collection_id: id, header, rows_checked: 0 };
}
