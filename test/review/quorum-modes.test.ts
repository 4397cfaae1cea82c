import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { useGate } from '../harness/use-gate.js';
import { reviewSpaces } from '../harness/review-spaces.js';

/**
 * The embedded local reviewer under the standard profile (T-1 one signature, T-2 two,
 * T-4 one of them a person's), in spaces of each review mode: main auto, `people` human,
 * `models` model.
 */
const { gate, keys: { agent, reviewer, reviewer2 }, ingestResult } = useGate({
  kind: 'unit',
  env: { GATE_SPACES_MAIN_POLICY: 'auto', GATE_REVIEW_QUORUM_PROFILE: 'standard' },
  keys: { agent: 'agent', reviewer: 'reviewer', reviewer2: 'reviewer' },
});

beforeAll(() => reviewSpaces(gate, agent, { people: 'human', models: 'model' }));

const WORDS = ['amber', 'basalt', 'cedar', 'delta', 'ember', 'fjord', 'garnet', 'harbor', 'indigo', 'juniper', 'kelp', 'lichen', 'marble', 'nectar', 'onyx', 'pumice'];
let n = 0;
/** A claim of its own words, so the local reviewer never finds it restating a promoted row. */
function distinct(): string {
  n += 1;
  const pick = (i: number) => WORDS[(n * 7 + i * 3) % WORDS.length];
  return `Survey ${n}-${Date.now().toString(36)}: the ${pick(1)} quarry ships ${pick(2)} slabs to the ${pick(3)} depot every ${n + 2} days, logged under batch ${Math.random().toString(36).slice(2, 10)}.`;
}

const ingest = (extra: Record<string, unknown> = {}) => ingestResult(agent, { content: distinct(), workarea: 'tests/quorum', source_uri: 'https://example.org/survey', ...extra });
const approval = async (id: string) => (await gate.rpc(reviewer.key, 'gv.approval', { artifact_id: id })).result;
const state = async (id: string) => (await gate.rpc(reviewer.key, 'gv.status', { artifact_id: id })).result.state;

