import { beforeAll, describe, expect, it } from 'vitest';
import { ReplacementRows, revisionOf } from '../harness/replacement-rows.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agentA, agentB, reader, reviewer, reviewer2 } } = useGate({
  kind: 'unit',
  keys: { agentA: 'agent', agentB: 'agent', reader: 'reader', reviewer: 'reviewer', reviewer2: 'reviewer' },
});

let rowsA: ReplacementRows;
let rowsB: ReplacementRows;

/** A split whose children are two identities' held rows, and a supersede of agent A's alone. */
let split: { groupId: string; parent: string; childA: string; childB: string };
let solo: { groupId: string; parent: string; child: string };

beforeAll(async () => {
  rowsA = new ReplacementRows(gate, agentA.key, reviewer2.key);
  rowsB = new ReplacementRows(gate, agentB.key, reviewer2.key);
  const propose = async (operation: string, parents: string[], children: string[]) =>
    (await gate.rpc(reviewer.key, 'gv.replacement_propose', { operation, parent_ids: parents, child_ids: children, reason: 'r' })).result.group_id as string;
  const parent = await rowsA.active();
  const [childA, childB] = [await rowsA.held(), await rowsB.held()];
  split = { groupId: await propose('split', [parent], [childA, childB]), parent, childA, childB };
  for (const child of [childA, childB]) await gate.rpc(reviewer2.key, 'gv.replacement_prepare', { group_id: split.groupId, child_id: child });
  const soloParent = await rowsB.active();
  const soloChild = await rowsA.held();
  solo = { groupId: await propose('supersede', [soloParent], [soloChild]), parent: soloParent, child: soloChild };
});

const hex = (id: string) => id.slice('sha256:'.length);
const groupEvents = async (key: string, groupId: string) =>
  (await gate.rpc(key, 'gv.events', { limit: 1000 })).result.events.filter((e: { group_id?: string }) => e.group_id === groupId);

describe('below reviewer a group shows only when every row it names is readable', () => {
  it('gv.replacements is a reviewer verb: an agent and a reader are refused, naming both roles', async () => {
    for (const [who, role] of [[agentA, 'agent'], [reader, 'reader']] as const) {
      const r = await gate.rpc(who.key, 'gv.replacements', {});
      expect(r.error?.code).toBe(-32602);
      expect(r.error?.message).toContain('reviewer');
      expect(r.error?.message).toContain(role);
    }
    const asReviewer = await gate.rpc(reviewer.key, 'gv.replacements', {});
    expect(asReviewer.result.scope).toBe('all');
    expect(asReviewer.result.total).toBe(2);
  });

  it('gv.events: group events only where the group shows; a prepare also shows to the writer of its row, and to no one else', async () => {
    const asA = await gate.rpc(agentA.key, 'gv.events', { limit: 1000 });
    const typesA = asA.result.events.filter((e: { object: string }) => e.object === 'group').map((e: { type: string; group_id: string; artifact_id: string | null }) => [e.type, e.group_id, e.artifact_id]);
    expect(typesA).toEqual([
      ['replacement-prepared', split.groupId, split.childA],
      ['replacement-proposed', solo.groupId, null],
    ]);
    expect(JSON.stringify(asA.result.events)).not.toContain(hex(split.childB));
    const asB = await gate.rpc(agentB.key, 'gv.events', { limit: 1000 });
    expect(asB.result.events.filter((e: { object: string }) => e.object === 'group').map((e: { artifact_id: string }) => e.artifact_id)).toEqual([split.childB]);
    expect(JSON.stringify(asB.result.events)).not.toContain(hex(split.childA));
    expect(JSON.stringify(asB.result.events)).not.toContain(hex(solo.child));
    expect(await groupEvents(reader.key, split.groupId)).toEqual([]);
    expect(await groupEvents(reader.key, solo.groupId)).toEqual([]);
    expect((await groupEvents(reviewer.key, split.groupId)).map((e: { type: string }) => e.type)).toEqual([
      'replacement-proposed',
      'replacement-prepared',
      'replacement-prepared',
    ]);
  });

  it('gv.node: supersedes names the parents for a child of a pending group, where the group shows', async () => {
    const expected = { artifact_ids: [solo.parent], operation: 'supersede', via: 'replacement_group', group_id: solo.groupId };
    expect((await gate.rpc(agentA.key, 'gv.node', { artifact_id: solo.child })).result.supersedes).toEqual(expected);
    expect((await gate.rpc(reviewer.key, 'gv.node', { artifact_id: solo.child })).result.supersedes).toEqual(expected);
    expect((await gate.rpc(reviewer.key, 'gv.node', { artifact_id: solo.parent })).result.supersedes).toBeNull();
    expect((await gate.rpc(agentB.key, 'gv.node', { artifact_id: solo.child })).error?.message).toContain('unknown artifact');
    // Agent A wrote one child of the split; the other child is B's held row, so A is not told of the split.
    expect((await gate.rpc(agentA.key, 'gv.node', { artifact_id: split.childA })).result.supersedes).toBeNull();
    expect((await gate.rpc(reviewer.key, 'gv.node', { artifact_id: split.childA })).result.supersedes).toEqual({
      artifact_ids: [split.parent],
      operation: 'split',
      via: 'replacement_group',
      group_id: split.groupId,
    });
  });

  it('once activated, every row is served: the group events and its relations show to any reader; supersedes is null', async () => {
    const revision = await revisionOf(gate, reviewer2.key, split.groupId);
    expect((await gate.rpc(reviewer2.key, 'gv.replacement_activate', { group_id: split.groupId, graph_revision: revision })).result.state).toBe('ACTIVATED');
    expect((await groupEvents(reader.key, split.groupId)).map((e: { type: string }) => e.type)).toEqual([
      'replacement-proposed',
      'replacement-prepared',
      'replacement-prepared',
      'promote',
      'promote',
      'relation',
      'relation',
      'replacement-activated',
    ]);
    expect((await gate.rpc(reader.key, 'gv.node', { artifact_id: split.childA })).result.supersedes).toBeNull();
  });

  it('an aborted group whose child stays held stays out of sight of other identities', async () => {
    await gate.rpc(reviewer.key, 'gv.replacement_abort', { group_id: solo.groupId });
    expect(await groupEvents(agentB.key, solo.groupId)).toEqual([]);
    expect((await gate.rpc(agentA.key, 'gv.node', { artifact_id: solo.child })).result.supersedes).toBeNull();
  });
});
