import { verifyAsync } from '@noble/ed25519';
import { checkpointOrigin, noteKeyHashInput, parseCheckpoint } from './forms/checkpoint-note.js';
import { ProofError } from './proof-error.js';
import { fromBase64, sameBytes, sha256 } from './web-hash.js';

/** A checkpoint whose signature held: the journal's tree of `size` events has root `root` (base64). */
export interface VerifiedCheckpoint {
  origin: string;
  size: number;
  root: string;
  note: string;
}

/**
 * Checks a checkpoint note against the deployment id alone (the id is the Ed25519 public
 * key): the origin and key name must be this deployment's log, the key hash must be the
 * key's, and the signature must verify over the body (@noble/ed25519, which needs only
 * WebCrypto's SHA-512, as src/forms/portable-verify.ts does for events). After a key
 * rotation the note is signed by another key: `signer` is that key, as `provenKeys` proves it
 * from the deployment id and the answer's key_rotations (the log is still named by the id).
 */
export async function verifyCheckpoint(deploymentId: string, note: string, signer: string = deploymentId): Promise<VerifiedCheckpoint> {
  const parsed = parseCheckpoint(note);
  if (parsed === null) throw new ProofError('malformed', 'not a checkpoint note');
  const origin = checkpointOrigin(deploymentId);
  if (parsed.origin !== origin) throw new ProofError('wrong_log', `the checkpoint is of ${parsed.origin}, not ${origin}`);
  const publicKey = fromBase64(signer);
  if (publicKey.length !== 32) throw new ProofError('malformed', 'a deployment id is 32 bytes of base64url');
  const keyHash = (await sha256(noteKeyHashInput(origin, publicKey))).subarray(0, 4);
  for (const { name, blob } of parsed.signatures) {
    const bytes = fromBase64(blob);
    if (name !== origin || bytes.length !== 68 || !sameBytes(bytes.subarray(0, 4), keyHash)) continue;
    let holds = false;
    try {
      holds = await verifyAsync(bytes.subarray(4), new TextEncoder().encode(parsed.body), publicKey, { zip215: false });
    } catch {
      holds = false;
    }
    if (!holds) throw new ProofError('signature', `the checkpoint's signature does not verify against ${signer === deploymentId ? 'the deployment id' : 'its signing key'}`);
    return { origin, size: parsed.size, root: parsed.root, note };
  }
  throw new ProofError('signature', 'the checkpoint carries no signature by this deployment');
}
