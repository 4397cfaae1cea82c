import { beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { UnitGate } from '../harness/unit-gate.js';
import { ReplacementRows, expectRefusal, revisionOf } from '../harness/replacement-rows.js';
import { DeploymentKey } from '../../src/credentials/deployment-key.js';
import { Journal } from '../../src/journal/journal.js';
import { Projections } from '../../src/projections/projections.js';
import { systemClock } from '../../src/clock.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent, reader, proposer, activator } } = useGate({
  kind: 'unit',
  keys: { agent: 'agent', reader: 'reader', proposer: 'reviewer', activator: 'reviewer' },
});

let rows: ReplacementRows;

beforeAll(async () => {
  rows = new ReplacementRows(gate, agent.key, activator.key);
});

async function proposeGroup(operation: string, parents: string[], children: string[], key = proposer.key): Promise<string> {
  const answer = await gate.rpc(key, 'gv.replacement_propose', { operation, parent_ids: parents, child_ids: children, reason: 'replace' });
  expect(answer.error).toBeUndefined();
  return answer.result.group_id as string;
}

async function prepareAll(groupId: string, children: string[], key = activator.key): Promise<void> {
  for (const child of children) expect((await gate.rpc(key, 'gv.replacement_prepare', { group_id: groupId, child_id: child })).error).toBeUndefined();
}

const activate = async (groupId: string, key = activator.key, revision?: string) =>
  gate.rpc(key, 'gv.replacement_activate', { group_id: groupId, graph_revision: revision ?? (await revisionOf(gate, key, groupId)) });

const types = async (id: string) => (await gate.socket('gv.why', { artifact_id: id })).result.events as Array<Record<string, any>>;

describe('gv.replacement_activate: children served and parents SUPERSEDED together', () => {
  it('a merge promotes the child and supersedes both parents in one act', async () => {
    const [p1, p2, child] = [await rows.active(), await rows.active(), await rows.held()];
    const groupId = await proposeGroup('merge', [p1, p2], [child]);
    await prepareAll(groupId, [child]);
    const answer = await activate(groupId);
    expect(answer.error).toBeUndefined();
    expect(answer.result).toMatchObject({ group_id: groupId, state: 'ACTIVATED', promoted: [child], superseded: [p1, p2], frontier: [child], published: true, self_signed: false, activated_by: activator.identity });
    expect(answer.result.activated_event).toBe(answer.result.event_id);
    expect([await rows.state(child), await rows.state(p1), await rows.state(p2)]).toEqual(['ACTIVE', 'SUPERSEDED', 'SUPERSEDED']);
    const childStatus = await gate.rpc(reader.key, 'gv.status', { artifact_id: child });
    expect(childStatus.result).toMatchObject({ state: 'ACTIVE', provisional: true });
    const promote = (await types(child)).find((e) => e.type === 'promote')!;
    expect(promote).toMatchObject({ leaves: 'L3_RATIFIED', enters: 'ACTIVE', provisional: true, group_id: groupId, by: activator.identity });
    for (const parent of [p1, p2]) {
      const relation = (await types(parent)).find((e) => e.type === 'relation')!;
      expect(relation).toMatchObject({ artifact_id: parent, leaves: 'ACTIVE', enters: 'SUPERSEDED', kind: 'supersedes', group_id: groupId });
    }
    const relations = await gate.rpc(reader.key, 'gv.relations', { artifact_id: child });
    expect(relations.result.relations.map((r: { artifact_id: string; direction: string; group_id: string }) => [r.artifact_id, r.direction, r.group_id])).toEqual([
      [p1, 'parent', groupId],
      [p2, 'parent', groupId],
    ]);
    expect((await gate.rpc(reader.key, 'gv.tip', { artifact_id: p2 })).result.head).toBe(child);
    const activated = (await gate.rpc(activator.key, 'gv.events', { types: ['replacement-activated'], limit: 1000 })).result.events.find(
      (e: { group_id: string }) => e.group_id === groupId,
    );
    expect(activated).toMatchObject({ object: 'group', promoted: 1, superseded: 2, by: activator.identity });
  });

  it('a split supersedes its parent once: the first relation moves it, the second moves nothing and concerns its child', async () => {
    const parent = await rows.active();
    const children = [await rows.held(), await rows.held()];
    const groupId = await proposeGroup('split', [parent], children);
    await prepareAll(groupId, children);
    const answer = await activate(groupId);
    expect(answer.result).toMatchObject({ promoted: children, superseded: [parent], state: 'ACTIVATED' });
    // Both halves of a split are served heads of their own chains.
    expect(answer.result.frontier).toEqual(children);
    expect(await Promise.all(children.map((c) => rows.state(c)))).toEqual(['ACTIVE', 'ACTIVE']);
    expect(await rows.state(parent)).toBe('SUPERSEDED');
    const parentRelations = (await types(parent)).filter((e) => e.type === 'relation');
    expect(parentRelations).toHaveLength(1);
    expect(parentRelations[0]).toMatchObject({ enters: 'SUPERSEDED', group_id: groupId });
    const secondChild = (await types(children[1]!)).filter((e) => e.type === 'relation');
    expect(secondChild).toHaveLength(1);
    expect(secondChild[0]).toMatchObject({ artifact_id: children[1], enters: null, leaves: null, kind: 'supersedes', group_id: groupId });
    const edges = await gate.rpc(reader.key, 'gv.relations', { artifact_id: parent });
    expect(edges.result.relations.map((r: { artifact_id: string }) => r.artifact_id).sort()).toEqual([...children].sort());
  });

  it('a supersede serves the child in the parent’s place; a reader recalls the child, not the parent', async () => {
    const word = `quokka${Date.now()}`;
    const parent = await rows.active({ content: `${word} old wording of the build rule` });
    const child = await rows.held({ content: `${word} new wording of the build rule` });
    const groupId = await proposeGroup('supersede', [parent], [child]);
    await prepareAll(groupId, [child]);
    const recalled = async () =>
      (await gate.rpc(reader.key, 'gv.recall', { query: word, mode: 'lexical' })).result.hits.map((h: { artifact_id: string }) => h.artifact_id);
    expect(await recalled()).toEqual([parent]);
    expect((await activate(groupId)).result).toMatchObject({ promoted: [child], superseded: [parent], frontier: [child] });
    expect((await gate.rpc(reader.key, 'gv.node', { artifact_id: child })).result.status.state).toBe('ACTIVE');
    expect((await gate.rpc(reader.key, 'gv.node', { artifact_id: parent })).result.status.state).toBe('SUPERSEDED');
    expect(await recalled()).toEqual([child]);
  });
});

