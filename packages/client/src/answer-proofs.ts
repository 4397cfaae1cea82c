import { verifyCheckpoint, type VerifiedCheckpoint } from './checkpoint-check.js';
import { verifyConsistency, verifyInclusion, type InclusionProofJson } from './merkle-check.js';
import { ProofError } from './proof-error.js';

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
 * `deployment_id` and `verified` flags included. Resolves to the checkpoint and the count.
 */
export async function verifyEventProofs(deploymentId: string, answer: unknown): Promise<{ checkpoint: VerifiedCheckpoint; events: number }> {
  if (!isObject(answer) || typeof answer['checkpoint'] !== 'string') throw new ProofError('malformed', 'the answer carries no checkpoint');
  const list = Array.isArray(answer['events']) ? answer['events'] : Array.isArray(answer['decisions']) ? answer['decisions'] : null;
  if (list === null) throw new ProofError('malformed', 'the answer lists no events (gv.why) or decisions (gv.audit)');
  const checkpoint = await verifyCheckpoint(deploymentId, answer['checkpoint']);
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
 * answer must then carry from exactly that size.
 */
export async function verifyCheckpointAnswer(
  deploymentId: string,
  answer: unknown,
  older?: string | VerifiedCheckpoint,
): Promise<{ checkpoint: VerifiedCheckpoint; inclusion: boolean; consistency: boolean }> {
  if (!isObject(answer) || typeof answer['checkpoint'] !== 'string') throw new ProofError('malformed', 'the answer carries no checkpoint');
  const checkpoint = await verifyCheckpoint(deploymentId, answer['checkpoint']);
  if (answer['size'] !== checkpoint.size || answer['root'] !== checkpoint.root) throw new ProofError('malformed', 'size and root differ from the signed checkpoint');
  const inclusion = answer['inclusion'];
  if (inclusion !== undefined) {
    if (!isObject(inclusion) || typeof inclusion['event_id'] !== 'string' || typeof inclusion['seq'] !== 'number') throw new ProofError('malformed', 'an inclusion proof names its event_id and seq');
    await verifyInclusion(checkpoint, inclusion['event_id'], inclusion as unknown as InclusionProofJson, inclusion['seq']);
  }
  if (older === undefined) return { checkpoint, inclusion: inclusion !== undefined, consistency: false };
  const kept = typeof older === 'string' ? await verifyCheckpoint(deploymentId, older) : older;
  const consistency = answer['consistency'];
  if (!isObject(consistency) || consistency['from_size'] !== kept.size || !Array.isArray(consistency['hashes'])) {
    throw new ProofError('malformed', `the answer carries no consistency proof from size ${kept.size}`);
  }
  await verifyConsistency(kept, checkpoint, consistency['hashes'] as string[]);
  return { checkpoint, inclusion: inclusion !== undefined, consistency: true };
}
