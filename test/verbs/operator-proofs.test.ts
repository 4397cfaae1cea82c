import { describe, expect, it } from 'vitest';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { InProcessServer } from '../harness/in-process-server.js';
import { useGate } from '../harness/use-gate.js';

const pair = generateKeyPairSync('ed25519');
const operator: KeyObject = pair.privateKey;
const operatorId = pair.publicKey.export({ format: 'jwk' }).x!;
// One key listed as base64url, a second (unused) as hex: both forms are accepted.
const other = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!;
const { gate: server } = useGate({
  kind: 'in-process',
  settings: { 'auth.operator_keys': [operatorId, Buffer.from(other, 'base64url').toString('hex')], 'auth.challenge_ttl_ms': 60_000 },
});

const sigOver = (nonce: string, key: KeyObject = operator) => sign(null, Buffer.from(nonce, 'ascii'), key).toString('hex');
async function proof(key: KeyObject = operator) {
  const { nonce, ttl_ms } = (await server.socket('gv.challenge')).result;
  expect(ttl_ms).toBe(60_000);
  return { nonce, sig: sigOver(nonce, key) };
}
const grant = (extra: Record<string, unknown> = {}) =>
  server.socket('gv.grant', { action: 'issue', grants: [{ principal: 'key:0123456789ab', space: 'main', capabilities: ['submit'] }], ...extra });

