import { describe, expect, it } from 'vitest';
import { modelEnv, useModelServer } from '../harness/fake-model-server.js';
import { useGate } from '../harness/use-gate.js';

const WORDS = ['amber', 'basalt', 'cedar', 'delta', 'ember', 'fjord', 'garnet', 'harbor', 'indigo', 'juniper', 'kelp', 'lichen'];
let n = 0;
/** A claim of its own words, so no reviewer finds it restating another row. */
function distinct(marker = ''): string {
  n += 1;
  const pick = (i: number) => WORDS[(n * 5 + i * 3) % WORDS.length];
  return `Survey ${n}-${Date.now().toString(36)}: the ${pick(1)} quarry ships ${pick(2)} slabs to the ${pick(3)} depot every ${n + 2} days, batch ${Math.random().toString(36).slice(2, 10)}. ${marker}`;
}

const server = useModelServer();
const { gate, keys: { agent, reviewer }, ingestId } = useGate({
  kind: 'unit',
  env: () =>
    modelEnv(server, {
      backend: { circuit_failures: 1000, max_retries: 0 },
      env: { GATE_SPACES_MAIN_POLICY: 'auto', GATE_REVIEW_QUORUM_PROFILE: 'solo-reviewer', GATE_REVIEW_SECOND_OPINION: '' },
    }),
  keys: { agent: 'agent', reviewer: 'reviewer' },
});

const ingest = (content: string, extra: Record<string, unknown> = {}) => ingestId(agent, { content, workarea: 'tests/semantic', source_uri: 'https://example.org/survey', ...extra });
const review = (id: string, extra: Record<string, unknown> = {}) => gate.rpc(reviewer.key, 'gv.semantic_review', { artifact_id: id, ...extra });
const state = async (id: string) => (await gate.rpc(reviewer.key, 'gv.status', { artifact_id: id })).result.state as string;

describe('gv.semantic_review', () => {
  it('passes a row every stance approves, and promotes nothing unless asked to settle', async () => {
    const id = await ingest(distinct());
    const r = await review(id);
    expect(r.error).toBeUndefined();
    expect(r.result).toMatchObject({ artifact_id: id, state: 'L2_SCORED', approved: true, settled: false });
    expect(r.result.stances.map((s: { stance: string; decision: string }) => [s.stance, s.decision]).sort()).toEqual([['critical', 'approve'], ['positive', 'approve']]);
    expect(r.result.waits_for).toMatchObject({ blocker: 'quorum', code: 'settle' });
    expect(await state(id)).toBe('L2_SCORED');
    // Asked again, the stances answer from the decision record: no model call.
    const calls = server.requests.length;
    const again = await review(id);
    expect(again.result.stances.every((s: { from_record: boolean }) => s.from_record)).toBe(true);
    expect(server.requests.length).toBe(calls);
  });

  it('with settle, the deployment promotes an auto space row whose quorum the approvals met', async () => {
    const id = await ingest(distinct());
    const r = await review(id, { settle: true });
    expect(r.result).toMatchObject({ state: 'ACTIVE', approved: true, settled: true, waits_for: null });
    expect(await state(id)).toBe('ACTIVE');
  });

  it('a stance that rejects is refused -32014: a workflow blocker, never an approval, even asked to settle', async () => {
    const id = await ingest(distinct('[[critical-no]]'));
    const r = await review(id, { settle: true });
    expect(r.result).toBeUndefined();
    expect(r.error?.code).toBe(-32014);
    expect(r.error?.data).toMatchObject({ blocker: 'semantic_review', code: 'rejected' });
    expect(r.error?.data.stances).toEqual(
      expect.arrayContaining([expect.objectContaining({ stance: 'critical', decision: 'reject' }), expect.objectContaining({ stance: 'positive', decision: 'approve' })]),
    );
    expect(JSON.stringify(r.error)).not.toContain('rationale');
    expect(await state(id)).toBe('L2_SCORED');
    const approval = (await gate.rpc(reviewer.key, 'gv.approval', { artifact_id: id })).result;
    expect(approval.status).toBe('escalated');
    expect(approval.waits_for).toMatchObject({ blocker: 'human_required', code: 'model_rejected' });
  });

  it('a stance that cannot answer is refused -32014 reviewer_unavailable, naming it and how it failed', async () => {
    const id = await ingest(distinct('[[500@positive]]'));
    const r = await review(id);
    expect(r.error?.code).toBe(-32014);
    expect(r.error?.data).toMatchObject({ blocker: 'reviewer_unavailable', code: 'stance_failed', stance: 'positive', failure: 'http' });
    expect(await state(id)).not.toBe('ACTIVE');
  });

  it('a row a finding holds is refused -32014 hard_constraint with no model call', async () => {
    const id = await ingest(`${distinct()} token ghp_TestOnlyNotARealTokenx7Kq2Zp9Lm4Rv8W`);
    expect(await state(id)).toBe('L1B_FLAGGED');
    const calls = server.requests.length;
    const r = await review(id);
    expect(r.error?.code).toBe(-32014);
    expect(r.error?.data).toEqual({ blocker: 'hard_constraint', code: 'finding' });
    expect(server.requests.length).toBe(calls);
  });

  it('refuses recorded rows, callers below reviewer, and a settle that is not a boolean', async () => {
    const recorded = (await gate.rpc(agent.key, 'gv.ingest', { content: '{"step":1}', workarea: 'tests/semantic', content_type: 'event', source_uri: 'test://e' })).result.artifact_id;
    expect((await review(recorded)).error).toMatchObject({ code: -32010, data: { reason: 'recorded' } });
    const id = await ingest(distinct());
    expect((await gate.rpc(agent.key, 'gv.semantic_review', { artifact_id: id })).error?.data).toEqual({ required: 'reviewer', role: 'agent' });
    expect((await review(id, { settle: 'yes' })).error?.data).toEqual({ field: 'settle' });
    expect((await review('0'.repeat(64))).error?.message).toBe('unknown artifact: sha256:000000000');
  });
});