describe('gv.replacement_activate: refusals', () => {
  it('the proposer never activates in production: -32010 proposer', async () => {
    const [parent, child] = [await rows.active(), await rows.held()];
    const groupId = await proposeGroup('supersede', [parent], [child]);
    await prepareAll(groupId, [child]);
    expectRefusal(await activate(groupId, proposer.key), -32010, 'proposer');
    expect(await rows.state(child)).toBe('L3_RATIFIED');
  });

  it('an unprepared child is refused -32010 unprepared_child', async () => {
    const parent = await rows.active();
    const children = [await rows.held(), await rows.held()];
    const groupId = await proposeGroup('split', [parent], children);
    await prepareAll(groupId, [children[0]!]);
    const answer = await activate(groupId);
    expectRefusal(answer, -32010, 'unprepared_child');
    expect(answer.error?.data?.child).toBe(children[1]);
    expect([await rows.state(children[0]!), await rows.state(parent)]).toEqual(['L3_RATIFIED', 'ACTIVE']);
  });

  it('a stale graph_revision is refused -32010 stale_revision', async () => {
    const [parent, child] = [await rows.active(), await rows.held()];
    const groupId = await proposeGroup('supersede', [parent], [child]);
    const before = await revisionOf(gate, activator.key, groupId);
    await prepareAll(groupId, [child]);
    expectRefusal(await activate(groupId, activator.key, before), -32010, 'stale_revision');
    expect((await activate(groupId)).result.state).toBe('ACTIVATED');
  });

  it('the revision moves with the group, its rows and its rivals, and with nothing else', async () => {
    const [parent, child] = [await rows.active(), await rows.held()];
    const groupId = await proposeGroup('supersede', [parent], [child]);
    const r0 = await revisionOf(gate, activator.key, groupId);
    await rows.active();
    await rows.held();
    await proposeGroup('supersede', [await rows.active()], [await rows.held()]);
    expect(await revisionOf(gate, activator.key, groupId)).toBe(r0);
    await prepareAll(groupId, [child]);
    const r1 = await revisionOf(gate, activator.key, groupId);
    expect(r1).not.toBe(r0);
    await proposeGroup('supersede', [parent], [await rows.held()]);
    const r2 = await revisionOf(gate, activator.key, groupId);
    expect(r2).not.toBe(r1);
    await gate.rpc(proposer.key, 'gv.demote', { artifact_id: parent });
    expect(await revisionOf(gate, activator.key, groupId)).not.toBe(r2);
  });

  it('a group whose parent was taken by another activated group is refused -32010 competing_group', async () => {
    const parent = await rows.active();
    const [first, second] = [await rows.held(), await rows.held()];
    const winner = await proposeGroup('supersede', [parent], [first]);
    const loser = await proposeGroup('supersede', [parent], [second]);
    await prepareAll(winner, [first]);
    await prepareAll(loser, [second]);
    const staleLoser = await revisionOf(gate, activator.key, loser);
    expect((await activate(winner)).result.state).toBe('ACTIVATED');
    expectRefusal(await activate(loser, activator.key, staleLoser), -32010, 'stale_revision');
    const answer = await activate(loser);
    expectRefusal(answer, -32010, 'competing_group');
    expect(answer.error?.data?.group).toBe(winner);
    expect(await rows.state(second)).toBe('L3_RATIFIED');
  });

  it('a parent no longer ACTIVE is refused -32010 parent_not_active', async () => {
    const [parent, child] = [await rows.active(), await rows.held()];
    const groupId = await proposeGroup('supersede', [parent], [child]);
    await prepareAll(groupId, [child]);
    await gate.rpc(proposer.key, 'gv.demote', { artifact_id: parent });
    expectRefusal(await activate(groupId), -32010, 'parent_not_active');
    expect(await rows.state(child)).toBe('L3_RATIFIED');
  });

  it('a prepared child that moved on (demoted back to L2_SCORED) is refused -32010 child_moved', async () => {
    const [parent, child] = [await rows.active(), await rows.held()];
    const groupId = await proposeGroup('supersede', [parent], [child]);
    await prepareAll(groupId, [child]);
    // A child of a pending group is not rejected or promoted on its own; a demote takes it back to review.
    expectRefusal(await gate.rpc(proposer.key, 'gv.reject', { artifact_id: child }), -32010, 'replacement_pending');
    expect((await gate.rpc(proposer.key, 'gv.demote', { artifact_id: child })).result.state).toBe('L2_SCORED');
    expectRefusal(await activate(groupId), -32010, 'child_moved');
    expect(await rows.state(parent)).toBe('ACTIVE');
  });

  it('a reviewer who wrote a child never activates: -32010 self_authored', async () => {
    const author = await gate.key('reviewer');
    const parent = await rows.active();
    const child = await rows.held({}, author.key);
    const groupId = await proposeGroup('supersede', [parent], [child]);
    await prepareAll(groupId, [child]);
    expectRefusal(await activate(groupId, author.key), -32010, 'self_authored');
  });

  it('a group already activated or aborted is refused -32010 not_pending', async () => {
    const [parent, child] = [await rows.active(), await rows.held()];
    const groupId = await proposeGroup('supersede', [parent], [child]);
    await prepareAll(groupId, [child]);
    expect((await activate(groupId)).result.state).toBe('ACTIVATED');
    expectRefusal(await activate(groupId), -32010, 'not_pending');
    const aborted = await proposeGroup('supersede', [await rows.active()], [await rows.held()]);
    await gate.rpc(activator.key, 'gv.replacement_abort', { group_id: aborted });
    expectRefusal(await activate(aborted), -32010, 'not_pending');
  });

  it('an unknown group and a missing graph_revision are refused -32602 naming the field', async () => {
    const unknown = await gate.rpc(activator.key, 'gv.replacement_activate', { group_id: 'nothing-here', graph_revision: 'x' });
    expectRefusal(unknown, -32602);
    expect(unknown.error?.data?.field).toBe('group_id');
    const missing = await gate.rpc(activator.key, 'gv.replacement_activate', { group_id: 'nothing-here' });
    expect(missing.error?.data?.field).toBe('graph_revision');
  });

  it('an agent is refused -32602 naming both roles', async () => {
    const answer = await gate.rpc(agent.key, 'gv.replacement_activate', { group_id: 'g', graph_revision: 'r' });
    expect(answer.error?.data).toEqual({ required: 'reviewer', role: 'agent' });
  });

  it('racing activations: exactly one lands, the rest are refused; two rival groups racing: one wins', async () => {
    const [parent, child] = [await rows.active(), await rows.held()];
    const groupId = await proposeGroup('supersede', [parent], [child]);
    await prepareAll(groupId, [child]);
    const revision = await revisionOf(gate, activator.key, groupId);
    const answers = await Promise.all(Array.from({ length: 8 }, () => activate(groupId, activator.key, revision)));
    expect(answers.filter((a) => a.result?.state === 'ACTIVATED')).toHaveLength(1);
    for (const refused of answers.filter((a) => a.error)) expect(refused.error?.code).toBe(-32010);

    const contested = await rows.active();
    const rivals = [await rows.held(), await rows.held()];
    const groups = [await proposeGroup('supersede', [contested], [rivals[0]!]), await proposeGroup('supersede', [contested], [rivals[1]!])];
    await prepareAll(groups[0]!, [rivals[0]!]);
    await prepareAll(groups[1]!, [rivals[1]!]);
    const revisions = [await revisionOf(gate, activator.key, groups[0]!), await revisionOf(gate, activator.key, groups[1]!)];
    const raced = await Promise.all(groups.map((g, i) => activate(g, activator.key, revisions[i])));
    expect(raced.filter((a) => a.result?.state === 'ACTIVATED')).toHaveLength(1);
    const parentEvents = (await types(contested)).filter((e) => e.type === 'relation');
    expect(parentEvents).toHaveLength(1);
    expect(parentEvents[0]!.enters).toBe('SUPERSEDED');
  });

  it('after all of it, rebuild equals live and the chain verifies', async () => {
    expect((await gate.socket('gv.rebuild')).result.equal).toBe(true);
    expect((await gate.socket('gv.audit_chain')).result.ok).toBe(true);
  });
});

