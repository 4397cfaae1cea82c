import { beforeAll, describe, expect, it } from 'vitest';
import { assertionKeyPair, mintAgentAssertion } from '@gate/client';
import { useGate } from '../harness/use-gate.js';

const { gate: server } = useGate({ kind: 'in-process' });

let deploymentId: string;

beforeAll(async () => {
  deploymentId = (await server.socket('gv.ping')).result.deployment_id;
});

const agentKey = () => server.issueKey('agent');

/** The identity /rpc takes a bearer as, or its 401 kind. */
async function takenAs(bearer: string): Promise<string> {
  const res = await server.http('POST', '/rpc', { key: bearer, body: { jsonrpc: '2.0', id: 1, method: 'gv.describe' } });
  return res.status === 401 ? res.json.kind : res.json.result.you.identity;
}

describe('the assertion key is bound with the long-lived credential only', () => {
  it("an assertion cannot bind, replace or remove its key's assertion key: whoever holds one for five minutes gains nothing lasting", async () => {
    const owner = await agentKey();
    const ownerPair = assertionKeyPair();
    const bound = await server.rpc(owner.key, 'gv.assertion_key', { public_key: ownerPair.publicKey });
    expect(bound.result).toMatchObject({ changed: true, public_key: ownerPair.publicKey });
    const opts = { keyId: owner.keyId, deploymentId, now: () => server.clock.now() };
    const stolen = await mintAgentAssertion({ ...opts, privateKey: ownerPair.privateKey });

    const thief = assertionKeyPair();
    const replace = await server.rpc(stolen, 'gv.assertion_key', { public_key: thief.publicKey });
    expect(replace.error).toMatchObject({ code: -32602, data: { reason: 'needs_api_key' } });
    expect(replace.error?.message).toContain('never an assertion');
    const remove = await server.rpc(stolen, 'gv.assertion_key', { remove: true });
    expect(remove.error).toMatchObject({ code: -32602, data: { reason: 'needs_api_key' } });

    // Nothing changed: the thief's own tokens are refused, the owner's still accepted, past the stolen one's life.
    expect(await takenAs(await mintAgentAssertion({ ...opts, privateKey: thief.privateKey }))).toBe('signature');
    server.clock.advance(400_000);
    expect(await takenAs(stolen)).toBe('expired');
    expect(await takenAs(await mintAgentAssertion({ ...opts, privateKey: ownerPair.privateKey }))).toBe(`key:${owner.keyId}`);

    // An assertion may still read the binding.
    const read = await server.rpc(await mintAgentAssertion({ ...opts, privateKey: ownerPair.privateKey }), 'gv.assertion_key', {});
    expect(read.result).toMatchObject({ key_id: owner.keyId, public_key: ownerPair.publicKey, change_event_id: bound.result.event_id });
  });

  it('a replacement made with the API key is journaled, and its holder sees when and by which event', async () => {
    const owner = await agentKey();
    const first = assertionKeyPair();
    const second = assertionKeyPair();
    const bound = (await server.rpc(owner.key, 'gv.assertion_key', { public_key: first.publicKey })).result;
    expect(bound).toMatchObject({ changed: true, change_event_id: bound.event_id, changed_at: expect.any(Number) });
    server.clock.advance(1_000);
    const replaced = (await server.rpc(owner.key, 'gv.assertion_key', { public_key: second.publicKey })).result;
    expect(replaced).toMatchObject({ changed: true, public_key: second.publicKey, change_event_id: replaced.event_id });
    expect(replaced.event_id).not.toBe(bound.event_id);
    expect(replaced.changed_at).toBeGreaterThan(bound.changed_at);
    const read = (await server.rpc(owner.key, 'gv.assertion_key', {})).result;
    expect(read).toMatchObject({ public_key: second.publicKey, changed_at: replaced.changed_at, change_event_id: replaced.event_id });
    // What the holder reads is the journal's: replayed into fresh tables, the view is the same.
    expect((await server.socket('gv.rebuild', {})).result.equal).toBe(true);
    const removed = (await server.rpc(owner.key, 'gv.assertion_key', { remove: true })).result;
    expect(removed).toMatchObject({ public_key: null, changed: true, change_event_id: removed.event_id });
  });

  it('the operator on the socket, the other long-lived credential, may bind, replace or remove it for a named key', async () => {
    const owner = await agentKey();
    const pair = assertionKeyPair();
    const opts = { keyId: owner.keyId, deploymentId, now: () => server.clock.now() };
    const bound = await server.socket('gv.assertion_key', { key_id: owner.keyId, public_key: pair.publicKey });
    expect(bound.result).toMatchObject({ key_id: owner.keyId, public_key: pair.publicKey, changed: true, assertion: { iss: `key:${owner.keyId}` } });
    const token = await mintAgentAssertion({ ...opts, privateKey: pair.privateKey });
    expect(await takenAs(token)).toBe(`key:${owner.keyId}`);
    // The holder sees the change the operator made.
    expect((await server.rpc(owner.key, 'gv.assertion_key', {})).result).toMatchObject({ public_key: pair.publicKey, change_event_id: bound.result.event_id });
    // Neither an API key nor its assertion may name another key.
    const other = await agentKey();
    expect((await server.rpc(other.key, 'gv.assertion_key', { key_id: owner.keyId, remove: true })).error).toMatchObject({ code: -32602, data: { field: 'key_id' } });
    expect((await server.rpc(token, 'gv.assertion_key', { key_id: owner.keyId, remove: true })).error).toMatchObject({ code: -32602, data: { field: 'key_id' } });
    expect((await server.socket('gv.assertion_key', { key_id: 'ffffffffffff', remove: true })).error).toMatchObject({ code: -32602, data: { field: 'key_id' } });
    expect((await server.socket('gv.assertion_key', { key_id: owner.keyId, remove: true })).result).toMatchObject({ public_key: null, changed: true });
    expect(await takenAs(await mintAgentAssertion({ ...opts, privateKey: pair.privateKey }))).toBe('signature');
  });
});
