import { beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedInPerson } from '../harness/sign-in.js';
import { ReplacementRows, expectRefusal, revisionOf } from '../harness/replacement-rows.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent, reader, reviewer, reviewer2 } } = useGate({
  kind: 'in-process',
  keys: { agent: 'agent', reader: 'reader', reviewer: 'reviewer', reviewer2: 'reviewer' },
});
let rows: ReplacementRows;
let person: SignedInPerson;

beforeAll(async () => {
  person = await signIn(gate, { role: 'reviewer' });
  rows = new ReplacementRows(gate, agent.key, reviewer2.key);
});

async function group(operation = 'split'): Promise<{ groupId: string; parent: string; children: string[] }> {
  const parent = await rows.active();
  const children = operation === 'split' ? [await rows.held(), await rows.held()] : [await rows.held()];
  const answer = await gate.rpc(reviewer.key, 'gv.replacement_propose', { operation, parent_ids: [parent], child_ids: children, reason: 'r' });
  return { groupId: answer.result.group_id, parent, children };
}

const abort = (params: Record<string, unknown>, key = reviewer2.key) => gate.rpc(key, 'gv.replacement_abort', params);

describe('gv.replacement_abort', () => {
  it('ends a pending group with reason cancelled by default; nothing is deleted and no row moves', async () => {
    const { groupId, parent, children } = await group();
    await gate.rpc(reviewer2.key, 'gv.replacement_prepare', { group_id: groupId, child_id: children[0] });
    const answer = await abort({ group_id: groupId });
    expect(answer.error).toBeUndefined();
    expect(answer.result).toMatchObject({ group_id: groupId, state: 'ABORTED', abort_reason: 'cancelled', aborted_by: reviewer2.identity, prepared: [children[0]] });
    expect(answer.result.aborted_event).toBe(answer.result.event_id);
    // The prepared child stays ratified and unserved; the other stays held; the parent stays served.
    expect([await rows.state(children[0]!), await rows.state(children[1]!), await rows.state(parent)]).toEqual(['L3_RATIFIED', 'L1_SCANNED', 'ACTIVE']);
    expect((await gate.rpc(reader.key, 'gv.status', { artifact_id: children[0] })).error?.message).toContain('unknown artifact');
    const listed = await gate.rpc(reviewer.key, 'gv.replacements', { group_id: groupId });
    expect(listed.result.groups[0]).toMatchObject({ state: 'ABORTED', parent_ids: [parent], child_ids: children, reason: 'r' });
    const why = await gate.socket('gv.why', { artifact_id: children[0] });
    expect(why.result.events.map((e: { type: string }) => e.type)).toEqual(['ingest', 'scan', 'replacement-prepared']);
  });

  it('a second abort answers recorded and journals nothing', async () => {
    const { groupId } = await group();
    const first = await abort({ group_id: groupId, reason: 'expired' });
    const again = await abort({ group_id: groupId });
    expect(again.result).toMatchObject({ state: 'ABORTED', recorded: true, aborted_event: first.result.event_id, abort_reason: 'expired' });
    expect(again.result.event_id).toBeUndefined();
    const events = (await gate.rpc(reviewer.key, 'gv.events', { types: ['replacement-aborted'], limit: 1000 })).result.events;
    expect(events.filter((e: { group_id: string }) => e.group_id === groupId)).toHaveLength(1);
  });

  it('the aborted event serves the group id, the closed reason and a count of evidence, not the ids', async () => {
    const { groupId, children } = await group();
    // A reviewer key does not reject a pending group's child; a person's veto does.
    expectRefusal(await gate.rpc(reviewer.key, 'gv.reject', { artifact_id: children[1] }), -32010, 'replacement_pending');
    expect((await gate.rpc(person.accessToken, 'gv.sign', { artifact_id: children[1], decision: 'reject' })).result?.state).toBe('REJECTED');
    const answer = await abort({ group_id: groupId, reason: 'child_rejected', evidence: [children[1]] });
    expect(answer.result.abort_reason).toBe('child_rejected');
    const event = (await gate.rpc(reviewer.key, 'gv.events', { types: ['replacement-aborted'], limit: 1000 })).result.events.find(
      (e: { group_id: string }) => e.group_id === groupId,
    );
    expect(event).toMatchObject({ object: 'group', reason: 'child_rejected', evidence: 1, by: reviewer2.identity });
    expect(JSON.stringify(event)).not.toContain(children[1]!.slice(7));
  });

  it('never after activation: -32010 activated, and the activation stands', async () => {
    const { groupId, parent, children } = await group('supersede');
    await gate.rpc(reviewer2.key, 'gv.replacement_prepare', { group_id: groupId, child_id: children[0] });
    const activated = await gate.rpc(reviewer2.key, 'gv.replacement_activate', { group_id: groupId, graph_revision: await revisionOf(gate, reviewer2.key, groupId) });
    expect(activated.result.state).toBe('ACTIVATED');
    expectRefusal(await abort({ group_id: groupId }), -32010, 'activated');
    expect([await rows.state(children[0]!), await rows.state(parent)]).toEqual(['ACTIVE', 'SUPERSEDED']);
  });

  it('reason child_rejected with no rejected child is refused -32602 naming reason', async () => {
    const { groupId } = await group();
    const answer = await abort({ group_id: groupId, reason: 'child_rejected' });
    expectRefusal(answer, -32602);
    expect(answer.error?.data?.field).toBe('reason');
  });

  it('a reason outside the four, evidence naming no row, and an unknown group are refused', async () => {
    const { groupId } = await group();
    expect((await abort({ group_id: groupId, reason: 'bored' })).error?.data?.field).toBe('reason');
    const evidence = await abort({ group_id: groupId, evidence: ['c'.repeat(64)] });
    expectRefusal(evidence, -32602);
    expect(evidence.error?.message).toContain('unknown artifact');
    const unknown = await abort({ group_id: 'never-proposed' });
    expectRefusal(unknown, -32602);
    expect(unknown.error?.data?.field).toBe('group_id');
    expect((await gate.rpc(reviewer.key, 'gv.replacements', { group_id: groupId })).result.groups[0].state).toBe('PENDING');
  });

  it('an agent is refused -32602 naming both roles', async () => {
    const { groupId } = await group();
    expect((await abort({ group_id: groupId }, agent.key)).error?.data).toEqual({ required: 'reviewer', role: 'agent' });
  });

  it('rebuild equals live', async () => {
    expect((await gate.socket('gv.rebuild')).result.equal).toBe(true);
  });
});
