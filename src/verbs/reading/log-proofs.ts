import { z } from 'zod';
import { signCheckpoint } from '../../forms/checkpoint.js';
import type { House } from '../house.js';

/** How proofs leave the gate: hashes in standard base64, as the checkpoint writes its root. */
export const inclusionSchema = z
  .object({
    leaf_index: z.number().int().describe('the event is leaf seq - 1 of the journal tree'),
    hashes: z.array(z.string()).describe('RFC 9162 audit path, bottom up, base64 SHA-256 hashes'),
  })
  .describe("the event's inclusion proof in the tree the answer's checkpoint signs");

export const checkpointSchema = z
  .string()
  .describe('signed checkpoint note (C2SP): origin gate.journal/<deployment_id>, tree size, base64 root, the deployment signature');

export const keyRotationsSchema = z
  .array(z.object({ seq: z.number().int(), event_id: z.string(), body: z.string(), sig: z.string() }))
  .optional()
  .describe("the deployment's key rotations verbatim (absent while its first key signs): each signed by the key it retires, naming the next; a checker proves the signing key from deployment_id through them");

/**
 * The deployment's key-rotated events, for an answer holding signatures a rotation may have
 * made: the checker proves the key from the deployment id through them (docs/journal.md,
 * "Rotating the deployment key"). Nothing while the genesis key signs, so such answers are unchanged.
 */
export function keyRotations(house: Pick<House, 'store' | 'deployment'>) {
  return house.deployment.signingKeys.rotated ? { key_rotations: house.store.deploymentKeys.rotations() } : {};
}

/** The deployment's checkpoint of the journal's tree at `size` events. */
export const checkpointAt = (house: Pick<House, 'store' | 'deployment'>, size: number) => signCheckpoint(house.deployment.key, size, house.store.logTree.root(size), house.deployment.deploymentId);

/**
 * Proofs for one answer, all against the tree as it stands when the answer is made: the
 * checkpoint is signed once and every event's inclusion is proven in that same tree.
 */
export function answerProofs(house: Pick<House, 'store' | 'deployment'>) {
  const size = house.store.logTree.size();
  return {
    size,
    checkpoint: checkpointAt(house, size),
    /** Spread into the answer beside the checkpoint. */
    rotations: keyRotations(house),
    inclusion: (seq: number): z.infer<typeof inclusionSchema> => {
      const proof = house.store.logTree.inclusion(seq - 1, size);
      return { leaf_index: proof.leaf_index, hashes: proof.hashes.map((h) => h.toString('base64')) };
    },
  };
}
