import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, renameSync, writeFileSync } from 'node:fs';
import { generateKeyPairSync, sign } from 'node:crypto';
import { join } from 'node:path';
import { GateProcess, uniqueText } from '../harness/gate-process.js';
import { gateCommand } from '../harness/gate-command.js';
import { signIn, startGateWithIssuer, type SignedInPerson } from '../harness/sign-in.js';
import { launchBrowser } from '../harness/browser.js';
import { signInThroughTheBrowser } from '../harness/browser-sign-in.js';
import { ProofError, provenKeys, verifyCheckpoint, verifyCheckpointAnswer, verifyCollection, verifyEventProofs } from '@gate/client/proofs';
import { DeploymentKey } from '../../src/credentials/deployment-key.js';

/**
 * `gate key rotate` on a stopped gate, then the gate as a reader, a checker and a person meet
 * it: the deployment id stays, old signatures still verify and new ones are by the new key,
 * `gate verify` and gv.audit_chain follow the rotation, the answers' proofs carry the rotation
 * and verify with the deployment id alone (a checkpoint kept from before too), the JWKS names
 * the new key and a token of the old one is refused; and a rotation cut short between the
 * journal and the key file is finished, or dropped, by the next start.
 */
let gate: GateProcess;
let person: SignedInPerson;
let agent: string;
let reviewer: string;
let before: string;
let after: string;
let keptCheckpoint: string;
let oldKey: string;
let cursor: string;

beforeAll(async () => {
  gate = await startGateWithIssuer();
  agent = (await gate.key('agent')).key;
  reviewer = (await gate.key('reviewer')).key;
  person = await signIn(gate, { role: 'reviewer' });
  before = (await gate.rpc(agent, 'gv.ingest', { content: uniqueText('before'), workarea: 'rot', kind: 'memory', source_uri: 'test://rot' })).result.artifact_id;
  await gate.readBody(reviewer, before);
  expect((await gate.rpc(reviewer, 'gv.promote', { artifact_id: before })).result.state).toBe('ACTIVE');
  expect((await gate.socket('gv.publish', { space: 'main', name: 'kept' })).error).toBeUndefined();
  keptCheckpoint = (await gate.socket('gv.checkpoint')).result.checkpoint;
  cursor = (await gate.rpc(agent, 'gv.events', {})).result.next;
  oldKey = gate.deploymentId;
}, 120_000);
afterAll(async () => {
  await gate?.stop();
});

