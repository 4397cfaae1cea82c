import { describe, expect, it } from 'vitest';
import { signIn } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

const { gate } = useGate({ kind: 'in-process' });

describe('a person signed in through the sign-in provider is a caller on /rpc', () => {
  it('identity <iss>|<sub>, kind person, the role the people table gives, demo false', async () => {
    const alice = await signIn(gate, { role: 'reviewer' });
    expect(alice.identity).toBe(`${gate.url}|${alice.sub}`);
    const described = await gate.rpc(alice.accessToken, 'gv.describe');
    expect(described.result.you).toEqual({ identity: alice.identity, role: 'reviewer', kind: 'person', demo: false });
  });

  it('gv.describe you.demo is true only for a person the people file marks demo', async () => {
    const demo = await signIn(gate, { role: 'reader', demo: true });
    expect((await gate.rpc(demo.accessToken, 'gv.describe')).result.you).toMatchObject({ demo: true, kind: 'person' });
    const key = await gate.key('reader');
    expect((await gate.rpc(key.key, 'gv.describe')).result.you.demo).toBe(false);
    expect((await gate.socket('gv.describe')).result.you.demo).toBe(false);
  });

  it('the role is the one assigned: a reader is refused an agent verb naming both roles, then assigned agent it may write', async () => {
    const bob = await signIn(gate, { role: 'reader' });
    const refused = await gate.rpc(bob.accessToken, 'gv.ingest', { content: 'a claim', workarea: 'w', kind: 'memory', source_uri: 's://1' });
    expect(refused.error?.message).toMatch(/needs role agent; the caller has role reader/);
    const assigned = await gate.socket('gv.people', { action: 'assign', sub: bob.sub, role: 'agent' });
    expect(assigned.result).toMatchObject({ iss: gate.url, sub: bob.sub, role: 'agent', changed: true });
    const written = await gate.rpc(bob.accessToken, 'gv.ingest', { content: `a claim by ${bob.sub}`, workarea: 'w', kind: 'memory', source_uri: 's://1' });
    expect(written.error).toBeUndefined();
    const status = await gate.rpc(bob.accessToken, 'gv.status', { artifact_id: written.result.artifact_id });
    expect(status.result.state).toBe('L1_SCANNED');
  });

  it("a signed-in person's total hide takes the row off every surface; a key's is journaled lowered", async () => {
    const agent = await gate.key('agent');
    const reviewerKey = await gate.key('reviewer');
    const person = await signIn(gate, { role: 'reviewer' });
    const ids: string[] = [];
    for (const label of ['hidden by a person', 'hidden by a key']) {
      const row = await gate.rpc(agent.key, 'gv.ingest', { content: `${label} ${person.sub}`, workarea: 'w', kind: 'memory', source_uri: 's://2' });
      await gate.readBody(reviewerKey.key, row.result.artifact_id);
      expect((await gate.rpc(reviewerKey.key, 'gv.promote', { artifact_id: row.result.artifact_id })).result.state).toBe('ACTIVE');
      ids.push(row.result.artifact_id);
    }
    const byPerson = await gate.rpc(person.accessToken, 'gv.hide', { artifact_id: ids[0], reason: 'wrong' });
    expect(byPerson.result.hidden).toBe(true);
    expect(byPerson.result.lowered).toBeUndefined();
    const byKey = await gate.rpc(reviewerKey.key, 'gv.hide', { artifact_id: ids[1], reason: 'wrong' });
    expect(byKey.result.lowered).toBe(true);
  });
});
