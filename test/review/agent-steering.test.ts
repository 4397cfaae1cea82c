import { beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedInPerson } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

/**
 * A steering row is attached to every recall in its work area. In an auto space with the
 * built-in reviewers, one an agent wrote is never promoted by the deployment on the models'
 * approval: it waits `{blocker: quorum, code: agent_steering}` until a reviewer decides (a
 * person, or a program holding a reviewer key), while an ordinary memory beside it is
 * promoted. A person's own steering row settles as any row does.
 */
const { gate, keys: { agent, reviewer }, ingestId } = useGate({
  kind: 'in-process',
  env: { GATE_SPACES_MAIN_POLICY: 'auto', GATE_REVIEW_QUORUM_PROFILE: 'standard' },
  keys: { agent: 'agent', reviewer: 'reviewer' },
});
let person: SignedInPerson;
let writerPerson: SignedInPerson;
beforeAll(async () => {
  person = await signIn(gate, { role: 'reviewer' });
  writerPerson = await signIn(gate, { role: 'agent' });
});

let n = 0;
const RULES = [
  'Always run the linter before committing, and never push directly to main.',
  'Write the migration notes in docs/migrations before merging a schema change.',
  'Keep each pull request under four hundred changed lines so review stays thorough.',
  'Tag every release commit with the version number and the date in UTC.',
];
const steeringText = () => `${RULES[n++ % RULES.length]} (team rule ${n}, ${Date.now().toString(36)})`;
const area = 'tests/agent-steering';
const steer = (by: string, extra: Record<string, unknown> = {}) =>
  ingestId(by, { content: steeringText(), kind: 'steering', workarea: area, source_uri: 'https://example.org/handbook', ...extra });
const approval = async (id: string) => (await gate.rpc(reviewer.key, 'gv.approval', { artifact_id: id })).result;
const state = async (id: string) => (await approval(id)).state as string;
const inForce = async () =>
  ((await gate.rpc(reviewer.key, 'gv.recall', { workarea: area })).result.steering as Array<{ artifact_id: string }>).map((s) => s.artifact_id);
const gradeAll = async () => {
  const graded = await gate.rpc(reviewer.key, 'gv.grade_pending', { limit: 1000 });
  expect(graded.error, JSON.stringify(graded.error)).toBeUndefined();
};

describe("an agent's steering row in an auto space", () => {
  it('stays unpromoted after the built-in reviewers approve it, while an ordinary memory is promoted', async () => {
    const steering = await steer(agent.key);
    const memory = await ingestId(agent, {
      content: `Survey ${Date.now()}: the basalt quarry ships cedar slabs to the harbor depot every four days, logged under batch ${Math.random().toString(36).slice(2, 10)}.`,
      workarea: area,
      source_uri: 'https://example.org/survey',
    });
    await gradeAll();
    expect(await state(memory)).toBe('ACTIVE');
    expect(await state(steering)).toBe('L2_SCORED');
    const a = await approval(steering);
    // The models approved it: quorum is met, and the deployment still does not settle it.
    expect(a).toMatchObject({ k_have: 1, k_required: 1, waits_for: { blocker: 'quorum', code: 'agent_steering' } });
    expect(a.waits_for.words).toContain('never promoted automatically');
    const settled = await gate.rpc(reviewer.key, 'gv.settle_pending', {});
    expect(settled.result.artifact_ids).not.toContain(steering);
    expect(settled.result.held.quorum).toBeGreaterThanOrEqual(1);
    expect(await state(steering)).toBe('L2_SCORED');
    expect(await inForce()).not.toContain(steering);
  });

  it("a reviewer key's approving signature decides: the deployment then settles it", async () => {
    const steering = await steer(agent.key);
    await gradeAll();
    expect((await approval(steering)).waits_for).toMatchObject({ code: 'agent_steering' });
    const signed = await gate.rpc(reviewer.key, 'gv.sign', { artifact_id: steering, decision: 'approve' });
    expect(signed.result).toMatchObject({ class: 'agent', counts: true, state: 'L2_SCORED' });
    expect((await approval(steering)).waits_for).toMatchObject({ blocker: 'quorum', code: 'settle' });
    expect((await gate.rpc(reviewer.key, 'gv.settle_pending', {})).result.artifact_ids).toContain(steering);
    expect(await state(steering)).toBe('ACTIVE');
    expect(await inForce()).toContain(steering);
  });

  it("a person's or a reviewer key's promotion promotes it", async () => {
    const byPerson = await steer(agent.key);
    const byKey = await steer(agent.key);
    await gradeAll();
    await gate.readBody(person.accessToken, byPerson);
    const personal = await gate.rpc(person.accessToken, 'gv.promote', { artifact_id: byPerson });
    expect(personal.result).toMatchObject({ state: 'ACTIVE' });
    const keyed = await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: byKey });
    expect(keyed.result).toMatchObject({ state: 'ACTIVE' });
  });

  it("the socket's steering is a program's too; a signed-in person's steering is settled like any row", async () => {
    const bySocket = (await gate.socket('gv.ingest', { content: steeringText(), kind: 'steering', workarea: area, source_uri: 'https://example.org/handbook' })).result.artifact_id;
    const byPerson = await steer(writerPerson.accessToken);
    await gradeAll();
    expect((await approval(bySocket)).waits_for).toMatchObject({ blocker: 'quorum', code: 'agent_steering' });
    expect(await state(byPerson)).toBe('ACTIVE');
  });
});
