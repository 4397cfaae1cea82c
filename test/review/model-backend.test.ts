import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, uniqueText } from '../harness/gate-process.js';
import { modelEnv, useModelServer } from '../harness/fake-model-server.js';
import { useGate } from '../harness/use-gate.js';

const server = useModelServer();
const { gate, keys: { agent, agent2, reviewer }, ingestId } = useGate({
  kind: 'unit',
  // main is model-reviewed here: verdicts count toward k, and a person settles.
  // The circuit is tested on its own (circuit.test.ts); here it must not open between the failure cases.
  env: () => modelEnv(server, { backend: { circuit_failures: 1000 }, env: { GATE_SPACES_MAIN_POLICY: 'model', GATE_REVIEW_QUORUM_PROFILE: 'standard' } }),
  keys: { agent: 'agent', agent2: 'agent', reviewer: 'reviewer' },
});

const held = (content: string, key = agent.key, extra: Record<string, unknown> = {}) =>
  ingestId(key, { content, workarea: 'tests/model', source_uri: 'https://example.org/doc', ...extra });
const grade = (id: string, extra: Record<string, unknown> = {}) => gate.rpc(reviewer.key, 'gv.grade', { artifact_id: id, ...extra });
const callsFor = (marker: string) => server.modelCalls().filter((r) => r.prompt.includes(marker));

describe('a model backend that approves', () => {
  it('is asked once per stance with the masked body only; each verdict is recorded against the content hash', async () => {
    const discussion = readFileSync(join(ROOT, 'fixtures', 'scan', 'clean-injection-discussion.md'), 'utf8');
    const marker = `approve-${Date.now()}`;
    const id = await held(`${discussion}\n${marker}`);
    const graded = await grade(id);
    expect(graded.error, JSON.stringify(graded.error)).toBeUndefined();
    expect(graded.result.state).toBe('L2_SCORED');
    expect(graded.result.rubric).toBe('gate-rubric/1');
    expect(graded.result.stances.map((s: any) => [s.stance, s.state, s.decision, s.score, s.model_label])).toEqual([
      ['positive', 'completed', 'approve', 85, 'openai:fake-model'],
      ['critical', 'completed', 'approve', 85, 'openai:fake-model'],
    ]);
    const calls = callsFor(marker);
    expect(calls.map((c) => c.stance).sort()).toEqual(['critical', 'positive']);
    for (const c of calls) {
      // The scanner's low findings are masked before any grader sees the text.
      expect(c.prompt).not.toContain('ignore previous instructions');
      expect(c.prompt).toContain('█');
      expect(c.authorization).toBe('Bearer sk-test-only-not-a-real-key');
      expect(c.body.response_format.type).toBe('json_schema');
      expect(c.body.max_tokens).toBe(64);
    }
    const audit = await gate.rpc(reviewer.key, 'gv.audit', { artifact_id: id });
    const verdicts = audit.result.decisions.filter((d: any) => d.type === 'verdict');
    expect(verdicts).toHaveLength(2);
    for (const v of verdicts) expect(v).toMatchObject({ decision: 'approve', model_label: 'openai:fake-model', rubric: 'gate-rubric/1', verified: true });
    // The served event carries the decision, never the score or the words.
    const events = await gate.rpc(reviewer.key, 'gv.events', { types: ['verdict'], limit: 1000 });
    const served = events.result.events.filter((e: any) => e.artifact_id === id);
    expect(served).toHaveLength(2);
    expect(JSON.stringify(served)).not.toMatch(/score|rationale|specific, sourced/);
    // Each stance's assessment is served as that it happened: no score, rationale or evidence.
    const assessed = (await gate.rpc(reviewer.key, 'gv.events', { types: ['assessment'], limit: 1000 })).result.events.filter((e: any) => e.artifact_id === id);
    expect(assessed).toHaveLength(2);
    for (const e of assessed) expect(Object.keys(e).sort()).toEqual(['artifact_id', 'by', 'enters', 'event_id', 'leaves', 'object', 'space', 'ts', 'type', 'workarea']);
    expect(JSON.stringify(assessed)).not.toMatch(/score|rationale|evidence|specific, sourced/);
  });

  it('counts toward k in a model space, but a person settles: a reviewer key may not promote', async () => {
    const id = await held(uniqueText('model-k'));
    await grade(id);
    const approval = (await gate.rpc(reviewer.key, 'gv.approval', { artifact_id: id })).result;
    expect(approval).toMatchObject({ status: 'pending', reason: 'human_required', k_required: 1, k_have: 1, approved_by: { model: 1, human: 0, authority: 0 } });
    expect(approval.waits_for).toMatchObject({ blocker: 'human_required', code: 'settle' });
    expect(approval.model_labels).toEqual(['openai:fake-model']);
    expect(approval.signers.every((s: any) => s.class === 'model' && s.counts === true)).toBe(true);
    await gate.readBody(reviewer.key, id);
    const promote = await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id });
    expect(promote.error).toMatchObject({ code: -32010, data: { reason: 'human_required' } });
  });

  it('answers unchanged bytes from the decision record without a call; fresh forces one; the same bytes elsewhere reuse it', async () => {
    const marker = `cache-${Date.now()}`;
    const text = `${uniqueText('cached')} ${marker}`;
    const id = await held(text);
    await grade(id);
    expect(callsFor(marker)).toHaveLength(2);
    const again = await grade(id);
    expect(again.result.stances.every((s: any) => s.from_record === true && s.run_id === null && s.score === 85)).toBe(true);
    expect(callsFor(marker)).toHaveLength(2);
    const twin = await held(text, agent2.key);
    const copied = await grade(twin);
    expect(copied.result.stances.every((s: any) => s.from_record === true && s.cost_tokens === 0)).toBe(true);
    expect(copied.result.state).toBe('L2_SCORED');
    expect(callsFor(marker)).toHaveLength(2);
    const fresh = await grade(id, { fresh: true });
    expect(fresh.result.stances.every((s: any) => s.from_record === false)).toBe(true);
    expect(callsFor(marker)).toHaveLength(4);
  });
});

