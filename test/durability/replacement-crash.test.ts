import { afterAll, describe, expect, it } from 'vitest';
import { GateProcess } from '../harness/gate-process.js';
import { ReplacementRows, revisionOf } from '../harness/replacement-rows.js';
import { waitForDeath } from '../harness/crash.js';

const FAILPOINT = 'replacement-activate-between-promote-and-relation';

let gate: GateProcess | undefined;
afterAll(async () => {
  await gate?.stop();
});

describe('durability: group activation is one transaction', () => {
  it('a crash between the promotes and the relations leaves the group PENDING and nothing half-applied; activation then succeeds', async () => {
    const armed = await GateProcess.start({ env: { GATE_FAILPOINTS: FAILPOINT } });
    const [agent, proposer, activator] = [await armed.key('agent'), await armed.key('reviewer'), await armed.key('reviewer')];
    const rows = new ReplacementRows(armed, agent.key, activator.key);
    const parent = await rows.active();
    const children = [await rows.held(), await rows.held()];
    const proposed = await armed.rpc(proposer.key, 'gv.replacement_propose', { operation: 'split', parent_ids: [parent], child_ids: children, reason: 'two topics' });
    const groupId = proposed.result.group_id as string;
    for (const child of children) await armed.rpc(activator.key, 'gv.replacement_prepare', { group_id: groupId, child_id: child });
    const revision = await revisionOf(armed, activator.key, groupId);
    const tipBefore = (await armed.socket('gv.audit_chain')).result;

    const pid = armed.pid;
    const died = await armed
      .rpc(activator.key, 'gv.replacement_activate', { group_id: groupId, graph_revision: revision })
      .then((answer) => ({ answered: answer }))
      .catch((error: unknown) => ({ connectionLost: String(error) }));
    expect(died).toHaveProperty('connectionLost');
    await waitForDeath(pid);

    gate = await GateProcess.start({ home: armed.home });
    const after = new ReplacementRows(gate, agent.key, activator.key);
    const listed = await gate.rpc(activator.key, 'gv.replacements', { group_id: groupId });
    expect(listed.result.groups[0]).toMatchObject({ state: 'PENDING', prepared: children, pending_children: [] });
    expect(listed.result.revision).toBe(revision);
    expect([await after.state(children[0]!), await after.state(children[1]!), await after.state(parent)]).toEqual(['L3_RATIFIED', 'L3_RATIFIED', 'ACTIVE']);
    for (const id of [...children, parent]) {
      const events = (await gate.socket('gv.why', { artifact_id: id })).result.events as Array<{ type: string; group_id?: string }>;
      expect(events.filter((e) => e.group_id === groupId && (e.type === 'promote' || e.type === 'relation'))).toEqual([]);
    }
    expect((await gate.socket('gv.relations', { artifact_id: parent })).result.relations).toEqual([]);
    const chain = (await gate.socket('gv.audit_chain')).result;
    expect(chain.ok).toBe(true);
    expect([chain.events, chain.head]).toEqual([tipBefore.events, tipBefore.head]);
    expect((await gate.socket('gv.rebuild')).result.equal).toBe(true);

    const activated = await gate.rpc(activator.key, 'gv.replacement_activate', { group_id: groupId, graph_revision: revision });
    expect(activated.result).toMatchObject({ state: 'ACTIVATED', promoted: children, superseded: [parent] });
    expect([await after.state(children[0]!), await after.state(children[1]!), await after.state(parent)]).toEqual(['ACTIVE', 'ACTIVE', 'SUPERSEDED']);
    expect((await gate.socket('gv.audit_chain')).result.ok).toBe(true);
    expect((await gate.socket('gv.rebuild')).result.equal).toBe(true);
  }, 120_000);

  it('a failpoint name the gate does not know stops the start, so a typo never passes for a crash', async () => {
    await expect(GateProcess.start({ env: { GATE_FAILPOINTS: 'replacement-activate-typo' } })).rejects.toThrow(/GATE_FAILPOINTS names replacement-activate-typo/);
  });
});