describe('auto review', () => {
  it('gv.ping names the quorum profile in force', async () => {
    expect((await gate.rpc(agent.key, 'gv.ping')).result.quorum_profile).toBe('standard');
  });

  it('grade_pending grades held L1 rows; a T-1 row the models approve is promoted by the deployment, provisionally', async () => {
    const good = await ingest();
    const short = await ingest({ content: `ok ${Date.now()}` });
    const flagged = await ingest({ content: `key: AKIA${'Q7ZR'.repeat(4)} ${Date.now()}` });
    expect(flagged.state).toBe('L1B_FLAGGED');
    const graded = await gate.rpc(reviewer.key, 'gv.grade_pending', { limit: 1000 });
    expect(graded.error, JSON.stringify(graded.error)).toBeUndefined();
    expect(graded.result).toMatchObject({ failed: 0, blocked: 0, cost_tokens: 0, paused: false });
    expect(graded.result.graded).toBeGreaterThanOrEqual(2);

    expect(await state(good.artifact_id)).toBe('ACTIVE');
    const promote = (await gate.rpc(agent.key, 'gv.why', { artifact_id: good.artifact_id })).result.events.find((e: any) => e.type === 'promote');
    expect(promote).toMatchObject({ by: null, provisional: true, signer_class: 'deployment' });
    const a = await approval(good.artifact_id);
    expect(a).toMatchObject({ status: 'ai_approved', provisional: true, k_required: 1, k_have: 1, mode: 'auto', quorum_profile: 'standard' });
    expect(a.model_labels).toEqual(['gate-local-rules/1 (deterministic, not an LLM)']);
    const deployment = a.signers.find((s: any) => s.class === 'deployment');
    expect(deployment).toMatchObject({ identity: 'deployment', decision: 'promote', counts: false });
    expect((await gate.rpc(agent.key, 'gv.countersign_status', { artifact_id: good.artifact_id })).result).toMatchObject({
      state: 'ACTIVE',
      trust_class: 'T-1',
      requires_countersign: false,
      provisional: true,
      countersigned: false,
      awaiting: true,
      authority: { configured: false },
    });
    const summary = (await gate.rpc(reviewer.key, 'gv.countersign_status', {})).result;
    expect(summary.provisional).toBeGreaterThanOrEqual(1);
    expect(summary).toMatchObject({ ratified_awaiting: 0, countersigned: 0 });
    for (const field of ['artifact_id', 'state', 'status', 'reason', 'k_required', 'k_have', 'signers', 'approved_by', 'model_labels', 'provisional',
      'human_veto_available', 'human_sign_available', 'decisions', 'open_objections', 'revision']) {
      expect(a, field).toHaveProperty(field);
    }

    // Too short to be a claim: the critical stance rejects it, so the model rejects it and people decide.
    expect(await state(short.artifact_id)).toBe('L2_SCORED');
    expect(await approval(short.artifact_id)).toMatchObject({ status: 'escalated', waits_for: { blocker: 'human_required', code: 'model_rejected' } });
    // A flagged row is never graded: no score clears a finding.
    expect(await state(flagged.artifact_id)).toBe('L1B_FLAGGED');
    expect((await approval(flagged.artifact_id)).waits_for).toMatchObject({ blocker: 'hard_constraint', code: 'finding' });
  });

  it('a T-2 row needs two signatures: the model is one, a reviewer key the second (and it may settle in auto)', async () => {
    const skill = await ingest({ kind: 'skill' });
    const graded = await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: skill.artifact_id });
    expect(graded.result.state).toBe('L2_SCORED');
    expect(await approval(skill.artifact_id)).toMatchObject({ k_required: 2, k_have: 1, waits_for: { blocker: 'quorum', code: 'k', missing: { signatures: 1, people: 0 } } });
    await gate.readBody(reviewer.key, skill.artifact_id);
    const promoted = await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: skill.artifact_id });
    expect(promoted.result).toMatchObject({ state: 'ACTIVE', provisional: true, k_required: 2, k_have: 2 });
    expect((await approval(skill.artifact_id)).approved_by).toEqual({ model: 1, human: 0, authority: 0 });
  });

  it('a T-4 row needs a person: no key or model settles it', async () => {
    const doc = await ingest({ kind: 'imported_document' });
    await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: doc.artifact_id });
    const a = await approval(doc.artifact_id);
    expect(a).toMatchObject({ k_required: 1, people_required: 1, people_have: 0, waits_for: { blocker: 'human_required', code: 'people' } });
    await gate.readBody(reviewer.key, doc.artifact_id);
    const promote = await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: doc.artifact_id });
    expect(promote.error).toMatchObject({ code: -32010, data: { reason: 'quorum' } });
    expect((await gate.rpc(reviewer.key, 'gv.settle_pending', {})).result.artifact_ids).not.toContain(doc.artifact_id);
    expect(await state(doc.artifact_id)).toBe('L2_SCORED');
  });

  it("an operator's open objection holds auto-promotion until a resolution replies; a retraction releases another", async () => {
    const held = await ingest();
    const other = await ingest();
    const objection = await gate.socket('gv.comment', { artifact_id: held.artifact_id, kind: 'objection', body: 'wait for the audit' });
    const second = await gate.socket('gv.comment', { artifact_id: other.artifact_id, kind: 'objection', body: 'check the depot' });
    // A reviewer key's objection is not the operator's: it holds nothing.
    await gate.rpc(reviewer.key, 'gv.comment', { artifact_id: held.artifact_id, kind: 'objection', body: 'me too' });
    await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: held.artifact_id });
    await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: other.artifact_id });
    expect(await state(held.artifact_id)).toBe('L2_SCORED');
    expect((await approval(held.artifact_id)).waits_for).toMatchObject({ blocker: 'human_directive', code: 'objection' });
    expect((await approval(held.artifact_id)).open_objections).toBe(2);
    expect((await gate.rpc(reviewer.key, 'gv.settle_pending', {})).result.held.human_directive).toBeGreaterThanOrEqual(2);

    await gate.rpc(reviewer2.key, 'gv.comment', { artifact_id: held.artifact_id, kind: 'resolution', reply_to: objection.result.event_id, body: 'audited' });
    await gate.socket('gv.comment_retract', { artifact_id: other.artifact_id, event_id: second.result.event_id });
    const settled = await gate.rpc(reviewer.key, 'gv.settle_pending', {});
    expect(settled.result.artifact_ids).toEqual(expect.arrayContaining([held.artifact_id, other.artifact_id]));
    expect(await state(held.artifact_id)).toBe('ACTIVE');
    expect(await state(other.artifact_id)).toBe('ACTIVE');
  });

  it('review_pending adds second-opinion verdicts to graded rows of model and auto spaces, never L1B or a human space', async () => {
    const skill = await ingest({ kind: 'skill' });
    const human = await ingest({ space: 'people' });
    await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: skill.artifact_id });
    await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: human.artifact_id });
    const reviewed = await gate.rpc(reviewer.key, 'gv.review_pending', { limit: 1000 });
    expect(reviewed.result).toMatchObject({ paused: false, cost_tokens: 0 });
    expect(reviewed.result.reviewed).toBeGreaterThanOrEqual(1);
    const stancesOf = async (id: string) =>
      (await approval(id)).signers.filter((s: any) => s.class === 'model').map((s: any) => s.stance);
    expect(await stancesOf(skill.artifact_id)).toContain('second-opinion');
    expect(await stancesOf(human.artifact_id)).not.toContain('second-opinion');
    // The same model label is still one signer.
    expect((await approval(skill.artifact_id)).k_have).toBe(1);
  });
});

