import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** An operator's Ed25519 private key from its file (gate operator keygen); throws naming what is wrong. */
export function readOperatorKey(file: string): KeyObject {
  const key = createPrivateKey(readFileSync(file));
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('not an Ed25519 key');
  return key;
}

/** A proof for one operator-signed verb: the hex Ed25519 signature over the nonce's ASCII bytes (docs/sign-in.md#operator-proofs). */
export function operatorProof(key: KeyObject, nonce: string): { nonce: string; sig: string } {
  return { nonce, sig: sign(null, Buffer.from(nonce, 'ascii'), key).toString('hex') };
}
