import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { FakeModelServer, modelEnv } from '../harness/fake-model-server.js';
import { useGate } from '../harness/use-gate.js';

let server: FakeModelServer;
/**
 * Each call may spend its prompt (about 550 tokens for these claims) and max_tokens (64);
 * the server says it spent 600. A budget of 1,500 lets one grade of two stances through
 * and leaves too little for another call.
 */
beforeAll(async () => {
  server = await new FakeModelServer().start();
  server.usageTokens = 600;
});
afterAll(async () => {
  await server?.stop();
});
const { gate, keys: { agent, reviewer }, ingestId } = useGate({
  kind: 'unit',
  env: () => modelEnv(server, { env: { GATE_REVIEW_BUDGET_PER_DAY: '1500', GATE_SPACES_MAIN_POLICY: 'model' } }),
  keys: { agent: 'agent', reviewer: 'reviewer' },
});

const held = () => ingestId(agent, { content: uniqueText('budget'), workarea: 'tests/budget', source_uri: 'https://example.org/b' });

describe("the day's token budget", () => {
  it('is counted from each run, and once spent grading fails closed: no call, a blocked run, -32014 reviewer_unavailable', async () => {
    const first = await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: await held() });
    expect(first.result.cost_tokens).toBe(1200);
    const calls = server.modelCalls().length;
    const second = await held();
    const refused = await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: second });
    expect(refused.error).toMatchObject({ code: -32014, data: { blocker: 'reviewer_unavailable', code: 'budget_spent' } });
    const pending = await gate.rpc(reviewer.key, 'gv.grade_pending', {});
    // 300 tokens are left, fewer than one call may spend.
    expect(pending.result).toMatchObject({ graded: 0, paused: true, budget_remaining: 300 });
    expect(pending.result.why_paused).toContain('budget');
    expect(server.modelCalls().length).toBe(calls);
    const runs = await gate.rpc(reviewer.key, 'gv.review_runs', { state: 'blocked' });
    expect(runs.result.runs.length).toBeGreaterThanOrEqual(3);
    expect(runs.result.runs.every((r: any) => r.failure === 'budget_spent')).toBe(true);
    expect(runs.result.detail.budget).toMatchObject({ per_day: 1500, spent_today: 1200 });
    const approval = await gate.rpc(reviewer.key, 'gv.approval', { artifact_id: second });
    expect(approval.result.waits_for).toMatchObject({ blocker: 'reviewer_unavailable' });
    expect((await gate.rpc(reviewer.key, 'gv.review_pending', {})).result).toMatchObject({ reviewed: 0, paused: true, budget_remaining: 300 });
  });
});
