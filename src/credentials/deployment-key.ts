import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { signWith } from '../forms/ed25519.js';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync, chmodSync, statSync } from 'node:fs';
import { fsyncDirectory } from '../config/atomic-write.js';
import { dirname } from 'node:path';

/**
 * An Ed25519 key of the deployment. Its public half, as base64url of the raw 32 bytes (the
 * JWK `x`), names it (`deploymentId`): the genesis key's is the deployment id (docs/protocol.md#invariants) for
 * ever; after `gate key rotate` the key that signs is another, named the same way, and the
 * JWKS names it so.
 * node:crypto signs about ten times faster than @noble/ed25519 here (docs/performance.md#floors), so the
 * hot path uses it; test/journal/signatures.test.ts proves both give identical signatures.
 */
export class DeploymentKey {
  readonly deploymentId: string;
  readonly publicKey: KeyObject;

  private constructor(private readonly privateKey: KeyObject) {
    this.publicKey = createPublicKey(privateKey);
    const jwk = this.publicKey.export({ format: 'jwk' });
    if (typeof jwk.x !== 'string') throw new Error('deployment key is not an Ed25519 key');
    this.deploymentId = jwk.x;
  }

  /** Loads deployment.key, creating it (mode 0600) on first start. */
  static openOrCreate(path: string): DeploymentKey {
    if (!existsSync(path)) {
      const { privateKey } = generateKeyPairSync('ed25519');
      writeFileSync(path, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
    }
    const mode = statSync(path).mode & 0o777;
    if ((mode & 0o077) !== 0) chmodSync(path, 0o600);
    const key = createPrivateKey(readFileSync(path));
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${path} does not hold an Ed25519 private key`);
    return new DeploymentKey(key);
  }

  sign(data: Uint8Array | string): string {
    return signWith(this.privateKey, data);
  }

  /**
   * The private key as a KeyObject, never served: jose signs this gate's sign-in tokens
   * (EdDSA) with it, and the journal's signing thread is handed it once (signing-thread.ts).
   */
  privateKeyObject(): KeyObject {
    return this.privateKey;
  }

  /** The raw 32-byte seed; only for deriving other keys (cursor sealing), never served. */
  seed(): Buffer {
    const jwk = this.privateKey.export({ format: 'jwk' });
    return Buffer.from(jwk.d as string, 'base64url');
  }
}

/** What the start did with a rotation `gate key rotate` left unfinished, for the log. */
export type RotationRepair = 'finished' | 'dropped' | null;

/**
 * The key that signs from now on, as the journal says: `signingKey` is the last rotation's key
 * (the deployment id when none), or null for a home with no journal yet (the key file is made
 * then). `gate key rotate` writes the new key beside the old (`nextPath`), journals the
 * rotation, then renames the new key over the old; a stop between the two is finished here
 * (the journal names the new key) or dropped (it does not). A key file that is not the key the
 * journal names refuses the start: signing with it would break the chain.
 */
export function openSigningKey(path: string, nextPath: string, signingKey: string | null): { key: DeploymentKey; repair: RotationRepair } {
  if (signingKey === null) return { key: DeploymentKey.openOrCreate(path), repair: null };
  if (!existsSync(path) && !existsSync(nextPath)) {
    throw new Error(`${path} is missing: the journal is signed by key ${signingKey}; put that key's file back (from a backup) before starting`);
  }
  let repair: RotationRepair = null;
  if (existsSync(nextPath)) {
    const next = DeploymentKey.openOrCreate(nextPath);
    if (next.deploymentId === signingKey) {
      renameSync(nextPath, path);
      fsyncDirectory(dirname(path));
      repair = 'finished';
    } else {
      rmSync(nextPath);
      repair = 'dropped';
    }
  }
  const key = DeploymentKey.openOrCreate(path);
  if (key.deploymentId !== signingKey) {
    throw new Error(`${path} holds key ${key.deploymentId}, but the journal is signed by key ${signingKey} from its last event on: put that key's file back (from a backup) before starting`);
  }
  return { key, repair };
}