describe('answers that are not approvals', () => {
  it('a rejection is recorded and escalates the row to people; it is never promoted', async () => {
    const id = await held(`${uniqueText('rejected')} [[reject]]`);
    const graded = await grade(id);
    expect(graded.result.stances.map((s: any) => s.decision)).toEqual(['reject', 'reject']);
    const approval = (await gate.rpc(reviewer.key, 'gv.approval', { artifact_id: id })).result;
    expect(approval).toMatchObject({ status: 'escalated', k_have: 0 });
    expect(approval.waits_for).toMatchObject({ blocker: 'human_required', code: 'model_rejected' });
  });

  it('only the critical stance rejecting is the model rejecting', async () => {
    const id = await held(`${uniqueText('split')} [[critical-no]]`);
    const graded = await grade(id);
    expect(graded.result.stances.map((s: any) => [s.stance, s.decision])).toEqual([['positive', 'approve'], ['critical', 'reject']]);
    const approval = (await gate.rpc(reviewer.key, 'gv.approval', { artifact_id: id })).result;
    expect(approval).toMatchObject({ status: 'escalated', k_have: 0 });
  });

  for (const [marker, failure] of [
    ['malformed', 'malformed'],
    ['badshape', 'malformed'],
    ['lowapprove', 'malformed'],
    ['refuse', 'refused'],
    ['500', 'http'],
    ['slow', 'timeout'],
  ] as const) {
    it(`[[${marker}]] is a failed run (${failure}), never a verdict`, async () => {
      const id = await held(`${uniqueText(marker)} [[${marker}]]`);
      const graded = await grade(id);
      expect(graded.error, JSON.stringify(graded.error)).toBeUndefined();
      for (const s of graded.result.stances) expect(s).toMatchObject({ state: 'failed', failure });
      expect(graded.result.state).toBe('L1_SCANNED');
      const why = await gate.rpc(reviewer.key, 'gv.why', { artifact_id: id });
      expect(why.result.events.some((e: any) => e.type === 'verdict')).toBe(false);
      const runs = await gate.rpc(reviewer.key, 'gv.review_runs', { state: 'failed', q: id.slice(7, 30) });
      expect(runs.result.runs).toHaveLength(2);
      for (const r of runs.result.runs) expect(r).toMatchObject({ artifact_id: id, state: 'failed', failure, backend: 'fake' });
      expect(runs.result.last_failure.artifact_id).toBe(id);
      expect((await gate.rpc(reviewer.key, 'gv.approval', { artifact_id: id })).result.k_have).toBe(0);
    });
  }

  it('a 500 is not retried; a 429 is retried after its Retry-After and then answers', async () => {
    const five = `five-${Date.now()}`;
    await grade(await held(`${uniqueText('five')} ${five} [[500]]`));
    // One call per stance: a 500 is answered as it is.
    expect(callsFor(five)).toHaveLength(2);
    const marker = `limited-${Date.now()}`;
    const id = await held(`${uniqueText('limited')} ${marker} [[429]]`);
    const graded = await grade(id);
    expect(graded.result.stances.every((s: any) => s.state === 'completed' && s.decision === 'approve')).toBe(true);
    for (const stance of ['positive', 'critical']) {
      const calls = callsFor(marker).filter((c) => c.stance === stance);
      expect(calls).toHaveLength(2);
      expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(950);
    }
  });
});