describe('operator proofs {nonce, sig} on operator-signed verbs', () => {
  it('gv.challenge answers a fresh nonce and ttl_ms each time', async () => {
    const a = (await server.socket('gv.challenge')).result;
    const b = (await server.socket('gv.challenge')).result;
    expect(a.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.nonce).not.toBe(b.nonce);
  });

  it('without a proof an operator-signed verb is refused proof_required', async () => {
    const res = await grant();
    expect(res.error).toMatchObject({ code: -32602, data: { reason: 'proof_required', field: 'proof' } });
  });

  it('with a proof it runs, and the journal event names the operator key', async () => {
    const res = await grant({ proof: await proof() });
    expect(res.error).toBeUndefined();
    const issued = server.journal('space-grant-issued').at(-1)!;
    expect(issued.data['operator_key']).toBe(operatorId);
  });

  it('a nonce is single-use: the replay is refused proof_replayed', async () => {
    const p = await proof();
    expect((await server.socket('gv.people', { action: 'assign', iss: 'https://idp.example', sub: 'u1', role: 'reader', proof: p })).error).toBeUndefined();
    const replay = await server.socket('gv.people', { action: 'assign', iss: 'https://idp.example', sub: 'u1', role: 'agent', proof: p });
    expect(replay.error?.data).toEqual({ reason: 'proof_replayed', field: 'proof' });
  });

  it('a nonce expires (injected clock)', async () => {
    const p = await proof();
    server.clock.advance(60_001);
    expect((await grant({ proof: p })).error?.data).toEqual({ reason: 'proof_expired', field: 'proof' });
  });

  it('a signature by a key that is not an operator key, or over other bytes, is proof_invalid', async () => {
    expect((await grant({ proof: await proof(generateKeyPairSync('ed25519').privateKey) })).error?.data).toEqual({ reason: 'proof_invalid', field: 'proof' });
    const { nonce } = (await server.socket('gv.challenge')).result;
    expect((await grant({ proof: { nonce, sig: sigOver(`${nonce}x`) } })).error?.data).toEqual({ reason: 'proof_invalid', field: 'proof' });
  });

  it('a nonce made up, or issued to another identity, is proof_unknown', async () => {
    const made = 'A'.repeat(43);
    expect((await grant({ proof: { nonce: made, sig: sigOver(made) } })).error?.data).toEqual({ reason: 'proof_unknown', field: 'proof' });
    const key = (await server.socket('gv.keys', { action: 'issue', role: 'reader' })).result.key;
    const theirs = (await server.rpc(key, 'gv.challenge')).result.nonce;
    expect((await grant({ proof: { nonce: theirs, sig: sigOver(theirs) } })).error?.data).toEqual({ reason: 'proof_unknown', field: 'proof' });
  });

  it('a malformed proof is refused by name', async () => {
    expect((await grant({ proof: { nonce: 'short', sig: 'zz' } })).error?.data).toEqual({ field: 'proof.nonce' });
    expect((await grant({ proof: { nonce: 'A'.repeat(43) } })).error?.data).toEqual({ field: 'proof.sig' });
  });

  it('gv.keys: issuing an admin or runner key needs a proof, an agent key does not', async () => {
    expect((await server.socket('gv.keys', { action: 'issue', role: 'admin' })).error?.data?.reason).toBe('proof_required');
    expect((await server.socket('gv.keys', { action: 'issue', role: 'runner' })).error?.data?.reason).toBe('proof_required');
    expect((await server.socket('gv.keys', { action: 'issue', role: 'agent' })).error).toBeUndefined();
    expect((await server.socket('gv.keys', { action: 'issue', role: 'admin', proof: await proof() })).result.role).toBe('admin');
  });

  it('gv.runner_assign needs a proof', async () => {
    const release = await server.socket('gv.runner_assign', { space: 'main', runner: null });
    expect(release.error?.data).toEqual({ reason: 'proof_required', field: 'proof' });
    expect((await server.socket('gv.runner_assign', { space: 'main', runner: null, proof: await proof() })).result).toMatchObject({ changed: false });
  });

  it('gv.people assign and remove need a proof; list does not', async () => {
    expect((await server.socket('gv.people')).error).toBeUndefined();
    expect((await server.socket('gv.people', { action: 'assign', iss: 'https://idp.example', sub: 'u2', role: 'reader' })).error?.data?.reason).toBe('proof_required');
    expect((await server.socket('gv.people', { action: 'remove', iss: 'https://idp.example', sub: 'u1' })).error?.data?.reason).toBe('proof_required');
    const removed = await server.socket('gv.people', { action: 'remove', iss: 'https://idp.example', sub: 'u1', proof: await proof() });
    expect(removed.result).toMatchObject({ removed: true, was: 'reader' });
    expect(server.journal('person-removed').at(-1)!.data['operator_key']).toBe(operatorId);
  });

  it('gv.verify checks a proof without spending it; gv.operator_proof says what needs one', async () => {
    const p = await proof();
    expect((await server.socket('gv.verify', { proof: p })).result).toEqual({ valid: true, operator_key: operatorId, nonce: 'fresh' });
    expect((await grant({ proof: p })).error).toBeUndefined();
    expect((await server.socket('gv.verify', { proof: p })).result).toEqual({ valid: false, operator_key: operatorId, nonce: 'used' });
    const described = (await server.socket('gv.operator_proof')).result;
    expect(described.required).toBe(true);
    expect(described.operator_keys[0]).toBe(operatorId);
    expect(described.verbs.map((v: { method: string }) => v.method)).toEqual(['gv.grant', 'gv.people', 'gv.person_add', 'gv.person_reset', 'gv.keys', 'gv.runner_assign', 'gv.erase']);
  });

  it('gv.erase is operator-signed: refused proof_required without a proof; with one, content_erased names the operator key', async () => {
    const row = (await server.socket('gv.ingest', { content: `erase me ${Date.now()}`, workarea: 'proofs', kind: 'memory', source_uri: 'test://proof' })).result.artifact_id;
    const bare = await server.socket('gv.erase', { artifact_id: row, reason: 'forget' });
    expect(bare.error).toMatchObject({ code: -32602, data: { reason: 'proof_required', field: 'proof' } });
    expect((await server.socket('gv.node', { artifact_id: row })).result.erased).toBeUndefined();
    const proven = await server.socket('gv.erase', { artifact_id: row, reason: 'forget', proof: await proof() });
    expect(proven.result).toMatchObject({ artifact_id: row, erased: true, changed: true });
    const event = server.journal('content_erased').at(-1)!;
    expect(event.data).toMatchObject({ artifact_id: row, operator_key: operatorId });
  });
});

describe('with no operator key configured', () => {
  it('operator-signed verbs run without a proof, and gv.operator_proof says none is required', async () => {
    const plain = await InProcessServer.start();
    try {
      expect((await plain.socket('gv.operator_proof')).result.required).toBe(false);
      const res = await plain.socket('gv.grant', { action: 'issue', grants: [{ principal: 'key:0123456789ab', space: 'main', capabilities: ['submit'] }] });
      expect(res.error).toBeUndefined();
    } finally {
      await plain.stop();
    }
  });
});
