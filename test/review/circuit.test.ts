import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { startModelGate, type ModelGate } from '../harness/fake-model-server.js';

let m: ModelGate;
beforeAll(async () => {
  m = await startModelGate({ backend: { circuit_failures: 3, circuit_open_s: 3600 }, env: { GATE_SPACES_MAIN_POLICY: 'model' } });
});
afterAll(async () => {
  await m?.stop();
});

const held = async (content: string) =>
  (await m.gate.rpc(m.agent.key, 'gv.ingest', { content, workarea: 'tests/circuit', kind: 'memory', source_uri: 'https://example.org/c' })).result.artifact_id as string;

describe("a backend's circuit", () => {
  it('opens after repeated failures: calls stop reaching the backend and runs are journaled blocked', async () => {
    const first = await m.gate.rpc(m.reviewer.key, 'gv.grade', { artifact_id: await held(`${uniqueText('c1')} [[500]]`) });
    expect(first.result.stances.map((s: any) => s.state)).toEqual(['failed', 'failed']);
    await m.gate.rpc(m.reviewer.key, 'gv.grade', { artifact_id: await held(`${uniqueText('c2')} [[500]]`) });
    const reached = m.server.modelCalls().length;
    expect(reached).toBe(4);
    const good = await held(uniqueText('healthy'));
    const blocked = await m.gate.rpc(m.reviewer.key, 'gv.grade', { artifact_id: good });
    expect(blocked.error).toMatchObject({ code: -32014, data: { blocker: 'reviewer_unavailable', code: 'circuit_open' } });
    expect(m.server.modelCalls().length).toBe(reached);
    const review = await m.gate.rpc(m.reviewer.key, 'gv.review', {});
    const item = review.result.items.find((i: any) => i.artifact_id === good);
    expect(item.waits_for).toMatchObject({ blocker: 'reviewer_unavailable' });
    expect(item.waits_for.words).toContain('circuit is open');
    const counts = (await m.gate.rpc(m.reviewer.key, 'gv.review_runs', {})).result.counts;
    expect(counts).toMatchObject({ failed: 4, blocked: 2, completed: 0 });
  });
});