describe('gv.replacement_activate in development', () => {
  it('the proposer may activate, journaled self_signed true', async () => {
    const dev = await UnitGate.open({ env: { GATE_DEPLOYMENT_MODE: 'development' } });
    try {
      const [devAgent, devReviewer, other] = [await dev.key('agent'), await dev.key('reviewer'), await dev.key('reviewer')];
      const devRows = new ReplacementRows(dev, devAgent.key, other.key);
      const [parent, child] = [await devRows.active(), await devRows.held()];
      const proposed = await dev.rpc(devReviewer.key, 'gv.replacement_propose', { operation: 'supersede', parent_ids: [parent], child_ids: [child], reason: 'solo' });
      const groupId = proposed.result.group_id;
      await dev.rpc(devReviewer.key, 'gv.replacement_prepare', { group_id: groupId, child_id: child });
      const answer = await dev.rpc(devReviewer.key, 'gv.replacement_activate', { group_id: groupId, graph_revision: await revisionOf(dev, devReviewer.key, groupId) });
      expect(answer.result).toMatchObject({ state: 'ACTIVATED', self_signed: true, promoted: [child] });
      const event = (await dev.rpc(devReviewer.key, 'gv.events', { types: ['replacement-activated'] })).result.events[0];
      expect(event).toMatchObject({ group_id: groupId, self_signed: true, by: devReviewer.identity });
    } finally {
      await dev.stop();
    }
  });
});

