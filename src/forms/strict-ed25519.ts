import { createHash, KeyObject, webcrypto } from 'node:crypto';
import { Point, hashes, verify } from '@noble/ed25519';

// @noble/ed25519's synchronous verify needs a SHA-512; node's is the one every other hash here uses.
hashes.sha512 ??= (message: Uint8Array) => new Uint8Array(createHash('sha512').update(message).digest());

/**
 * Why a raw Ed25519 public key is refused, or null when it may be trusted: it must be the
 * canonical encoding of a curve point (y below p, no "negative zero" x) outside the
 * small-order subgroup. For a small-order key (the identity `01 00…00`, all zeros, the six
 * others) a signature such as `01 00…00` verifies over any message without a private key.
 */
export function ed25519KeyProblem(raw: Uint8Array): string | null {
  if (raw.length !== 32) return 'an Ed25519 public key is 32 bytes';
  let point: InstanceType<typeof Point>;
  try {
    point = Point.fromBytes(raw, false);
  } catch {
    return 'not the canonical encoding of a point on Ed25519';
  }
  if (point.isSmallOrder()) return 'a small-order point, for which signatures can be made without a private key';
  return null;
}

/** The same for a key written as the deployment id is (base64url of the 32 raw bytes), which must also be that text exactly. */
export function ed25519KeyTextProblem(x: string): string | null {
  const raw = Buffer.from(x, 'base64url');
  if (raw.toString('base64url') !== x) return 'an Ed25519 public key is the base64url of its 32 bytes (43 characters)';
  return ed25519KeyProblem(raw);
}

/** The raw 32 bytes of an Ed25519 public key object, or null for a key of another kind. */
export function rawEd25519Key(key: KeyObject | webcrypto.CryptoKey): Uint8Array | null {
  const object = key instanceof KeyObject ? key : KeyObject.from(key);
  if (object.asymmetricKeyType !== 'ed25519') return null;
  const { x } = object.export({ format: 'jwk' });
  return typeof x === 'string' ? Buffer.from(x, 'base64url') : null;
}

/**
 * RFC 8032 verification as @noble/ed25519's strict mode (`zip215: false`) does it: key and R
 * canonical, s below L, a small-order key refused. Never throws: a malformed input does not verify.
 */
export function verifyEd25519Strict(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    return signature.length === 64 && publicKey.length === 32 && verify(signature, message, publicKey, { zip215: false });
  } catch {
    return false;
  }
}

/** A compact JWS (a JWT) whose signature holds under strict verification by this raw Ed25519 key. */
export function jwsHoldsStrictly(token: string, publicKey: Uint8Array): boolean {
  const [header, payload, signature] = token.split('.');
  if (header === undefined || payload === undefined || signature === undefined) return false;
  return verifyEd25519Strict(Buffer.from(signature, 'base64url'), Buffer.from(`${header}.${payload}`, 'ascii'), publicKey);
}
