import { generateKeyPairSync, sign as edSign } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedInPerson } from '../harness/sign-in.js';
import type { InProcessServer } from '../harness/in-process-server.js';
import { useGate, type GateFixture } from '../harness/use-gate.js';

/**
 * `human_required` means a signature of class human. In an auto space with the built-in
 * reviewers, a row the critical stance rejects waits for a person; a reviewer key's approval
 * is recorded and counts toward k, but neither its gv.sign with promote, nor its gv.promote,
 * nor the deployment's settle promotes the row. A person's approval answers the rejection, and
 * so does the operator's with a proof.
 */
const AUTO = { GATE_SPACES_MAIN_POLICY: 'auto', GATE_REVIEW_QUORUM_PROFILE: 'standard' };
type Fixture = GateFixture<InProcessServer, { agent: 'agent'; reviewer: 'reviewer' }>;

let n = 0;
/** Reads of one fixture's gate: a row the local reviewer's critical stance rejects (too short to be a claim), its approval. */
function rowsOf({ gate, keys: { agent, reviewer }, ingestId }: Fixture) {
  const approval = async (id: string) => (await gate.rpc(reviewer.key, 'gv.approval', { artifact_id: id })).result;
  return {
    approval,
    state: async (id: string) => (await approval(id)).state as string,
    async modelRejected(): Promise<string> {
      n += 1;
      const id = await ingestId(agent, { content: `ok ${Date.now().toString(36)}${n}`, workarea: 'tests/human-required', source_uri: 'https://example.org/short' });
      const graded = await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: id });
      expect(graded.error, JSON.stringify(graded.error)).toBeUndefined();
      expect(await approval(id)).toMatchObject({ state: 'L2_SCORED', status: 'escalated', waits_for: { blocker: 'human_required', code: 'model_rejected' } });
      return id;
    },
  };
}

describe('a row the built-in reviewer rejected, in an auto space', () => {
  const fixture = useGate({ kind: 'in-process', env: AUTO, keys: { agent: 'agent', reviewer: 'reviewer' } });
  const { gate, keys: { reviewer } } = fixture;
  const { approval, state, modelRejected } = rowsOf(fixture);
  let alice: SignedInPerson;
  beforeAll(async () => {
    alice = await signIn(gate, { role: 'reviewer' });
  });

  it("a reviewer key's approve with promote is recorded and counts toward k, but promotes nothing: a person decides", async () => {
    const id = await modelRejected();
    const signed = await gate.rpc(reviewer.key, 'gv.sign', { artifact_id: id, decision: 'approve', promote: true });
    expect(signed.error, JSON.stringify(signed.error)).toBeUndefined();
    expect(signed.result).toMatchObject({ state: 'L2_SCORED', class: 'agent', counts: true, promoted: false, waits_for: { blocker: 'human_required', code: 'model_rejected' } });
    expect(signed.result.why_not).toContain('person');
    expect(await approval(id)).toMatchObject({ state: 'L2_SCORED', status: 'escalated', k_have: 1, waits_for: { blocker: 'human_required', code: 'model_rejected' } });

    const promoted = await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id });
    expect(promoted.error).toMatchObject({ code: -32010, data: { reason: 'human_required', waits_for: { blocker: 'human_required', code: 'model_rejected' } } });
    const settled = await gate.rpc(reviewer.key, 'gv.settle_pending', {});
    expect(settled.result.artifact_ids).not.toContain(id);
    expect(settled.result.held.human_required).toBeGreaterThanOrEqual(1);
    expect(await state(id)).toBe('L2_SCORED');

    // A person's approval answers the rejection; the key's approval still counts beside it.
    await gate.readBody(alice.accessToken, id);
    const person = await gate.rpc(alice.accessToken, 'gv.sign', { artifact_id: id, decision: 'approve', promote: true });
    expect(person.result).toMatchObject({ class: 'human', counts: true, state: 'ACTIVE', promoted: true, k_have: 2 });
    expect(await approval(id)).toMatchObject({ status: 'human_approved', approved_by: { human: 1 } });
  });

  it("a person's approval without promote lets the deployment settle it", async () => {
    const id = await modelRejected();
    await gate.readBody(alice.accessToken, id);
    const person = await gate.rpc(alice.accessToken, 'gv.sign', { artifact_id: id, decision: 'approve' });
    expect(person.result).toMatchObject({ class: 'human', counts: true, state: 'L2_SCORED' });
    expect((await approval(id)).waits_for).toMatchObject({ blocker: 'quorum', code: 'settle' });
    expect((await gate.rpc(reviewer.key, 'gv.settle_pending', {})).result.artifact_ids).toContain(id);
    expect(await state(id)).toBe('ACTIVE');
  });
});

describe("the operator's sign on a row the built-in reviewer rejected", () => {
  const operator = generateKeyPairSync('ed25519');
  const operatorKey = (operator.publicKey.export({ format: 'jwk' }) as { x: string }).x;
  const fixture = useGate({ kind: 'in-process', env: { ...AUTO, GATE_AUTH_OPERATOR_KEYS: JSON.stringify([operatorKey]) }, keys: { agent: 'agent', reviewer: 'reviewer' } });
  const { gate } = fixture;
  const { modelRejected } = rowsOf(fixture);

  it('counts as a person\'s only with a proof', async () => {
    const id = await modelRejected();
    await gate.readBody(null, id);
    const unproven = await gate.socket('gv.sign', { artifact_id: id, decision: 'approve', promote: true });
    expect(unproven.result).toMatchObject({ class: 'agent', promoted: false, waits_for: { blocker: 'human_required', code: 'model_rejected' } });
    const { nonce } = (await gate.socket('gv.challenge', {})).result;
    const sig = edSign(null, Buffer.from(nonce, 'ascii'), operator.privateKey).toString('hex');
    const proven = await gate.socket('gv.sign', { artifact_id: id, decision: 'approve', promote: true, proof: { nonce, sig } });
    expect(proven.result).toMatchObject({ class: 'human', counts: true, state: 'ACTIVE', promoted: true });
  });
});
