import { describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { asker, answerer, second, reviewer } } = useGate({ kind: 'unit', keys: { asker: 'agent', answerer: 'agent', second: 'agent', reviewer: 'reviewer' } });

const ask = (who = asker, workarea = 'tests/ask', text = uniqueText('question')) =>
  gate.rpc(who.key, 'gv.ingest', {
    content: JSON.stringify({ format: 'question/1', question: text }),
    workarea,
    kind: 'question',
    source_uri: 'test://q',
    addressed_to: { kinds: ['person'] },
  });
const answer = (who: { key: string }, q: string, extra: Record<string, unknown> = {}, more: string[] = [], text = uniqueText('answer')) =>
  gate.rpc(who.key, 'gv.ingest', {
    content: JSON.stringify({ format: 'answer/1', answer: text, ...extra }),
    workarea: 'tests/answer',
    kind: 'answer',
    source_uri: 'test://a',
    derives_from: [q, ...more],
  });
const promote = async (id: string) => {
  await gate.readBody(reviewer.key, id);
  expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id })).result.state).toBe('ACTIVE');
};
const promotedQuestion = async () => {
  const q = (await ask()).result.artifact_id as string;
  await promote(q);
  return q;
};

describe('the answer rules of gv.ingest', () => {
  it('the question is named first in derives_from, and the body is answer/1', async () => {
    const q = await promotedQuestion();
    const memory = (await gate.rpc(answerer.key, 'gv.ingest', { content: uniqueText('a memory'), workarea: 'tests/m', kind: 'memory', source_uri: 'test://m' })).result.artifact_id;
    await promote(memory);
    expect((await answer(answerer, memory, {}, [q])).error).toMatchObject({ code: -32602, message: 'an answer names its question first in derives_from', data: { field: 'derives_from' } });
    const noParents = await gate.rpc(answerer.key, 'gv.ingest', { content: JSON.stringify({ format: 'answer/1', answer: 'x' }), workarea: 'tests/answer', kind: 'answer', source_uri: 'test://a' });
    expect(noParents.error).toMatchObject({ code: -32602, data: { field: 'derives_from' } });
    const broken = await gate.rpc(answerer.key, 'gv.ingest', { content: JSON.stringify({ format: 'answer/2', answer: 'x' }), workarea: 'tests/answer', kind: 'answer', source_uri: 'test://a', derives_from: [q] });
    expect(broken.error).toMatchObject({ code: -32602, data: { field: 'content' } });
    expect(broken.error.message).toMatch(/^an answer body must be answer\/1/);
    const notListed = await answer(answerer, q, { replaces: memory });
    expect(notListed.error).toMatchObject({ code: -32602, message: 'replaces must also be named in derives_from', data: { field: 'replaces' } });
  });

  it('refused while the question is held (unknown below reviewer to anyone but its asker) and once it is ended', async () => {
    const held = (await ask()).result.artifact_id as string;
    expect((await answer(answerer, held)).error).toEqual({ code: -32602, message: `unknown artifact: ${held.slice(0, 16)}` });
    expect((await answer(reviewer, held)).error).toMatchObject({ code: -32602, data: { question_state: 'held', field: 'derives_from' } });
    expect((await answer(asker, held)).error).toMatchObject({ data: { question_state: 'held' } });
    await gate.rpc(reviewer.key, 'gv.reject', { artifact_id: held, reason: 'not a question for us' });
    expect((await answer(reviewer, held)).error).toMatchObject({ data: { question_state: 'ended', ended: 'not_served' } });
  });

  it('one standing answer per answerer unless replaces names it; cancels withdraws one', async () => {
    const q = await promotedQuestion();
    const first = (await answer(answerer, q)).result.artifact_id as string;
    // Re-sending the same bytes is the duplicate rule's, not a second answer.
    const sameText = uniqueText('resent');
    const resent = (await answer(second, q, {}, [], sameText)).result;
    expect((await answer(second, q, {}, [], sameText)).result).toMatchObject({ artifact_id: resent.artifact_id, duplicate: true });
    const again = await answer(answerer, q);
    expect(again.error).toMatchObject({ code: -32602, data: { field: 'content', standing: first } });
    // replaces must name the answerer's own standing answer, not another's (here served, so readable).
    await promote(resent.artifact_id);
    expect((await answer(answerer, q, { replaces: resent.artifact_id }, [resent.artifact_id])).error).toMatchObject({ data: { field: 'replaces' } });
    const replacing = await answer(answerer, q, { replaces: first }, [first]);
    expect(replacing.result.state).toBe('L1_SCANNED');
    // The replaced answer no longer stands: naming it again is refused, a second plain answer too.
    expect((await answer(answerer, q, { replaces: first }, [first])).error).toMatchObject({ data: { field: 'replaces' } });
    expect((await answer(answerer, q)).error).toMatchObject({ data: { standing: replacing.result.artifact_id } });
    // cancels withdraws the standing one; then a fresh answer stands again.
    expect((await answer(answerer, q, { cancels: first }, [first])).error).toMatchObject({ data: { field: 'cancels' } });
    const cancelled = await answer(answerer, q, { cancels: replacing.result.artifact_id }, [replacing.result.artifact_id]);
    expect(cancelled.result.state).toBe('L1_SCANNED');
    expect((await answer(answerer, q)).result.state).toBe('L1_SCANNED');
    expect((await answer(answerer, q, { replaces: first, cancels: first }, [first])).error).toMatchObject({ message: 'an answer replaces or cancels, not both' });
  });

  it('a withdrawn or replaced answer is not served; a promoted replacement is', async () => {
    const q = await promotedQuestion();
    const first = (await answer(answerer, q)).result.artifact_id as string;
    await promote(first);
    expect((await gate.rpc(asker.key, 'gv.question', { question: q })).result.answers.map((a: any) => a.artifact_id)).toEqual([first]);
    // An answer by a program is served but does not make the question answered: that takes a person.
    expect((await gate.rpc(asker.key, 'gv.question', { question: q })).result).toMatchObject({ state: 'with_people', person_answer: null });
    const replacement = (await answer(answerer, q, { replaces: first }, [first])).result.artifact_id as string;
    // Held, the replacement leaves the served answer in place.
    expect((await gate.rpc(asker.key, 'gv.question', { question: q })).result.answers.map((a: any) => a.artifact_id)).toEqual([first]);
    await promote(replacement);
    expect((await gate.rpc(asker.key, 'gv.question', { question: q })).result.answers.map((a: any) => a.artifact_id)).toEqual([replacement]);
    const withdrawal = (await answer(answerer, q, { cancels: replacement }, [replacement])).result.artifact_id as string;
    // Withdrawn from the withdrawal's ingest on, before any review of it.
    expect((await gate.rpc(asker.key, 'gv.question', { question: q })).result.answers).toEqual([]);
    await promote(withdrawal);
    expect((await gate.rpc(asker.key, 'gv.question', { question: q })).result.answers).toEqual([]);
  });

  it('the asker ends its question with an answer/1 cancelling it; nobody else may; an ended question takes no answer', async () => {
    const q = await promotedQuestion();
    expect((await answer(answerer, q, { cancels: q })).error).toMatchObject({ code: -32602, data: { field: 'cancels' } });
    expect((await answer(asker, q, { cancels: q })).result.state).toBe('L1_SCANNED');
    expect((await gate.rpc(asker.key, 'gv.question', { question: q })).result).toMatchObject({ state: 'ended', reason: 'cancelled', minutes_left: null });
    expect((await answer(answerer, q)).error).toMatchObject({ code: -32602, data: { question_state: 'ended', ended: 'cancelled' } });
    expect((await answer(asker, q, { cancels: q }, [], uniqueText('again'))).error).toMatchObject({ data: { question_state: 'ended' } });
  });

  it('at most 8 questions per writer per work area (question_limit); another area or writer is counted apart', async () => {
    const area = `tests/limit-${Date.now().toString(36)}`;
    for (let i = 0; i < 8; i++) expect((await ask(asker, area)).result.state).toBe('L1_SCANNED');
    expect((await ask(asker, area)).error).toMatchObject({ code: -32602, data: { reason: 'question_limit' } });
    expect((await ask(asker, `${area}-b`)).result.state).toBe('L1_SCANNED');
    expect((await ask(second, area)).result.state).toBe('L1_SCANNED');
  });

  it("an erased answer's words are not served by gv.question, though another answer still holds the same bytes", async () => {
    const q = await promotedQuestion();
    const words = uniqueText('shared words');
    const erased = (await answer(answerer, q, {}, [], words)).result.artifact_id as string;
    const kept = (await answer(second, q, {}, [], words)).result.artifact_id as string;
    expect(erased).not.toBe(kept);
    await promote(erased);
    await promote(kept);
    expect((await gate.socket('gv.erase', { artifact_id: erased, reason: 'personal data' })).error).toBeUndefined();
    const answers = (await gate.rpc(asker.key, 'gv.question', { question: q })).result.answers as Array<{ artifact_id: string; body: string | null }>;
    const byId = new Map(answers.map((a) => [a.artifact_id, a.body]));
    expect(byId.get(kept)).toBe(JSON.stringify({ format: 'answer/1', answer: words }));
    // Still a served answer (its existence and metadata stay), with no words.
    expect(byId.has(erased)).toBe(true);
    expect(byId.get(erased)).toBeNull();
  });
});
