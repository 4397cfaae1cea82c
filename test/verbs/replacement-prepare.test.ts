import { beforeAll, describe, expect, it } from 'vitest';
import { ReplacementRows, expectRefusal } from '../harness/replacement-rows.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent, reader, reviewer, reviewer2 } } = useGate({
  kind: 'unit',
  keys: { agent: 'agent', reader: 'reader', reviewer: 'reviewer', reviewer2: 'reviewer' },
});

let rows: ReplacementRows;

beforeAll(async () => {
  rows = new ReplacementRows(gate, agent.key, reviewer2.key);
});

async function split(): Promise<{ groupId: string; parent: string; children: string[] }> {
  const parent = await rows.active();
  const children = [await rows.held(), await rows.held()];
  const answer = await gate.rpc(reviewer.key, 'gv.replacement_propose', { operation: 'split', parent_ids: [parent], child_ids: children, reason: 'two topics' });
  expect(answer.error).toBeUndefined();
  return { groupId: answer.result.group_id, parent, children };
}

const prepare = (groupId: string, childId: string, key = reviewer2.key) =>
  gate.rpc(key, 'gv.replacement_prepare', { group_id: groupId, child_id: childId });

describe('gv.replacement_prepare', () => {
  it('takes a child to L3_RATIFIED, still not served, with no promote event', async () => {
    const { groupId, children } = await split();
    const answer = await prepare(groupId, children[0]!);
    expect(answer.error).toBeUndefined();
    expect(answer.result).toMatchObject({ group_id: groupId, state: 'PENDING', child_id: children[0], child_state: 'L3_RATIFIED', prepared: [children[0]], pending_children: [children[1]] });
    expect(await rows.state(children[0]!)).toBe('L3_RATIFIED');
    const why = await gate.rpc(agent.key, 'gv.why', { artifact_id: children[0] });
    expect(why.result.events.map((e: { type: string }) => e.type)).toEqual(['ingest', 'scan', 'replacement-prepared']);
    const prepared = why.result.events[2];
    expect(prepared).toMatchObject({ object: 'group', group_id: groupId, leaves: 'L1_SCANNED', enters: 'L3_RATIFIED', verified: true });
    // Ratified is not served: another reader still gets the unknown-artifact answer.
    expect((await gate.rpc(reader.key, 'gv.status', { artifact_id: children[0] })).error?.message).toContain('unknown artifact');
  });

  it('a child already prepared is refused -32010 already_prepared', async () => {
    const { groupId, children } = await split();
    await prepare(groupId, children[0]!);
    expectRefusal(await prepare(groupId, children[0]!), -32010, 'already_prepared');
  });

  it('a row that is not a child of the group (a parent, a stranger) is refused -32602 naming child_id', async () => {
    const { groupId, parent } = await split();
    for (const id of [parent, await rows.held()]) {
      const answer = await prepare(groupId, id);
      expectRefusal(answer, -32602);
      expect(answer.error?.data?.field).toBe('child_id');
    }
  });

  it('a child of a pending group is neither rejected nor promoted on its own: -32010 replacement_pending', async () => {
    const { groupId, children } = await split();
    for (const method of ['gv.reject', 'gv.promote']) {
      const answer = await gate.rpc(reviewer.key, method, { artifact_id: children[0] });
      expectRefusal(answer, -32010, 'replacement_pending');
      expect(answer.error?.data?.group_id).toBe(groupId);
    }
    expect(await rows.state(children[0]!)).toBe('L1_SCANNED');
    expect((await prepare(groupId, children[0]!)).result.child_state).toBe('L3_RATIFIED');
  });

  it('a reviewer who wrote the child never prepares it: -32010 self_authored', async () => {
    const parent = await rows.active();
    const own = await rows.held({}, reviewer2.key);
    const proposed = await gate.rpc(reviewer.key, 'gv.replacement_propose', { operation: 'supersede', parent_ids: [parent], child_ids: [own], reason: 'r' });
    expectRefusal(await prepare(proposed.result.group_id, own, reviewer2.key), -32010, 'self_authored');
    expect((await prepare(proposed.result.group_id, own, reviewer.key)).result.child_state).toBe('L3_RATIFIED');
  });

  it('a group that is not PENDING is refused -32010 not_pending', async () => {
    const { groupId, children } = await split();
    await gate.rpc(reviewer.key, 'gv.replacement_abort', { group_id: groupId });
    expectRefusal(await prepare(groupId, children[0]!), -32010, 'not_pending');
    expect(await rows.state(children[0]!)).toBe('L1_SCANNED');
  });

  it('an unknown group is refused -32602 naming group_id', async () => {
    const answer = await prepare('no-such-group', await rows.held());
    expectRefusal(answer, -32602);
    expect(answer.error?.data?.field).toBe('group_id');
  });

  it('an agent is refused -32602 naming both roles', async () => {
    const { groupId, children } = await split();
    const answer = await prepare(groupId, children[0]!, agent.key);
    expect(answer.error?.data).toEqual({ required: 'reviewer', role: 'agent' });
  });

  it('rebuild folds prepares to the same view', async () => {
    expect((await gate.socket('gv.rebuild')).result.equal).toBe(true);
  });
});
