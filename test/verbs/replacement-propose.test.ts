import { beforeAll, describe, expect, it } from 'vitest';
import { ReplacementRows, expectRefusal } from '../harness/replacement-rows.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent, reviewer, reviewer2 } } = useGate({ kind: 'unit', keys: { agent: 'agent', reviewer: 'reviewer', reviewer2: 'reviewer' } });

let rows: ReplacementRows;

beforeAll(async () => {
  rows = new ReplacementRows(gate, agent.key, reviewer2.key);
});

const propose = (params: Record<string, unknown>, key = reviewer.key) =>
  gate.rpc(key, 'gv.replacement_propose', { reason: 'tidy the store', ...params });

const groupEvents = async (groupId: string) =>
  (await gate.rpc(reviewer.key, 'gv.events', { types: ['replacement-proposed'], limit: 1000 })).result.events.filter(
    (e: { group_id: string }) => e.group_id === groupId,
  );

describe('gv.replacement_propose: the three shapes', () => {
  it('a merge of two ACTIVE parents into one held child is PENDING; no row moves', async () => {
    const [p1, p2, child] = [await rows.active(), await rows.active(), await rows.held()];
    const answer = await propose({ operation: 'merge', parent_ids: [p1, p2], child_ids: [child], policy_revision: 'policy-7' });
    expect(answer.error).toBeUndefined();
    expect(answer.result).toMatchObject({
      state: 'PENDING',
      operation: 'merge',
      space: 'main',
      parent_ids: [p1, p2],
      child_ids: [child],
      prepared: [],
      pending_children: [child],
      proposer: reviewer.identity,
      policy_revision: 'policy-7',
      reason: 'tidy the store',
    });
    expect(answer.result.group_id).toMatch(/^rg:[0-9a-f]{64}$/);
    expect(answer.result.manifest_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(answer.result.proposed_event).toBe(answer.result.event_id);
    expect(answer.result.recorded).toBeUndefined();
    expect([await rows.state(p1), await rows.state(p2), await rows.state(child)]).toEqual(['ACTIVE', 'ACTIVE', 'L1_SCANNED']);
  });

  it('a split of one parent into two children, and a supersede of one by one, are PENDING', async () => {
    const split = await propose({ operation: 'split', parent_ids: [await rows.active()], child_ids: [await rows.held(), await rows.held()] });
    expect(split.result).toMatchObject({ state: 'PENDING', operation: 'split' });
    expect(split.result.pending_children).toHaveLength(2);
    const supersede = await propose({ operation: 'supersede', parent_ids: [await rows.active()], child_ids: [await rows.held()] });
    expect(supersede.result).toMatchObject({ state: 'PENDING', operation: 'supersede' });
  });

  it('the proposed event serves the group id, operation and counts, never the reason', async () => {
    const answer = await propose({ operation: 'merge', parent_ids: [await rows.active(), await rows.active()], child_ids: [await rows.held()], reason: 'secret-ish words' });
    const [event] = await groupEvents(answer.result.group_id);
    expect(event).toMatchObject({ type: 'replacement-proposed', object: 'group', group_id: answer.result.group_id, operation: 'merge', parents: 2, children: 1, space: 'main' });
    expect(JSON.stringify(event)).not.toContain('secret-ish');
    expect(event.parent_ids).toBeUndefined();
  });
});

describe('gv.replacement_propose: repeats and group ids', () => {
  it('a repeat of the same proposal, in any order, answers recorded with the standing group and journals nothing', async () => {
    const [p1, p2, child] = [await rows.active(), await rows.active(), await rows.held()];
    const first = await propose({ operation: 'merge', parent_ids: [p1, p2], child_ids: [child] });
    const again = await propose({ operation: 'merge', parent_ids: [p2, p1], child_ids: [child], reason: 'said differently' });
    expect(again.result).toMatchObject({ group_id: first.result.group_id, recorded: true, state: 'PENDING', proposed_event: first.result.event_id });
    expect(again.result.event_id).toBeUndefined();
    expect(await groupEvents(first.result.group_id)).toHaveLength(1);
  });

  it('a caller may name the group; its repeat is recorded; the name on another proposal is refused', async () => {
    const name = `merge-${Date.now()}`;
    const [p1, p2, child] = [await rows.active(), await rows.active(), await rows.held()];
    const named = await propose({ operation: 'merge', parent_ids: [p1, p2], child_ids: [child], group_id: name });
    expect(named.result.group_id).toBe(name);
    expect((await propose({ operation: 'merge', parent_ids: [p1, p2], child_ids: [child], group_id: name })).result.recorded).toBe(true);
    const clash = await propose({ operation: 'supersede', parent_ids: [p1], child_ids: [await rows.held()], group_id: name });
    expectRefusal(clash, -32602);
    expect(clash.error?.data?.field).toBe('group_id');
  });

  it('the rg: prefix is the gate’s own and refused from a caller', async () => {
    const answer = await propose({ operation: 'supersede', parent_ids: [await rows.active()], child_ids: [await rows.held()], group_id: `rg:${'a'.repeat(64)}` });
    expectRefusal(answer, -32602);
    expect(answer.error?.data?.field).toBe('group_id');
  });

  it('a row another pending group names may be proposed again in a competing group (activation decides)', async () => {
    const parent = await rows.active();
    const a = await propose({ operation: 'supersede', parent_ids: [parent], child_ids: [await rows.held()] });
    const b = await propose({ operation: 'supersede', parent_ids: [parent], child_ids: [await rows.held()] });
    expect(b.result.state).toBe('PENDING');
    expect(b.result.group_id).not.toBe(a.result.group_id);
  });

  it('after an abort the same proposal makes a new group', async () => {
    const params = { operation: 'supersede', parent_ids: [await rows.active()], child_ids: [await rows.held()] };
    const first = await propose(params);
    expect((await gate.rpc(reviewer.key, 'gv.replacement_abort', { group_id: first.result.group_id })).result.state).toBe('ABORTED');
    const second = await propose(params);
    expect(second.result).toMatchObject({ state: 'PENDING' });
    expect(second.result.recorded).toBeUndefined();
    expect(second.result.group_id).not.toBe(first.result.group_id);
    expect(second.result.manifest_digest).toBe(first.result.manifest_digest);
  });
});

describe('gv.replacement_propose: shapes refused -32602 naming the field', () => {
  const cases: Array<[string, string, number, number]> = [
    ['merge with one parent', 'merge', 1, 1],
    ['merge with two children', 'merge', 2, 2],
    ['split with two parents', 'split', 2, 2],
    ['split with one child', 'split', 1, 1],
    ['supersede with two parents', 'supersede', 2, 1],
    ['supersede with two children', 'supersede', 1, 2],
  ];
  for (const [label, operation, parents, children] of cases) {
    it(label, async () => {
      const parentIds = await Promise.all(Array.from({ length: parents }, () => rows.active()));
      const childIds = await Promise.all(Array.from({ length: children }, () => rows.held()));
      const answer = await propose({ operation, parent_ids: parentIds, child_ids: childIds });
      expectRefusal(answer, -32602);
      expect(['parent_ids', 'child_ids']).toContain(answer.error?.data?.field);
    });
  }

  it('a row named twice, or as parent and child, is refused', async () => {
    const [p, c] = [await rows.active(), await rows.held()];
    const twice = await propose({ operation: 'merge', parent_ids: [p, p], child_ids: [c] });
    expectRefusal(twice, -32602);
    expect(twice.error?.message).toContain('twice');
    const both = await propose({ operation: 'supersede', parent_ids: [p], child_ids: [p] });
    expectRefusal(both, -32602);
    expect(both.error?.message).toContain('both as parent and as child');
  });

  it('an unknown operation, a missing reason and an empty list are refused by name', async () => {
    const [p, c] = [await rows.active(), await rows.held()];
    expect((await propose({ operation: 'fold', parent_ids: [p], child_ids: [c] })).error?.data?.field).toBe('operation');
    expect((await gate.rpc(reviewer.key, 'gv.replacement_propose', { operation: 'supersede', parent_ids: [p], child_ids: [c] })).error?.data?.field).toBe('reason');
    expect((await propose({ operation: 'supersede', parent_ids: [], child_ids: [c] })).error?.data?.field).toBe('parent_ids');
  });
});

describe('gv.replacement_propose: rows refused', () => {
  it('a parent that is not ACTIVE is refused -32010 parent_not_active', async () => {
    expectRefusal(await propose({ operation: 'supersede', parent_ids: [await rows.held()], child_ids: [await rows.held()] }), -32010, 'parent_not_active');
  });

  it('a child already served, flagged or rejected is refused -32010 child_not_eligible', async () => {
    const parent = await rows.active();
    expectRefusal(await propose({ operation: 'supersede', parent_ids: [parent], child_ids: [await rows.active()] }), -32010, 'child_not_eligible');
    const flagged = await gate.rpc(agent.key, 'gv.ingest', {
      content: `key: AKIA${'Q7ZR'.repeat(4)} ${Date.now()}`,
      workarea: 'tests/replacement',
      kind: 'memory',
      source_uri: 'test://replacement',
    });
    expect(flagged.result.state).toBe('L1B_FLAGGED');
    const refusedFlagged = await propose({ operation: 'supersede', parent_ids: [parent], child_ids: [flagged.result.artifact_id] });
    expectRefusal(refusedFlagged, -32010, 'child_not_eligible');
    expect(refusedFlagged.error?.message).toContain('disposition');
    const rejected = await rows.held();
    await gate.rpc(reviewer.key, 'gv.reject', { artifact_id: rejected });
    expectRefusal(await propose({ operation: 'supersede', parent_ids: [parent], child_ids: [rejected] }), -32010, 'child_not_eligible');
  });

  it('rows of two spaces are refused -32602 mixed_spaces', async () => {
    const space = `rg${Date.now()}`;
    expect((await gate.socket('gv.space_create', { name: space, policy: 'human' })).error).toBeUndefined();
    await gate.socket('gv.grant', { action: 'issue', grants: [{ principal: agent.identity, space, capabilities: ['read', 'contribute'] }] });
    const elsewhere = await rows.held({ space });
    const answer = await propose({ operation: 'supersede', parent_ids: [await rows.active()], child_ids: [elsewhere] });
    expectRefusal(answer, -32602, 'mixed_spaces');
  });

  it('an id that names no row is refused as an unknown artifact', async () => {
    const answer = await propose({ operation: 'supersede', parent_ids: [await rows.active()], child_ids: ['b'.repeat(64)] });
    expectRefusal(answer, -32602);
    expect(answer.error?.message).toBe(`unknown artifact: sha256:bbbbbbbbb`);
  });

  it('an agent is refused -32602 naming both roles', async () => {
    const answer = await propose({ operation: 'supersede', parent_ids: [await rows.active()], child_ids: [await rows.held()] }, agent.key);
    expectRefusal(answer, -32602);
    expect(answer.error?.data).toEqual({ required: 'reviewer', role: 'agent' });
  });
});

describe('gv.replacements lists groups for a reviewer', () => {
  it('newest first, with counts, total, a state filter, a limit and scope all', async () => {
    const pending = await propose({ operation: 'supersede', parent_ids: [await rows.active()], child_ids: [await rows.held()] });
    const aborted = await propose({ operation: 'supersede', parent_ids: [await rows.active()], child_ids: [await rows.held()] });
    await gate.rpc(reviewer.key, 'gv.replacement_abort', { group_id: aborted.result.group_id });
    const all = await gate.rpc(reviewer.key, 'gv.replacements', {});
    expect(all.result.scope).toBe('all');
    expect(all.result.groups[0].group_id).toBe(aborted.result.group_id);
    expect(all.result.groups[1].group_id).toBe(pending.result.group_id);
    expect(all.result.total).toBe(all.result.counts.PENDING + all.result.counts.ACTIVATED + all.result.counts.ABORTED);
    const onlyAborted = await gate.rpc(reviewer.key, 'gv.replacements', { state: 'ABORTED' });
    expect(onlyAborted.result.groups.every((g: { state: string }) => g.state === 'ABORTED')).toBe(true);
    expect(onlyAborted.result.total).toBe(all.result.counts.ABORTED);
    expect(onlyAborted.result.counts).toEqual(all.result.counts);
    const one = await gate.rpc(reviewer.key, 'gv.replacements', { limit: 1 });
    expect(one.result.groups).toHaveLength(1);
    expect(one.result.total).toBe(all.result.total);
    expect(one.result.revision).toBe(one.result.groups[0].revision);
    const named = await gate.rpc(reviewer.key, 'gv.replacements', { group_id: pending.result.group_id });
    expect(named.result.groups.map((g: { group_id: string }) => g.group_id)).toEqual([pending.result.group_id]);
    expect(named.result.revision).toMatch(/^[0-9a-f]{64}$/);
    expect(all.result.revision).not.toBe(named.result.revision);
    expect((await gate.rpc(reviewer.key, 'gv.replacements', { group_id: 'no-such-group' })).result).toMatchObject({ groups: [], total: 0 });
    expect((await gate.rpc(reviewer.key, 'gv.replacements', { state: 'DONE' })).error?.data?.field).toBe('state');
  });

  it('the journal folds to the same groups on rebuild', async () => {
    const rebuilt = await gate.socket('gv.rebuild');
    expect(rebuilt.result.equal).toBe(true);
    expect(Object.keys(rebuilt.result.tables)).toEqual(expect.arrayContaining(['replacement_groups', 'replacement_members']));
  });
});