describe('gate key rotate', () => {
  it('is refused while the gate runs', async () => {
    const refused = await gateCommand(['key', 'rotate', '--home', gate.home]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/another gate \(pid \d+\) is serving this home.*stop the gate first/);
  });

  it('journals a rotation signed by the old key naming the new one; the deployment id stays and the chain verifies across it', async () => {
    await gate.stop();
    const rotated = await gateCommand(['key', 'rotate', '--home', gate.home]);
    expect(rotated.code, rotated.err).toBe(0);
    const m = /key-rotated at seq (\d+) \([0-9a-f]{64}\), signed by (\S+), names (\S+);/.exec(rotated.out)!;
    expect(m[2]).toBe(oldKey);
    const newKey = m[3]!;
    expect(DeploymentKey.openOrCreate(join(gate.home, 'deployment.key')).deploymentId).toBe(newKey);
    expect(existsSync(join(gate.home, 'deployment.key.next'))).toBe(false);
    const verified = await gateCommand(['verify', '--home', gate.home]);
    expect(verified.code, verified.out).toBe(0);
    expect(verified.out).toContain(`signing keys: ${oldKey} from seq 1, ${newKey} from seq ${Number(m[1]) + 1}`);

    await gate.restart();
    expect(gate.deploymentId).toBe(oldKey);
    after = (await gate.rpc(agent, 'gv.ingest', { content: uniqueText('after'), workarea: 'rot', kind: 'memory', source_uri: 'test://rot' })).result.artifact_id;
    const chain = (await gate.socket('gv.audit_chain')).result;
    expect(chain).toMatchObject({ ok: true, deployment_id: oldKey, keys: [{ key: oldKey, from_seq: 1 }, { key: newKey, from_seq: Number(m[1]) + 1 }] });
    // gv.why's own check of each event against the key signing at its seq.
    for (const id of [before, after]) {
      const why = (await gate.rpc(agent, 'gv.why', { artifact_id: id })).result;
      expect(why.events.every((e: { verified: boolean }) => e.verified)).toBe(true);
    }
    // A cursor sealed under the old key's derivation is refused; a fresh read goes on.
    expect((await gate.rpc(agent, 'gv.events', { since: cursor })).error).toMatchObject({ code: -32602, message: 'since is not a usable cursor' });
    expect((await gate.rpc(agent, 'gv.events', {})).result.events.length).toBeGreaterThan(0);
  });

  it("the answers carry the rotation and their proofs verify with the deployment id alone; a checkpoint kept from before is consistent", async () => {
    const why = (await gate.rpc(agent, 'gv.why', { artifact_id: before })).result;
    expect(why.key_rotations).toHaveLength(1);
    expect(await verifyEventProofs(oldKey, why)).toMatchObject({ events: why.events.length });
    const keys = await provenKeys(oldKey, why.key_rotations);
    expect(keys.keys).toHaveLength(2);
    // Without the rotations the new checkpoint is refused: the answer carries what a checker needs.
    const refused = await verifyCheckpoint(oldKey, why.checkpoint).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProofError);
    expect((refused as ProofError).code).toBe('signature');

    const kept = (await gate.socket('gv.checkpoint', { from_size: Number(keptCheckpoint.split('\n')[1]) })).result;
    expect(await verifyCheckpointAnswer(oldKey, kept, keptCheckpoint)).toMatchObject({ consistency: true });
    // A collection published before the rotation: its cut and its publish event were signed by the old key, the rest now by the new.
    const collection = (await gate.rpc(agent, 'gv.collection', { space: 'main', name: 'kept' })).result;
    expect(await verifyCollection(oldKey, collection)).toMatchObject({ rows_checked: collection.rows.length });

    // A forged rotation (another key signs it) is refused.
    const forged = structuredClone(why);
    const stranger = generateKeyPairSync('ed25519').privateKey;
    forged.key_rotations[0].sig = sign(null, Buffer.from(forged.key_rotations[0].body), stranger).toString('base64url');
    expect(((await verifyEventProofs(oldKey, forged).catch((e: unknown) => e)) as ProofError).code).toBe('signature');

    const file = join(gate.home, '..', 'why.json');
    writeFileSync(file, JSON.stringify(why));
    const proof = await gateCommand(['proof', 'verify', file, '--deployment-id', oldKey]);
    expect(proof.code, proof.out).toBe(0);
  });

  it("signs people's tokens with the new key: the JWKS names it, a token of the old key is refused, a refresh gives a new one", async () => {
    const jwks = (await gate.http('GET', '/oauth/jwks')).json;
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0].kid).not.toBe(oldKey);
    expect((await gate.http('POST', '/rpc', { key: person.accessToken, body: { jsonrpc: '2.0', id: 1, method: 'gv.describe' } })).status).toBe(401);
    const refreshed = await gate.http('POST', '/oauth/token', {
      raw: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: person.refreshToken, client_id: 'gate-console' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect((await gate.rpc(refreshed.json.access_token, 'gv.describe')).result.you.identity).toBe(person.identity);
  });

  it("the console checks each event in the browser against the key signing at its seq, proven from the deployment id", async () => {
    const browser = await launchBrowser();
    try {
      const page = await (await browser.newContext()).newPage();
      await signInThroughTheBrowser(page, gate.url, person.email, person.password);
      for (const id of [before, after]) {
        await page.goto(`${gate.url}/app#/row/${encodeURIComponent(id)}`);
        await page.locator('ol.events li').first().waitFor();
        await page.waitForFunction(() => [...document.querySelectorAll('ol.events li')].every((li) => li.getAttribute('data-link') !== 'checking'));
        const checks = await page.locator('ol.events li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-check')));
        expect(checks.length).toBeGreaterThan(1);
        expect(checks.every((c) => c === 'verified'), `${id}: ${checks.join(', ')}`).toBe(true);
        expect(await page.locator('.sig-alarm').count()).toBe(0);
      }
    } finally {
      await browser.close();
    }
  });

  it('a rotation cut short after its journal write is finished by the next start; a new key never journaled is dropped', async () => {
    await gate.stop();
    const keyFile = join(gate.home, 'deployment.key');
    const aside = join(gate.home, '..', 'key-before');
    copyFileSync(keyFile, aside);
    expect((await gateCommand(['key', 'rotate', '--home', gate.home])).code).toBe(0);
    const journaled = DeploymentKey.openOrCreate(keyFile).deploymentId;
    // As if the stop came between the journal's commit and the rename: the new key still beside the old.
    renameSync(keyFile, join(gate.home, 'deployment.key.next'));
    copyFileSync(aside, keyFile);
    await gate.restart();
    await expect.poll(() => gate.stderr.join('\n'), { timeout: 10_000 }).toContain('finished a key rotation a stop had cut short');
    expect(DeploymentKey.openOrCreate(keyFile).deploymentId).toBe(journaled);
    expect((await gate.socket('gv.audit_chain')).result).toMatchObject({ ok: true });

    await gate.stop();
    // A key written and never journaled (the stop came before the rotation's write).
    writeFileSync(join(gate.home, 'deployment.key.next'), generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
    await gate.restart();
    await expect.poll(() => gate.stderr.join('\n'), { timeout: 10_000 }).toContain('the key rotation that wrote it was never journaled, and the key stays');
    expect(existsSync(join(gate.home, 'deployment.key.next'))).toBe(false);
    expect(DeploymentKey.openOrCreate(keyFile).deploymentId).toBe(journaled);

    // The key file of another key altogether refuses the start, naming the key the journal wants.
    await gate.stop();
    writeFileSync(keyFile, generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }));
    const refused = await gateCommand(['serve', '--home', gate.home, '--port', '0']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`but the journal is signed by key ${journaled} from its last event on`);
  }, 120_000);
});
