import { beforeAll, describe, expect, it } from 'vitest';
import { ReplacementRows, expectRefusal } from '../harness/replacement-rows.js';
import { useGate } from '../harness/use-gate.js';

// The standard profile asks two signatures of a T-2 row (a skill), so one reviewer key's promote falls short.
const { gate, keys: { writer, first, second } } = useGate({
  kind: 'unit',
  env: { GATE_SPACES_MAIN_POLICY: 'auto', GATE_REVIEW_QUORUM_PROFILE: 'standard' },
  keys: { writer: 'agent', first: 'reviewer', second: 'reviewer' },
});

let rows: ReplacementRows;

beforeAll(async () => {
  rows = new ReplacementRows(gate, writer.key, first.key);
});

describe('gv.promote with supersedes still needs everything promote needs', () => {
  it('short of quorum it is refused and nothing moves; once quorum is met it promotes and supersedes', async () => {
    const parent = await rows.active();
    const child = await rows.held({ kind: 'skill' });
    await gate.readBody(first.key, child);
    const short = await gate.rpc(first.key, 'gv.promote', { artifact_id: child, supersedes: parent });
    expectRefusal(short, -32010, 'quorum');
    expect(short.error?.data).toMatchObject({ k_required: 2, k_have: 1 });
    expect([await rows.state(child), await rows.state(parent)]).toEqual(['L1_SCANNED', 'ACTIVE']);

    await gate.readBody(first.key, child);
    expect((await gate.rpc(first.key, 'gv.sign', { artifact_id: child, decision: 'approve' })).error).toBeUndefined();
    await gate.readBody(second.key, child);
    const met = await gate.rpc(second.key, 'gv.promote', { artifact_id: child, supersedes: parent });
    expect(met.result).toMatchObject({ state: 'ACTIVE', k_required: 2, k_have: 2, supersedes: parent });
    expect([await rows.state(child), await rows.state(parent)]).toEqual(['ACTIVE', 'SUPERSEDED']);
    expect((await gate.socket('gv.rebuild')).result.equal).toBe(true);
  });
});