describe('gv.replacement_activate refuses a cycle', () => {
  it('a parent that already supersedes the child (an edge only a journal written elsewhere could hold) is refused -32010 cycle', async () => {
    const home = await UnitGate.open();
    try {
      const [a, r1, r2] = [await home.key('agent'), await home.key('reviewer'), await home.key('reviewer')];
      const homeRows = new ReplacementRows(home, a.key, r2.key);
      const [parent, child] = [await homeRows.active(), await homeRows.held()];
      const groupId = (await home.rpc(r1.key, 'gv.replacement_propose', { operation: 'supersede', parent_ids: [parent], child_ids: [child], reason: 'loop' })).result.group_id;
      await home.rpc(r2.key, 'gv.replacement_prepare', { group_id: groupId, child_id: child });
      await home.stop();
      // The edge parent -> child is appended with the real journal and reducers, signed by the deployment key.
      const db = new Database(join(home.home, 'gate.db'));
      const projections = new Projections(db, 'main');
      const journal = new Journal(db, DeploymentKey.openOrCreate(join(home.home, 'deployment.key')), systemClock, projections);
      db.transaction(() => journal.append('relation', null, { artifact_id: parent, space: 'main', child: parent, parent: child, kind: 'supersedes' }))();
      db.close();
      await home.restart();
      const answer = await home.rpc(r2.key, 'gv.replacement_activate', { group_id: groupId, graph_revision: await revisionOf(home, r2.key, groupId) });
      expectRefusal(answer, -32010, 'cycle');
      expect((await home.socket('gv.status', { artifact_id: child })).result.state).toBe('L3_RATIFIED');
      expect((await home.socket('gv.rebuild')).result.equal).toBe(true);
    } finally {
      await home.stop();
    }
  });
});
