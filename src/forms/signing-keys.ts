import { sha256Hex } from './canonical-json.js';
import { verifyWithDeploymentId } from './ed25519.js';
import type { EventEnvelope } from './event.js';
import { ed25519KeyTextProblem } from './strict-ed25519.js';

/** The journal event that hands the deployment's signing to a new key (docs/journal.md, "Rotating the deployment key"). */
export const KEY_ROTATED = 'key-rotated';

/** A key-rotated event as the journal keeps it and answers carry it: its canonical body and the signature of the key it retires. */
export interface RotationRecord {
  seq: number;
  event_id: string;
  body: string;
  sig: string;
}

/** One key of a deployment and the first seq it signs (the genesis key signs from seq 1). */
export interface SigningKey {
  key: string;
  from_seq: number;
}

/**
 * Who signed what in one deployment: the deployment id is the first key's public half and
 * stays the deployment's name for ever; each rotation, signed by the key it retires, names
 * the key that signs every event after it.
 */
export class SigningKeys {
  private constructor(
    readonly deploymentId: string,
    /** In order, the genesis key first. */
    readonly keys: readonly SigningKey[],
  ) {}

  static ofDeployment(deploymentId: string): SigningKeys {
    return new SigningKeys(deploymentId, [{ key: deploymentId, from_seq: 1 }]);
  }

  /**
   * The chain of keys from the deployment id through each rotation, every link checked: the
   * event hashes to its id, is a rotation of this deployment naming the key it retires (the
   * one signing at its seq), is signed by that key, and names a strong Ed25519 key. Only the
   * deployment id is trusted; everything else is proven from it.
   */
  static fromRotations(deploymentId: string, rotations: readonly RotationRecord[]): SigningKeys | { problem: string } {
    let chain = SigningKeys.ofDeployment(deploymentId);
    for (const rotation of [...rotations].sort((a, b) => a.seq - b.seq)) {
      const next = chain.after(rotation);
      if ('problem' in next) return next;
      chain = next;
    }
    return chain;
  }

  /** The key that signs the event of `seq`. */
  keyAt(seq: number): string {
    let key = this.keys[0]!.key;
    for (const k of this.keys) if (k.from_seq <= seq) key = k.key;
    return key;
  }

  /** The key that signs from now on (the last rotation's). */
  get current(): string {
    return this.keys.at(-1)!.key;
  }

  get rotated(): boolean {
    return this.keys.length > 1;
  }

  /** This chain with one more rotation, or why the rotation does not hold. */
  after(rotation: RotationRecord): SigningKeys | { problem: string } {
    const problem = rotationProblem(this, rotation);
    if (problem !== null) return { problem: `the key rotation at seq ${rotation.seq} ${problem}` };
    const data = (JSON.parse(rotation.body) as EventEnvelope).data;
    return new SigningKeys(this.deploymentId, [...this.keys, { key: data['key'] as string, from_seq: rotation.seq + 1 }]);
  }
}

function rotationProblem(chain: SigningKeys, rotation: RotationRecord): string | null {
  if (sha256Hex(rotation.body) !== rotation.event_id) return 'does not hash to its event id';
  let envelope: EventEnvelope;
  try {
    envelope = JSON.parse(rotation.body) as EventEnvelope;
  } catch {
    return 'is not JSON';
  }
  if (envelope.type !== KEY_ROTATED || envelope.seq !== rotation.seq) return 'is not a key rotation at its seq';
  const retiring = chain.keyAt(rotation.seq);
  const { deployment_id: deploymentId, key, previous_key: previousKey } = envelope.data ?? {};
  if (deploymentId !== chain.deploymentId) return 'names another deployment';
  if (previousKey !== retiring) return 'does not retire the key signing at its seq';
  if (typeof key !== 'string' || ed25519KeyTextProblem(key) !== null) return 'names no strong Ed25519 key';
  if (chain.keys.some((k) => k.key === key)) return 'names a key the deployment used before';
  let signed = false;
  try {
    signed = verifyWithDeploymentId(retiring, rotation.body, rotation.sig);
  } catch {
    signed = false;
  }
  return signed ? null : 'is not signed by the key it retires';
}