describe('human and model review', () => {
  it("in a human space a model's verdict does not count and a key's promote is refused", async () => {
    const row = await ingest({ space: 'people' });
    await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: row.artifact_id });
    const a = await approval(row.artifact_id);
    expect(a).toMatchObject({ mode: 'human', k_have: 0, waits_for: { blocker: 'human_required', code: 'people' } });
    expect(a.signers.every((s: any) => s.counts === false && /people's signatures/.test(s.why))).toBe(true);
    await gate.readBody(reviewer.key, row.artifact_id);
    const promote = await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: row.artifact_id });
    expect(promote.error).toMatchObject({ code: -32010, data: { reason: 'quorum' } });
  });

  it('in a model space the verdict counts, but a person settles', async () => {
    const row = await ingest({ space: 'models' });
    await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: row.artifact_id });
    expect(await approval(row.artifact_id)).toMatchObject({ mode: 'model', k_have: 1, waits_for: { blocker: 'human_required', code: 'settle' } });
    await gate.readBody(reviewer.key, row.artifact_id);
    expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: row.artifact_id })).error?.data?.reason).toBe('human_required');
    expect((await gate.rpc(reviewer.key, 'gv.settle_pending', {})).result.artifact_ids).not.toContain(row.artifact_id);
  });
});

