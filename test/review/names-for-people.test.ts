import { beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedInPerson } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

/**
 * Issue 45 item 10: gv.names serves people's emails and names to people at reviewer and
 * above (and to the operator on the socket, who adds people by email); an API key is
 * refused whatever its role, since a program never needs them (docs/spec-choices.md).
 */
const { gate, keys } = useGate({ kind: 'in-process', keys: { reviewerKey: 'reviewer', adminKey: 'admin' } });
let alice: SignedInPerson;
let reader: SignedInPerson;

beforeAll(async () => {
  alice = await signIn(gate, { role: 'reviewer', name: 'Alice Example' });
  reader = await signIn(gate, { role: 'reader' });
});

const asked = () => [alice.identity, reader.identity, keys.reviewerKey.identity];

describe('gv.names', () => {
  it("serves a signed-in reviewer each person's email and name, nulls for a key", async () => {
    const answer = await gate.rpc(alice.accessToken, 'gv.names', { identities: asked() });
    expect(answer.error).toBeUndefined();
    expect(answer.result.names).toEqual([
      { identity: alice.identity, email: alice.email, name: 'Alice Example' },
      { identity: reader.identity, email: reader.email, name: null },
      { identity: keys.reviewerKey.identity, email: null, name: null },
    ]);
  });

  it('serves the operator on the socket', async () => {
    const answer = await gate.socket('gv.names', { identities: [alice.identity] });
    expect(answer.result.names).toEqual([{ identity: alice.identity, email: alice.email, name: 'Alice Example' }]);
  });

  it('refuses a reviewer key and an admin key, naming no one', async () => {
    for (const key of [keys.reviewerKey.key, keys.adminKey.key]) {
      const answer = await gate.rpc(key, 'gv.names', { identities: asked() });
      expect(answer.result).toBeUndefined();
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error?.data?.reason).toBe('not_a_person');
      expect(JSON.stringify(answer.error)).not.toContain('@');
    }
  });

  it('refuses a person below reviewer by role', async () => {
    const answer = await gate.rpc(reader.accessToken, 'gv.names', { identities: asked() });
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.data).toMatchObject({ required: 'reviewer', role: 'reader' });
  });
});
