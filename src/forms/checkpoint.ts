import { createHash } from 'node:crypto';
import { checkpointBody, checkpointOrigin, noteKeyHashInput, signatureLine } from '@gate/client/forms';

/** What signs a checkpoint: the deployment's signing key (src/credentials/deployment-key.ts) or a test's; `deploymentId` is the key's public half. */
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
 * `deploymentId` names the log: the signing key's own id until the key is rotated.
 */
export function signCheckpoint(key: CheckpointSigner, size: number, root: Buffer, deploymentId = key.deploymentId): string {
  // The log is the deployment's, named by its id for ever; the key hash names the key that signs (another after a rotation).
  const origin = checkpointOrigin(deploymentId);
  const body = checkpointBody(origin, size, root.toString('base64'));
  const publicKey = Buffer.from(key.deploymentId, 'base64url');
  const keyHash = createHash('sha256').update(noteKeyHashInput(origin, publicKey)).digest().subarray(0, 4);
  const signature = Buffer.from(key.sign(body), 'base64url');
  return `${body}\n${signatureLine(origin, Buffer.concat([keyHash, signature]).toString('base64'))}`;
}