describe('gv.reject', () => {
  it('takes a category and the row it loses to; a category outside the five is refused', async () => {
    const keep = await ingest();
    const lose = await ingest();
    const r = await gate.rpc(reviewer.key, 'gv.reject', { artifact_id: lose.artifact_id, in_favour_of: keep.artifact_id });
    expect(r.result).toMatchObject({ state: 'REJECTED', category: 'duplicate' });
    expect((await approval(lose.artifact_id)).status).toBe('rejected');
    const other = await ingest();
    expect((await gate.rpc(reviewer.key, 'gv.reject', { artifact_id: other.artifact_id, category: 'spam' })).error?.data?.field).toBe('category');
    expect((await gate.rpc(reviewer.key, 'gv.reject', { artifact_id: other.artifact_id, category: 'quality', reason: 'vague' })).result.category).toBe('quality');
    const audit = await gate.rpc(reviewer.key, 'gv.events', { types: ['reject'], limit: 1000 });
    const served = audit.result.events.find((e: any) => e.artifact_id === other.artifact_id);
    expect(served.category).toBe('quality');
    expect(JSON.stringify(served)).not.toContain('vague');
  });

  it("a reviewer's words stay in the journal: status reason is the category (or rejected, or demoted), never the free text", async () => {
    const WORDS = 'the zebra tally contradicts this';
    const answersOf = async (id: string) => [
      await gate.rpc(agent.key, 'gv.status', { artifact_id: id }),
      await gate.rpc(reviewer.key, 'gv.status', { artifact_id: id }),
      await gate.rpc(agent.key, 'gv.node', { artifact_id: id }),
      await gate.rpc(reviewer.key, 'gv.node', { artifact_id: id }),
      await gate.rpc(agent.key, 'gv.approval', { artifact_id: id }),
      await gate.rpc(reviewer.key, 'gv.approval', { artifact_id: id }),
      await gate.rpc(agent.key, 'gv.why', { artifact_id: id }),
      await gate.rpc(reviewer.key, 'gv.why', { artifact_id: id }),
      await gate.rpc(agent.key, 'gv.audit', { artifact_id: id }),
      await gate.rpc(reviewer.key, 'gv.inventory', { q: id.slice(7, 23), states: ['REJECTED', 'DEMOTED'] }),
    ];
    const categorised = await ingest();
    expect((await gate.rpc(reviewer.key, 'gv.reject', { artifact_id: categorised.artifact_id, category: 'policy', reason: WORDS })).result.category).toBe('policy');
    const bare = await ingest();
    expect((await gate.rpc(reviewer.key, 'gv.reject', { artifact_id: bare.artifact_id, reason: WORDS })).error).toBeUndefined();
    const demoted = await ingest();
    await gate.readBody(reviewer.key, demoted.artifact_id);
    expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: demoted.artifact_id })).result.state).toBe('ACTIVE');
    expect((await gate.rpc(reviewer.key, 'gv.demote', { artifact_id: demoted.artifact_id, reason: WORDS })).result.state).toBe('DEMOTED');

    for (const [id, reason] of [[categorised.artifact_id, 'policy'], [bare.artifact_id, 'rejected'], [demoted.artifact_id, 'demoted']] as const) {
      const [status, , node, , approved] = await answersOf(id);
      expect(status!.result.reason, id).toBe(reason);
      expect(node!.result.status.reason, id).toBe(reason);
      expect(approved!.result.reason, id).toBe(reason);
      for (const answer of await answersOf(id)) {
        expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
        expect(JSON.stringify(answer)).not.toContain('zebra tally');
      }
    }
    const events = await gate.rpc(reviewer.key, 'gv.events', { types: ['reject', 'demote'], limit: 1000 });
    expect(JSON.stringify(events.result)).not.toContain('zebra tally');
    // The words are not lost: the journal keeps them as the event's words, beside its closed reason.
    const db = new Database(join(gate.home, 'gate.db'), { readonly: true });
    try {
      const data = (db.prepare("SELECT body FROM journal WHERE type IN ('reject', 'demote') ORDER BY seq").all() as Array<{ body: string }>)
        .map((r) => JSON.parse(r.body).data)
        .filter((d) => [categorised.artifact_id, bare.artifact_id, demoted.artifact_id].includes(d.artifact_id));
      expect(data.map((d) => [d.artifact_id, d.reason ?? null, d.words])).toEqual([
        [categorised.artifact_id, 'policy', WORDS],
        [bare.artifact_id, 'rejected', WORDS],
        [demoted.artifact_id, null, WORDS],
      ]);
    } finally {
      db.close();
    }
  });
});
