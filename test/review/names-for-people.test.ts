import { beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedInPerson } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

/**
 * Issue 45 item 10: gv.names serves people's emails and names to people at reviewer and
 * above (and to the operator on the socket, who adds people by email); an API key is
 * refused whatever its role, since a program never needs them (docs/spec-choices.md).
 * Issue 49 item 4: it serves the label of a key that wrote a row, to the same people, who
 * read every row whatever space the key was granted; a key that wrote nothing keeps its identity.
 */
const { gate, keys } = useGate({
  kind: 'in-process',
  keys: { reviewerKey: 'reviewer', adminKey: 'admin', writer: { role: 'agent', label: 'team notes writer' }, idle: { role: 'agent', label: 'a key that wrote nothing' } },
});
let alice: SignedInPerson;
let reader: SignedInPerson;

beforeAll(async () => {
  alice = await signIn(gate, { role: 'reviewer', name: 'Alice Example' });
  reader = await signIn(gate, { role: 'reader' });
  // The writer works in a space only it is granted: alice holds no grant there.
  await gate.socket('gv.space_create', { name: 'names-team', policy: 'auto' });
  for (const key of [keys.writer, keys.idle]) {
    await gate.socket('gv.grant', { action: 'issue', grants: [{ principal: key.identity, space: 'names-team', capabilities: ['read', 'contribute'] }] });
  }
  const wrote = await gate.rpc(keys.writer.key, 'gv.ingest', { content: `A note the team key wrote ${process.pid}.`, kind: 'memory', source_uri: 'test://names', workarea: 'names', space: 'names-team' });
  expect(wrote.error).toBeUndefined();
});

const asked = () => [alice.identity, reader.identity, keys.reviewerKey.identity];

describe('gv.names', () => {
  it("serves a signed-in reviewer each person's email and name, nulls for a key", async () => {
    const answer = await gate.rpc(alice.accessToken, 'gv.names', { identities: asked() });
    expect(answer.error).toBeUndefined();
    expect(answer.result.names).toEqual([
      { identity: alice.identity, email: alice.email, name: 'Alice Example', label: null },
      { identity: reader.identity, email: reader.email, name: null, label: null },
      { identity: keys.reviewerKey.identity, email: null, name: null, label: null },
    ]);
  });

  it("serves a reviewer the label of a key that wrote a row in a space they hold no grant on, and nothing else of the key; a key that wrote nothing keeps its identity", async () => {
    // gv.keys does not list the writer to alice (its space is not one she holds read on): before, she read key:<id>.
    const listed = await gate.rpc(alice.accessToken, 'gv.keys', { action: 'list' });
    expect(JSON.stringify(listed.result)).not.toContain(keys.writer.keyId);
    const answer = await gate.rpc(alice.accessToken, 'gv.names', { identities: [keys.writer.identity, keys.idle.identity, 'key:000000000000'] });
    expect(answer.result.names).toEqual([
      { identity: keys.writer.identity, email: null, name: null, label: 'team notes writer' },
      { identity: keys.idle.identity, email: null, name: null, label: null },
      { identity: 'key:000000000000', email: null, name: null, label: null },
    ]);
    // The key's secret, role and grants are not in the answer.
    const said = JSON.stringify(answer);
    for (const withheld of [keys.writer.key, 'agent', 'names-team', 'contribute']) expect(said).not.toContain(withheld);
  });

  it('serves the operator on the socket', async () => {
    const answer = await gate.socket('gv.names', { identities: [alice.identity, keys.writer.identity] });
    expect(answer.result.names).toEqual([
      { identity: alice.identity, email: alice.email, name: 'Alice Example', label: null },
      { identity: keys.writer.identity, email: null, name: null, label: 'team notes writer' },
    ]);
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
