import { describe, expect, it } from 'vitest';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { canonicalJson, sha256Hex } from '../../src/forms/canonical-json.js';
import { SigningKeys, type RotationRecord } from '../../src/forms/signing-keys.js';

/** The chain of a deployment's keys from its id through its rotations, each link checked (src/forms/signing-keys.ts). */
const pair = () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, id: publicKey.export({ format: 'jwk' }).x! };
};

function rotation(seq: number, signer: KeyObject, data: Record<string, unknown>): RotationRecord {
  const body = canonicalJson({ v: 1, seq, type: 'key-rotated', ts: 1, prev: null, by: null, data });
  return { seq, event_id: sha256Hex(body), body, sig: sign(null, Buffer.from(body), signer).toString('base64url') };
}

describe('SigningKeys', () => {
  const first = pair();
  const second = pair();
  const third = pair();
  const r1 = rotation(10, first.privateKey, { deployment_id: first.id, key: second.id, previous_key: first.id });
  const r2 = rotation(20, second.privateKey, { deployment_id: first.id, key: third.id, previous_key: second.id });

  it('proves each key from the deployment id and says which signs each seq', () => {
    const keys = SigningKeys.fromRotations(first.id, [r2, r1]);
    if ('problem' in keys) throw new Error(keys.problem);
    expect(keys.keys).toEqual([
      { key: first.id, from_seq: 1 },
      { key: second.id, from_seq: 11 },
      { key: third.id, from_seq: 21 },
    ]);
    expect([keys.keyAt(10), keys.keyAt(11), keys.keyAt(20), keys.keyAt(21)]).toEqual([first.id, second.id, second.id, third.id]);
    expect(keys.current).toBe(third.id);
  });

  it('refuses a rotation not signed by the key it retires, retiring another key, of another deployment, naming a weak or used key, or whose body is not its id', () => {
    const problem = (rotations: RotationRecord[]) => {
      const keys = SigningKeys.fromRotations(first.id, rotations);
      return 'problem' in keys ? keys.problem : null;
    };
    expect(problem([rotation(10, second.privateKey, { deployment_id: first.id, key: second.id, previous_key: first.id })])).toMatch(/not signed by the key it retires/);
    expect(problem([r1, rotation(20, first.privateKey, { deployment_id: first.id, key: third.id, previous_key: first.id })])).toMatch(/does not retire the key signing at its seq/);
    expect(problem([rotation(10, first.privateKey, { deployment_id: second.id, key: third.id, previous_key: first.id })])).toMatch(/names another deployment/);
    expect(problem([rotation(10, first.privateKey, { deployment_id: first.id, key: 'AQ' + 'A'.repeat(41), previous_key: first.id })])).toMatch(/no strong Ed25519 key/);
    expect(problem([r1, rotation(20, second.privateKey, { deployment_id: first.id, key: first.id, previous_key: second.id })])).toMatch(/a key the deployment used before/);
    expect(problem([{ ...r1, event_id: 'f'.repeat(64) }])).toMatch(/does not hash to its event id/);
  });
});