describe('who may grade', () => {
  it('the author of a row holding a verdict may not grade it', async () => {
    const id = await held(uniqueText('own'), reviewer.key);
    expect((await grade(id)).result.state).toBe('L2_SCORED');
    const again = await grade(id);
    expect(again.error).toMatchObject({ code: -32602, data: { reason: 'self_authored' } });
  });

  it('below reviewer gv.grade is refused naming both roles; a flagged row is a workflow blocker (-32014)', async () => {
    const id = await held(uniqueText('roles'));
    const refused = await gate.rpc(agent.key, 'gv.grade', { artifact_id: id });
    expect(refused.error).toMatchObject({ code: -32602, data: { required: 'reviewer', role: 'agent' } });
    const flagged = await held(`key: AKIA${'Q7ZR'.repeat(4)} ${Date.now()}`);
    expect((await grade(flagged)).error).toMatchObject({ code: -32014, data: { blocker: 'hard_constraint' } });
  });

  it('a socket peer may grade in a test home (this one is under the temp directory)', async () => {
    const id = await held(uniqueText('socket'));
    expect((await gate.socket('gv.grade', { artifact_id: id })).result.state).toBe('L2_SCORED');
  });
});

describe('gv.backend_check', () => {
  it('reports a reachable backend, its credential, model and structured outputs; an unknown table is refused', async () => {
    const check = await gate.socket('gv.backend_check', {});
    expect(check.result).toMatchObject({ backend: 'fake', reachable: true, credential: 'present', model: 'fake-model', effort: null, structured_outputs: true });
    expect(check.result.words).toContain('lists fake-model');
    // Structured outputs are asked of the backend: one probe grading call, its tokens reported.
    expect(check.result.words).toContain('a probe grading call came back in the structured form');
    expect(check.result.cost_tokens).toBeGreaterThan(0);
    server.ignoreSchema = true;
    try {
      const prose = (await gate.socket('gv.backend_check', {})).result;
      expect(prose).toMatchObject({ reachable: true, credential: 'present', structured_outputs: false });
      expect(prose.words).toContain('did not come back in the structured form (malformed');
    } finally {
      server.ignoreSchema = false;
    }
    const local = await gate.socket('gv.backend_check', { backend: 'local' });
    expect(local.result).toMatchObject({ backend: 'local', reachable: true, credential: 'absent', structured_outputs: true });
    expect(local.result.model).toContain('not an LLM');
    const unknown = await gate.socket('gv.backend_check', { backend: 'nope' });
    expect(unknown.error).toMatchObject({ code: -32602, data: { field: 'backend' } });
    expect((await gate.rpc(reviewer.key, 'gv.backend_check', {})).error?.data).toEqual({ required: 'admin', role: 'reviewer' });
    server.refuseCredential = true;
    try {
      expect((await gate.socket('gv.backend_check', {})).result.credential).toBe('refused: HTTP 401');
    } finally {
      server.refuseCredential = false;
    }
  });
});
