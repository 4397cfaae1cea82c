import { createHash } from 'node:crypto';
import { checkpointBody, checkpointOrigin, noteKeyHashInput, signatureLine } from '@gate/client/forms';

/** What signs a checkpoint: the deployment key (src/journal/deployment-key.ts) or a test's. */
export interface CheckpointSigner {
  readonly deploymentId: string;
  sign(data: string): string;
}

/**
 * The deployment's signed checkpoint of the journal's tree at `size` (checkpoint-note.ts).
 * Ed25519 is deterministic and the note holds no time, so the same size always gives the
 * same bytes: a checkpoint is made when asked for and never stored. Its text cannot be
 * taken for anything else the deployment key signs: event bodies and submissions are JSON
 * (a submission behind its own prefix), sign-in tokens are dot-joined base64url.
 */
export function signCheckpoint(key: CheckpointSigner, size: number, root: Buffer): string {
  const origin = checkpointOrigin(key.deploymentId);
  const body = checkpointBody(origin, size, root.toString('base64'));
  const publicKey = Buffer.from(key.deploymentId, 'base64url');
  const keyHash = createHash('sha256').update(noteKeyHashInput(origin, publicKey)).digest().subarray(0, 4);
  const signature = Buffer.from(key.sign(body), 'base64url');
  return `${body}\n${signatureLine(origin, Buffer.concat([keyHash, signature]).toString('base64'))}`;
}
