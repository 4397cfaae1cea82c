import { describe, expect, it } from 'vitest';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ed from '@noble/ed25519';
import { DeploymentKey } from '../../src/credentials/deployment-key.js';
import { verifyWithDeploymentId } from '../../src/forms/ed25519.js';
import { verifyEventSignature } from '../../src/forms/portable-verify.js';
import { canonicalJson } from '../../src/forms/canonical-json.js';

ed.hashes.sha512 = (m: Uint8Array) => new Uint8Array(createHash('sha512').update(m).digest());

describe('Ed25519 signatures: node:crypto in the hot path, @noble/ed25519 where node:crypto is absent', () => {
  it('both libraries produce byte-identical signatures for the same key and message', async () => {
    for (let i = 0; i < 20; i++) {
      const { privateKey } = generateKeyPairSync('ed25519');
      const seed = Buffer.from(privateKey.export({ format: 'jwk' }).d as string, 'base64url');
      const message = Buffer.from(canonicalJson({ v: 1, seq: i, type: 'ingest', data: { n: Math.random() } }));
      const viaNode = sign(null, message, privateKey);
      const viaNobleSync = ed.sign(message, seed);
      const viaNobleAsync = await ed.signAsync(message, seed);
      expect(Buffer.from(viaNobleSync).toString('hex')).toBe(viaNode.toString('hex'));
      expect(Buffer.from(viaNobleAsync).toString('hex')).toBe(viaNode.toString('hex'));
    }
  });

  it('a deployment key signature verifies with node:crypto and with the portable verifier, and a changed byte fails both', async () => {
    const key = DeploymentKey.openOrCreate(join(mkdtempSync(join(tmpdir(), 'gate-key-')), 'deployment.key'));
    const body = canonicalJson({ v: 1, seq: 1, type: 'deployment-created', prev: null, data: { deployment_id: key.deploymentId } });
    const sig = key.sign(body);
    expect(verifyWithDeploymentId(key.deploymentId, body, sig)).toBe(true);
    expect(await verifyEventSignature(key.deploymentId, body, sig)).toBe(true);
    const tampered = body.replace('deployment-created', 'deployment-createD');
    expect(verifyWithDeploymentId(key.deploymentId, tampered, sig)).toBe(false);
    expect(await verifyEventSignature(key.deploymentId, tampered, sig)).toBe(false);
  });

  it('the deployment id is the base64url raw public key, and the key file is private', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gate-key-'));
    const key = DeploymentKey.openOrCreate(join(dir, 'deployment.key'));
    expect(key.deploymentId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const { statSync } = await import('node:fs');
    expect(statSync(join(dir, 'deployment.key')).mode & 0o777).toBe(0o600);
    expect(DeploymentKey.openOrCreate(join(dir, 'deployment.key')).deploymentId).toBe(key.deploymentId);
  });
});
