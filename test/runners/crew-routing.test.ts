import { describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { signIn } from '../harness/sign-in.js';
import { crewSettings, hello, makeCrew, makeRunner, newInstance, readWhole, type Crew } from '../harness/crews.js';
import { useGate } from '../harness/use-gate.js';
import { crewQuestionsMoved } from '../../dist/src/questions/crew-moves.js';

const MINUTE = 60_000;
const { gate: server, keys: { reviewer, asker } } = useGate({
  kind: 'in-process',
  settings: crewSettings({ 'questions.people_wait_minutes': 120, 'runners.wait_minutes': 60, 'runners.gone_seconds': 300 }),
  keys: { reviewer: 'reviewer', asker: 'agent' },
});

interface Hosted {
  crew: Crew;
  runner: { key: string; keyId: string };
  instance: string;
  members: Array<{ slot: string; role: string; key: string }>;
}

/** A crew assigned to a runner that said hello and took its keys. */
async function hostedCrew(sheet: Record<string, unknown> = {}, space?: string): Promise<Hosted> {
  const crew = await makeCrew(server, sheet, space);
  const runner = await makeRunner(server);
  expect((await server.socket('gv.runner_assign', { space: crew.space, runner: runner.keyId })).error).toBeUndefined();
  const instance = newInstance();
  await sayHello(runner.key, instance);
  const keys = await server.rpc(runner.key, 'gv.runner_keys', { space: crew.space });
  return { crew, runner, instance, members: keys.result.members };
}

async function sayHello(key: string, instance: string, fields: Record<string, unknown> = {}) {
  server.clock.advance(1001);
  const answer = await server.rpc(key, 'gv.runner_hello', hello({ instance, ...fields }));
  expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  return answer.result;
}

async function grant(identity: string, space: string, capabilities = ['read', 'contribute']) {
  await server.socket('gv.grant', { action: 'issue', grants: [{ principal: identity, space, capabilities }] });
}

async function promote(id: string) {
  await readWhole(server, reviewer.key, id);
  const promoted = await server.rpc(reviewer.key, 'gv.promote', { artifact_id: id });
  expect(promoted.result?.state, JSON.stringify(promoted.error)).toBe('ACTIVE');
}

async function ask(space: string, words = uniqueText('which node'), extra: Record<string, unknown> = {}) {
  await grant(asker.identity, space);
  const q = await server.rpc(asker.key, 'gv.ingest', {
    space,
    workarea: 'asks/here',
    kind: 'question',
    source_uri: 'test://ask',
    addressed_to: { kinds: ['person'] },
    content: JSON.stringify({ format: 'question/1', question: words }),
    producer: { name: 'planner', kind: 'agent' },
    ...extra,
  });
  expect(q.error, JSON.stringify(q.error)).toBeUndefined();
  await promote(q.result.artifact_id);
  return q.result.artifact_id as string;
}

const answer = (key: string, space: string, question: string, body: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
  server.rpc(key, 'gv.ingest', {
    space,
    workarea: 'answers/here',
    kind: 'answer',
    source_uri: 'test://answer',
    content: JSON.stringify({ format: 'answer/1', answer: uniqueText('it is Node 20'), ...body }),
    derives_from: [question],
    ...extra,
  });

const questionOf = async (q: string, key = asker.key) => (await server.rpc(key, 'gv.question', { question: q })).result;

describe('routing to crews', () => {
  it('a question in a crew’s space goes with_crew for the sheet’s wait; gv.routed_questions serves it to a member key', async () => {
    const h = await hostedCrew({ wait_minutes: 45, instructions: 'Answer from the build files.' });
    const q = await ask(h.crew.space);
    expect(await questionOf(q)).toMatchObject({ state: 'with_crew', reason: null, crew: h.crew.space, wait_minutes: 45, minutes_left: 45 });
    expect(server.journal('question-routed').at(-1)!.data).toMatchObject({ artifact_id: q, route: 'with_crew', crew: h.crew.space, wait_minutes: 45 });
    const routed = (await server.rpc(h.members[1]!.key, 'gv.routed_questions', { space: h.crew.space })).result;
    expect(routed).toMatchObject({ space: h.crew.space, truncated: false });
    expect(routed.questions).toEqual([
      {
        question: q,
        body: expect.stringContaining('question/1'),
        space: h.crew.space,
        asker: { producer: { name: 'planner', kind: 'agent' }, role: 'agent' },
        promoted_at: expect.any(Number),
        wait_minutes: 45,
        minutes_left: 45,
        brief: expect.stringContaining('Answers questions about'),
        sheet: h.crew.sheetId,
        instructions: 'Answer from the build files.',
        citations: [],
      },
    ]);
    // The hello tells the runner which questions wait for its crew.
    const said = await sayHello(h.runner.key, h.instance);
    expect(said.questions).toEqual([{ space: h.crew.space, asked: [], routed: [q], truncated: false }]);
    expect((await server.socket('gv.runners', { runner: h.runner.keyId })).result.runners[0]).toMatchObject({
      questions_in_flight: 1,
      assignments: [{ space: h.crew.space, questions_in_flight: 1 }],
    });
  });

  it('gv.routed_questions: anyone but a member key, or a person reviewing who reads the space, is not_the_answering_crew', async () => {
    const h = await hostedCrew();
    const other = await hostedCrew();
    const refused = async (key: string) => (await server.rpc(key, 'gv.routed_questions', { space: h.crew.space })).error?.data;
    expect(await refused(asker.key)).toEqual({ reason: 'not_the_answering_crew' });
    expect(await refused(reviewer.key)).toEqual({ reason: 'not_the_answering_crew' });
    expect(await refused(other.members[0]!.key)).toEqual({ reason: 'not_the_answering_crew' });
    const person = await signIn(server, { role: 'reviewer' });
    expect((await server.rpc(person.accessToken, 'gv.routed_questions', { space: h.crew.space })).error?.data).toEqual({ reason: 'not_the_answering_crew' });
    await grant(person.identity, h.crew.space, ['read']);
    expect((await server.rpc(person.accessToken, 'gv.routed_questions', { space: h.crew.space })).result.questions).toEqual([]);
    // A revoked member key (a reassignment) reads nothing any more.
    await server.socket('gv.runner_assign', { space: h.crew.space, runner: h.runner.keyId, reissue: true });
    expect((await server.rpc(h.members[0]!.key, 'gv.routed_questions', { space: h.crew.space })).error).toBeDefined();
  });

  it('while with the crew only its member keys answer, as one answerer; served, the crew’s answer answers the question', async () => {
    const h = await hostedCrew();
    const q = await ask(h.crew.space);
    expect((await answer(asker.key, h.crew.space, q)).error?.data).toEqual({ reason: 'not_the_answering_crew', field: 'derives_from' });
    const given = await answer(h.members[0]!.key, h.crew.space, q);
    expect(given.error, JSON.stringify(given.error)).toBeUndefined();
    // Another member of the same crew: the crew's answer already stands.
    expect((await answer(h.members[1]!.key, h.crew.space, q)).error?.data).toMatchObject({ field: 'content', standing: given.result.artifact_id });
    expect((await server.rpc(h.members[0]!.key, 'gv.routed_questions', { space: h.crew.space })).result.questions).toEqual([]);
    expect((await questionOf(q)).state).toBe('with_crew');
    await promote(given.result.artifact_id);
    expect(server.journal('question-answered-by-crew').at(-1)!.data).toMatchObject({ artifact_id: q, crew: h.crew.space, answer: given.result.artifact_id });
    const read = await questionOf(q);
    expect(read).toMatchObject({ state: 'answered', person_answer: null });
    expect(read.answers.map((a: { artifact_id: string }) => a.artifact_id)).toEqual([given.result.artifact_id]);
  });

  it('the crew refers a question: it goes with_people, reason referred; a person reads the referral, an agent does not', async () => {
    const h = await hostedCrew();
    const q = await ask(h.crew.space);
    expect((await answer(asker.key, h.crew.space, q, { refer: true })).error?.data?.reason).toBe('not_the_answering_crew');
    const referral = await answer(h.members[2]!.key, h.crew.space, q, { answer: 'A person who ran the last release should say.', refer: true });
    expect(referral.error, JSON.stringify(referral.error)).toBeUndefined();
    const read = await questionOf(q);
    expect(read).toMatchObject({ state: 'with_people', reason: 'referred', crew: null, wait_minutes: 120 });
    expect(read).not.toHaveProperty('referral');
    const person = await signIn(server, { role: 'reviewer' });
    expect((await server.rpc(person.accessToken, 'gv.question', { question: q })).result.referral).toEqual({
      artifact_id: referral.result.artifact_id,
      crew: h.crew.space,
      slot: h.members[2]!.slot,
      words: 'A person who ran the last release should say.',
    });
    // A referral is never served as an answer, even promoted.
    await promote(referral.result.artifact_id);
    expect((await questionOf(q)).answers).toEqual([]);
    // Gone to people, a referral by anyone is refused.
    expect((await answer(h.members[0]!.key, h.crew.space, q, { refer: true })).error?.data?.reason).toBe('not_the_answering_crew');
  });

  it('the crew’s wait runs out on the gate’s clock: with_people, reason wait_over, the people’s wait from then', async () => {
    const h = await hostedCrew({ wait_minutes: 5 });
    const q = await ask(h.crew.space);
    server.clock.advance(4 * MINUTE);
    await sayHello(h.runner.key, h.instance);
    await crewQuestionsMoved(server.gate);
    expect(await questionOf(q)).toMatchObject({ state: 'with_crew', minutes_left: 1 });
    server.clock.advance(MINUTE);
    await sayHello(h.runner.key, h.instance);
    expect((await crewQuestionsMoved(server.gate)).wait_over).toBeGreaterThanOrEqual(1);
    expect(await questionOf(q)).toMatchObject({ state: 'with_people', reason: 'wait_over', crew: null, wait_minutes: 120, minutes_left: 120 });
    expect(server.journal('question-wait-over').at(-1)!.data).toMatchObject({ artifact_id: q, from: 'with_crew', to: 'with_people', wait_minutes: 120 });
    // With people now: anyone may answer again.
    expect((await answer(asker.key, h.crew.space, q)).error).toBeUndefined();
  });

  it('a crew whose runner falls silent is gone: what it holds goes to people, and the next question too (crew_gone)', async () => {
    const h = await hostedCrew();
    const q = await ask(h.crew.space);
    server.clock.advance(301_000);
    expect((await crewQuestionsMoved(server.gate)).crew_gone).toBeGreaterThanOrEqual(1);
    expect(await questionOf(q)).toMatchObject({ state: 'with_people', reason: 'crew_gone' });
    const next = await ask(h.crew.space);
    expect(await questionOf(next)).toMatchObject({ state: 'with_people', reason: 'crew_gone', crew: null });
    // Heard again, the crew takes the next one.
    await sayHello(h.runner.key, h.instance);
    expect(await questionOf(await ask(h.crew.space))).toMatchObject({ state: 'with_crew', crew: h.crew.space });
  });

  it('no crew: a space without a sheet, or a crew no runner hosts, routes to people with no_crew', async () => {
    expect(await questionOf(await ask('main'))).toMatchObject({ state: 'with_people', reason: 'no_crew' });
    const unhosted = await makeCrew(server);
    expect(await questionOf(await ask(unhosted.space))).toMatchObject({ state: 'with_people', reason: 'no_crew' });
  });

  it('a space whose sheet names an answering crew sends its questions there; the crew may cite what the question cites, nothing else', async () => {
    const h = await hostedCrew();
    const asking = await makeCrew(server, { answering: h.crew.space });
    await grant(asker.identity, asking.space);
    const claim = await server.rpc(asker.key, 'gv.ingest', { space: asking.space, workarea: 'asks/here', kind: 'memory', source_uri: 's', content: uniqueText('the build pins node') });
    await promote(claim.result.artifact_id);
    const stranger = await server.rpc(asker.key, 'gv.ingest', { space: asking.space, workarea: 'asks/here', kind: 'memory', source_uri: 's', content: uniqueText('unrelated') });
    await promote(stranger.result.artifact_id);
    const q = await ask(asking.space, uniqueText('which node'), { derives_from: [claim.result.artifact_id] });
    expect(await questionOf(q)).toMatchObject({ state: 'with_crew', crew: h.crew.space });
    const routed = (await server.rpc(h.members[0]!.key, 'gv.routed_questions', { space: h.crew.space })).result.questions;
    expect(routed.map((r: { question: string }) => r.question)).toEqual([q]);
    expect(routed[0].citations).toEqual([{ artifact_id: claim.result.artifact_id, body: expect.stringContaining('the build pins node') }]);
    // The member key has no grant on the asking space: the question, its citation and its charter (the sheet) are the exceptions.
    const member = h.members[0]!.key;
    expect((await server.rpc(member, 'gv.node', { artifact_id: claim.result.artifact_id })).error?.message).toContain('unknown artifact');
    const beyond = await answer(member, h.crew.space, q, {}, { derives_from: [q, stranger.result.artifact_id] });
    expect(beyond.error?.message).toContain('unknown artifact');
    const cited = await answer(member, h.crew.space, q, {}, { derives_from: [q, claim.result.artifact_id, asking.sheetId] });
    expect(cited.error, JSON.stringify(cited.error)).toBeUndefined();
    await promote(cited.result.artifact_id);
    expect(await questionOf(q)).toMatchObject({ state: 'answered' });
  });

  it('the hello lists the questions the crew’s members asked, with their state', async () => {
    const h = await hostedCrew();
    await grant(`key:${(await server.rpc(h.members[0]!.key, 'gv.describe')).result.you.identity.slice(4)}`, 'main');
    const asked = await server.rpc(h.members[0]!.key, 'gv.ingest', {
      space: 'main',
      workarea: 'crew/asks',
      kind: 'question',
      source_uri: 'test://crew-asks',
      addressed_to: { kinds: ['person'] },
      content: JSON.stringify({ format: 'question/1', question: uniqueText('who owns the release') }),
    });
    const said = await sayHello(h.runner.key, h.instance);
    expect(said.questions[0].asked).toEqual([{ question: asked.result.artifact_id, slot: h.members[0]!.slot, state: 'held', reason: null }]);
    await promote(asked.result.artifact_id);
    const later = await sayHello(h.runner.key, h.instance);
    expect(later.questions[0].asked[0]).toMatchObject({ state: 'with_people', reason: 'no_crew' });
  });

  it('rebuild replays the routes, referrals and crew answers into views equal to the live ones', async () => {
    const answer = await server.socket('gv.rebuild');
    expect(answer.error?.data?.differing).toBeUndefined();
    expect(answer.result.equal).toBe(true);
  });
});
