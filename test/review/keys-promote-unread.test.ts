import { beforeAll, describe, expect, it } from 'vitest';
import { useGate } from '../harness/use-gate.js';
import { signIn, type SignedInPerson } from '../harness/sign-in.js';

/**
 * `review.read_before_signing` at its default (people): gv.promote asks quorum alone
 * (docs/protocol.md#gvpromote), so a reviewer key promotes a row it never paged through, as the product's own
 * clients do (promote, then recall, why); a key's approval counts unread. A signed-in
 * person's decision still waits for their read of the whole body: refused body_unread,
 * counted only once read.
 */
const { gate, keys: { agent, reviewer }, ingestId } = useGate({
  kind: 'in-process',
  keys: { agent: 'agent', reviewer: 'reviewer' },
  env: { GATE_SPACES_MAIN_POLICY: 'auto', GATE_REVIEW_QUORUM_PROFILE: 'solo-reviewer' },
});
let person: SignedInPerson;
beforeAll(async () => {
  person = await signIn(gate, { role: 'reviewer' });
});

const word = `kestrel${Date.now().toString(36)}`;
const ingest = (content: string) => ingestId(agent, { content, workarea: 'tests/unread', source_uri: 'https://example.org/unread' });

describe('keys follow the protocol (gv.promote asks quorum alone)', () => {
  it('a reviewer key promotes a row it never read; recall and why then serve it', async () => {
    const id = await ingest(`The ${word} nests on the north tower, seen ${Date.now()}.`);
    const promoted = await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id });
    expect(promoted.error, JSON.stringify(promoted.error)).toBeUndefined();
    expect(promoted.result.state).toBe('ACTIVE');
    const recalled = await gate.rpc(agent.key, 'gv.recall', { query: word, mode: 'lexical' });
    expect(recalled.result.hits.map((h: { artifact_id: string }) => h.artifact_id)).toContain(id);
    const why = await gate.rpc(agent.key, 'gv.why', { artifact_id: id });
    expect(why.result.events.map((e: { type: string }) => e.type)).toContain('promote');
  });

  it("a key's unread approval counts; the socket's promote needs no read either", async () => {
    const id = await ingest(`The ${word} hunts at dusk, seen ${Date.now()}.`);
    const signed = await gate.rpc(reviewer.key, 'gv.sign', { artifact_id: id, decision: 'approve' });
    expect(signed.result).toMatchObject({ class: 'agent', counts: true });
    const other = await ingest(`The ${word} sleeps at noon, seen ${Date.now()}.`);
    const byOperator = await gate.socket('gv.promote', { artifact_id: other });
    expect(byOperator.error, JSON.stringify(byOperator.error)).toBeUndefined();
  });
});

describe('people read what they sign', () => {
  it("a person's promote is refused body_unread until they read the whole body; their unread approval does not count", async () => {
    const id = await ingest(`The ${word} was ringed in spring, seen ${Date.now()}.`);
    const refused = await gate.rpc(person.accessToken, 'gv.promote', { artifact_id: id });
    expect(refused.error?.code).toBe(-32010);
    expect(refused.error?.data).toMatchObject({ reason: 'body_unread' });
    const unread = await gate.rpc(person.accessToken, 'gv.sign', { artifact_id: id, decision: 'approve' });
    expect(unread.result).toMatchObject({ class: 'human', counts: false });
    await gate.readBody(person.accessToken, id);
    const promoted = await gate.rpc(person.accessToken, 'gv.promote', { artifact_id: id });
    expect(promoted.error, JSON.stringify(promoted.error)).toBeUndefined();
    expect(promoted.result.state).toBe('ACTIVE');
  });
});
