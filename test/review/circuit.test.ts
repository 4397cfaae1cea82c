import { describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { modelEnv, useModelServer } from '../harness/fake-model-server.js';
import { useGate } from '../harness/use-gate.js';

const server = useModelServer();
const { gate, keys: { agent, reviewer }, ingestId } = useGate({
  kind: 'unit',
  env: () => modelEnv(server, { backend: { circuit_failures: 3, circuit_open_s: 3600 }, env: { GATE_SPACES_MAIN_POLICY: 'model' } }),
  keys: { agent: 'agent', reviewer: 'reviewer' },
});

const held = (content: string) => ingestId(agent, { content, workarea: 'tests/circuit', source_uri: 'https://example.org/c' });

describe("a backend's circuit", () => {
  it('opens after repeated failures: calls stop reaching the backend and runs are journaled blocked', async () => {
    const first = await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: await held(`${uniqueText('c1')} [[500]]`) });
    expect(first.result.stances.map((s: any) => s.state)).toEqual(['failed', 'failed']);
    await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: await held(`${uniqueText('c2')} [[500]]`) });
    const reached = server.modelCalls().length;
    expect(reached).toBe(4);
    const good = await held(uniqueText('healthy'));
    const blocked = await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: good });
    expect(blocked.error).toMatchObject({ code: -32014, data: { blocker: 'reviewer_unavailable', code: 'circuit_open' } });
    expect(server.modelCalls().length).toBe(reached);
    const review = await gate.rpc(reviewer.key, 'gv.review', {});
    const item = review.result.items.find((i: any) => i.artifact_id === good);
    expect(item.waits_for).toMatchObject({ blocker: 'reviewer_unavailable' });
    expect(item.waits_for.words).toContain('circuit is open');
    const counts = (await gate.rpc(reviewer.key, 'gv.review_runs', {})).result.counts;
    expect(counts).toMatchObject({ failed: 4, blocked: 2, completed: 0 });
  });
});
