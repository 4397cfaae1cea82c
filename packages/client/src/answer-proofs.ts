import { verifyCheckpoint, type VerifiedCheckpoint } from './checkpoint-check.js';
import { verifyConsistency, verifyInclusion, type InclusionProofJson } from './merkle-check.js';
import { ProofError } from './proof-error.js';
import { provenKeys } from './key-chain-check.js';

interface ProvenEvent {
  event_id: string;
  seq: number;
  inclusion: InclusionProofJson;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks a gv.why answer (its `events`) or a gv.audit answer (its `decisions`) with the
 * deployment id alone: the checkpoint's signature, then each event's inclusion as leaf
 * seq - 1 of the tree it signs. Nothing the answer says about itself is trusted, its own
 * `deployment_id` and `verified` flags included. After a key rotation the checkpoint is
 * signed by the key the answer's `key_rotations` prove from the deployment id. Resolves to the
 * checkpoint and the count.
 */
export async function verifyEventProofs(deploymentId: string, answer: unknown): Promise<{ checkpoint: VerifiedCheckpoint; events: number }> {
  if (!isObject(answer) || typeof answer['checkpoint'] !== 'string') throw new ProofError('malformed', 'the answer carries no checkpoint');
  const list = Array.isArray(answer['events']) ? answer['events'] : Array.isArray(answer['decisions']) ? answer['decisions'] : null;
  if (list === null) throw new ProofError('malformed', 'the answer lists no events (gv.why) or decisions (gv.audit)');
  const keys = await provenKeys(deploymentId, answer['key_rotations']);
  const checkpoint = await verifyCheckpoint(deploymentId, answer['checkpoint'], keys.current);
  for (const event of list as ProvenEvent[]) {
    if (!isObject(event) || typeof event.event_id !== 'string' || typeof event.seq !== 'number') throw new ProofError('malformed', 'an event lacks its event_id or seq');
    await verifyInclusion(checkpoint, event.event_id, event.inclusion, event.seq);
  }
  return { checkpoint, events: list.length };
}

/**
 * Checks a gv.checkpoint answer: its checkpoint's signature and that `size` and `root` are
 * the ones signed; its inclusion proof when it carries one; and, given the older checkpoint
 * a reader kept (its note, or already verified), the consistency proof from it, which the
 * answer must then carry from exactly that size. After a key rotation the answer's checkpoint
 * is signed by the newest key its `key_rotations` prove; the kept one by any key of the
 * deployment (it was kept when that key signed).
 */
export async function verifyCheckpointAnswer(
  deploymentId: string,
  answer: unknown,
  older?: string | VerifiedCheckpoint,
): Promise<{ checkpoint: VerifiedCheckpoint; inclusion: boolean; consistency: boolean }> {
  if (!isObject(answer) || typeof answer['checkpoint'] !== 'string') throw new ProofError('malformed', 'the answer carries no checkpoint');
  const keys = await provenKeys(deploymentId, answer['key_rotations']);
  const checkpoint = await verifyCheckpoint(deploymentId, answer['checkpoint'], keys.current);
  if (answer['size'] !== checkpoint.size || answer['root'] !== checkpoint.root) throw new ProofError('malformed', 'size and root differ from the signed checkpoint');
  const inclusion = answer['inclusion'];
  if (inclusion !== undefined) {
    if (!isObject(inclusion) || typeof inclusion['event_id'] !== 'string' || typeof inclusion['seq'] !== 'number') throw new ProofError('malformed', 'an inclusion proof names its event_id and seq');
    await verifyInclusion(checkpoint, inclusion['event_id'], inclusion as unknown as InclusionProofJson, inclusion['seq']);
  }
  if (older === undefined) return { checkpoint, inclusion: inclusion !== undefined, consistency: false };
  const kept = typeof older === 'string' ? await keptCheckpoint(deploymentId, older, keys.keys.map((k) => k.key)) : older;
  const consistency = answer['consistency'];
  if (!isObject(consistency) || consistency['from_size'] !== kept.size || !Array.isArray(consistency['hashes'])) {
    throw new ProofError('malformed', `the answer carries no consistency proof from size ${kept.size}`);
  }
  await verifyConsistency(kept, checkpoint, consistency['hashes'] as string[]);
  return { checkpoint, inclusion: inclusion !== undefined, consistency: true };
}

/** A checkpoint a reader kept: signed by whichever key of the deployment signed when it was kept, newest first. */
async function keptCheckpoint(deploymentId: string, note: string, keys: readonly string[]): Promise<VerifiedCheckpoint> {
  let refused: unknown;
  for (const key of [...keys].reverse()) {
    try {
      return await verifyCheckpoint(deploymentId, note, key);
    } catch (error) {
      refused ??= error;
      if (!(error instanceof ProofError) || error.code !== 'signature') throw error;
    }
  }
  throw refused;
}
