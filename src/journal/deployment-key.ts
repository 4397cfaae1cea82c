import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { ed25519KeyTextProblem } from './strict-ed25519.js';
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

/** An Ed25519 signature as the journal stores it (base64url); the signing thread signs with the same function. */
export function signWith(privateKey: KeyObject, data: Uint8Array | string): string {
  return sign(null, typeof data === 'string' ? Buffer.from(data) : data, privateKey).toString('base64url');
}

/** Verifies a signature made by the deployment whose id is given (the id is the public key). */
export function verifyWithDeploymentId(deploymentId: string, data: Uint8Array | string, signature: string): boolean {
  const key = publicKeyOf(deploymentId);
  return key !== null && verify(null, typeof data === 'string' ? Buffer.from(data) : data, key, Buffer.from(signature, 'base64url'));
}

/**
 * Deployment ids met recently, as key objects: importing a JWK costs about what verifying
 * with it does, and an organization meets the same members' ids on every submission.
 */
const knownKeys = new Map<string, KeyObject>();
const KNOWN_KEYS_MAX = 4096;

export function publicKeyOf(deploymentId: string): KeyObject | null {
  let key = knownKeys.get(deploymentId);
  if (key === undefined) {
    // A weak key (small-order or non-canonical) verifies forgeries, so it verifies nothing. With
    // the key strong, node:crypto's check (s below L, R compared as canonical bytes) is RFC 8032's
    // strict one, at about a tenth of @noble/ed25519's cost on the org's busiest path (0.11 ms
    // against 1.26 ms a verify of 1 KB, one run side by side on the 2026-11-28 build machine).
    if (ed25519KeyTextProblem(deploymentId) !== null) return null;
    key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: deploymentId }, format: 'jwk' });
    if (knownKeys.size >= KNOWN_KEYS_MAX) knownKeys.delete(knownKeys.keys().next().value!);
    knownKeys.set(deploymentId, key);
  }
  return key;
}
