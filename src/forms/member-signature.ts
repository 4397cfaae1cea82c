import { verifyWithDeploymentId } from './ed25519.js';
import { isJsonObject } from '../domain/json-object.js';
import { SigningKeys, type RotationRecord } from './signing-keys.js';

/** Whether `sig` is the member deployment's Ed25519 signature over `text`; a malformed signature or key is simply not one. */
export function memberSigned(member: string, text: string, sig: string): boolean {
  try {
    return verifyWithDeploymentId(member, text, sig);
  } catch {
    return false;
  }
}

/**
 * The member's signing keys from its deployment id through the key rotations a body carries
 * (`key_rotations`, after `gate key rotate`; none: the id is the only key), or why they do not
 * hold. A body signed after a rotation is signed by `current`; an event, by the key of its seq.
 */
export function memberKeys(member: string, rotations: unknown): SigningKeys | { problem: string } {
  const records = Array.isArray(rotations)
    ? rotations.filter(
        (r): r is RotationRecord => isJsonObject(r) && typeof r['seq'] === 'number' && typeof r['event_id'] === 'string' && typeof r['body'] === 'string' && typeof r['sig'] === 'string',
      )
    : [];
  return SigningKeys.fromRotations(member, records);
}
