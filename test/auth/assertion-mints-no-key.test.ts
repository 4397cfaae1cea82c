import { beforeAll, describe, expect, it } from 'vitest';
import { assertionKeyPair, mintAgentAssertion } from '@gate/client';
import { useGate } from '../harness/use-gate.js';

const { gate: server } = useGate({ kind: 'in-process' });

let deploymentId: string;

beforeAll(async () => {
  deploymentId = (await server.socket('gv.ping')).result.deployment_id;
});

describe('an assertion cannot make a credential that outlives it', () => {
  it("a reviewer key's assertion may list keys but not issue one; the key itself may", async () => {
    const issued = (await server.socket('gv.keys', { action: 'issue', role: 'reviewer' })).result;
    const pair = assertionKeyPair();
    await server.rpc(issued.key, 'gv.assertion_key', { public_key: pair.publicKey });
    const assertion = await mintAgentAssertion({ keyId: issued.key_id, privateKey: pair.privateKey, deploymentId, now: () => server.clock.now() });

    const refused = await server.rpc(assertion, 'gv.keys', { action: 'issue', role: 'agent', label: 'outlives the assertion' });
    expect(refused.error).toMatchObject({ code: -32602, data: { reason: 'needs_api_key' } });
    const listed = await server.rpc(assertion, 'gv.keys', { action: 'list' });
    expect(listed.error).toBeUndefined();
    expect(listed.result.keys.map((k: { label: string | null }) => k.label)).not.toContain('outlives the assertion');

    const byKey = await server.rpc(issued.key, 'gv.keys', { action: 'issue', role: 'agent', label: 'by the key itself' });
    expect(byKey.result.key).toMatch(/^gk_/);
  });
});
