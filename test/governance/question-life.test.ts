import { beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedInPerson } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { asker, other, reviewer } } = useGate({ kind: 'in-process', keys: { asker: 'agent', other: 'agent', reviewer: 'reviewer' } });
let ada: SignedInPerson;

beforeAll(async () => {
  ada = await signIn(gate, { role: 'reviewer', name: 'Ada Lovelace', email: `ada.l.${Date.now()}@example.test` });
});

const question = (text: string, names?: string[]) => ({
  content: JSON.stringify({ format: 'question/1', question: text }),
  workarea: 'tests/questions',
  kind: 'question',
  source_uri: 'test://questions',
  addressed_to: { kinds: ['person'], ...(names === undefined ? {} : { names }) },
});
const answer = (questionId: string, text: string, extra: Record<string, unknown> = {}, derives: string[] = []) => ({
  content: JSON.stringify({ format: 'answer/1', answer: text, ...extra }),
  workarea: 'tests/answers',
  kind: 'answer',
  source_uri: 'test://answers',
  derives_from: [questionId, ...derives],
});
const promote = async (id: string) => {
  await gate.readBody(reviewer.key, id);
  const r = await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id });
  expect(r.result?.state, JSON.stringify(r.error)).toBe('ACTIVE');
};

describe('a question answered by a person, end to end', () => {
  it('ask, promote, route to people, find it named first, answer signed in, promote the answer, the asker reads it', async () => {
    const stamp = Date.now().toString(36);
    // An earlier open question naming nobody, so "named first" is an ordering and not the only entry.
    const unnamed = (await gate.rpc(other.key, 'gv.ingest', question(`Which dock reopens first ${stamp}?`))).result.artifact_id as string;
    await promote(unnamed);

    const asked = await gate.rpc(asker.key, 'gv.ingest', question(`Is the west wing lease renewed for 2027 ${stamp}?`, ['ada-lovelace']));
    expect(asked.result).toMatchObject({ state: 'L1_SCANNED', kind: 'question' });
    const q = asked.result.artifact_id as string;
    // Held: its asker reads the state, nobody below reviewer learns it exists.
    expect((await gate.rpc(asker.key, 'gv.question', { question: q })).result).toMatchObject({ question: q, state: 'held', reason: null, answers: [], person_answer: null });
    expect((await gate.rpc(other.key, 'gv.question', { question: q })).error).toEqual({ code: -32602, message: `unknown artifact: ${q.slice(0, 16)}` });

    await promote(q);
    const routed = await gate.rpc(asker.key, 'gv.question', { question: q });
    expect(routed.result).toEqual({
      question: q,
      state: 'with_people',
      reason: 'no_crew',
      crew: null,
      wait_minutes: 10080,
      minutes_left: 10080,
      answers: [],
      person_answer: null,
    });
    // The route comes from the served question-routed event, signed by the deployment, in closed words.
    const events = await gate.rpc(other.key, 'gv.events', { types: ['question-routed'], limit: 1000 });
    expect(events.result.events.find((e: any) => e.artifact_id === q)).toMatchObject({
      type: 'question-routed',
      object: 'row',
      by: null,
      route: 'with_people',
      reason: 'no_crew',
      wait_minutes: 10080,
    });

    // The person finds it in the review queue, named first.
    const queue = await gate.rpc(ada.accessToken, 'gv.review', {});
    const open = queue.result.questions as any[];
    expect(open[0]).toMatchObject({ question: q, named: true, reason: 'no_crew', asker: asker.identity, addressed_to: { kinds: ['person'], names: ['ada-lovelace'] } });
    expect(JSON.parse(open[0].body).question).toContain('west wing lease');
    expect(open.find((o) => o.question === unnamed)).toMatchObject({ named: false });
    expect(queue.result.questions_truncated).toBe(false);
    // A program reviewer sees the same list, no question naming it.
    expect(((await gate.rpc(reviewer.key, 'gv.review', {})).result.questions as any[]).every((o) => o.named === false)).toBe(true);

    const answered = await gate.rpc(ada.accessToken, 'gv.ingest', answer(q, `Yes: renewed through 2027, signed ${stamp}.`));
    expect(answered.result).toMatchObject({ state: 'L1_SCANNED', kind: 'answer' });
    const a = answered.result.artifact_id as string;
    // Held, the answer changes nothing for the asker.
    expect((await gate.rpc(asker.key, 'gv.question', { question: q })).result).toMatchObject({ state: 'with_people', answers: [], person_answer: null });

    await promote(a);
    const done = await gate.rpc(asker.key, 'gv.question', { question: q });
    const served = { artifact_id: a, body: JSON.stringify({ format: 'answer/1', answer: `Yes: renewed through 2027, signed ${stamp}.` }), space: 'main', promoted_at: expect.any(Number) };
    expect(done.result).toEqual({ question: q, state: 'answered', reason: null, crew: null, wait_minutes: null, minutes_left: null, answers: [served], person_answer: served });
    // referral is served to a person alone.
    expect('referral' in done.result).toBe(false);
    expect((await gate.rpc(ada.accessToken, 'gv.question', { question: q })).result).toMatchObject({ state: 'answered', referral: null });
    // The asker also meets the answer through recall.
    const recall = await gate.rpc(asker.key, 'gv.recall', { query: `renewed 2027 ${stamp}`, mode: 'lexical' });
    expect(recall.result.hits.map((h: any) => h.artifact_id)).toContain(a);
    // Answered, it is no longer open for people.
    expect(((await gate.rpc(ada.accessToken, 'gv.review', {})).result.questions as any[]).map((o) => o.question)).not.toContain(q);
    // gv.question reads questions only.
    expect((await gate.rpc(asker.key, 'gv.question', { question: a })).error).toMatchObject({ code: -32602, data: { field: 'question' } });
  });
});
