import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { signWith } from '../forms/ed25519.js';
import { existsSync, readFileSync, writeFileSync, chmodSync, statSync } from 'node:fs';

/**
 * The deployment's Ed25519 key. Its public half, as base64url of the raw 32 bytes (the
 * JWK `x`), is the deployment id (spec 1): the same string names the key in the JWKS.
 * node:crypto signs about ten times faster than @noble/ed25519 here (FLOORS.md), so the
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
