import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { ed25519KeyTextProblem } from './strict-ed25519.js';

/**
 * Ed25519 signing and verifying as every signed form here uses it: signatures as base64url,
 * a deployment named by its public key (the JWK `x`). The key file itself is the journal's
 * (src/credentials/deployment-key.ts); these are pure, for the client, the org gate and workers.
 *
 * signWith: an Ed25519 signature as the journal stores it (base64url); the signing thread signs with the same function.
 */
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
