import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

type Key = { key: string; identity: string };
const { gate, keys: { asker, answerer, reviewer }, ingestId } = useGate({ kind: 'unit', keys: { asker: 'agent', answerer: 'agent', reviewer: 'reviewer' } });

const ids: Record<string, string> = {};

const ingest = (who: Key, params: Record<string, unknown>) => ingestId(who, { source_uri: 'test://work', ...params });
const promote = async (id: string) => {
  await gate.readBody(reviewer.key, id);
  const r = await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id });
  if (r.error) throw new Error(`promote: ${r.error.message}`);
};
const work = async (who: Key, params: Record<string, unknown> = {}) => {
  const r = await gate.rpc(who.key, 'gv.work', params);
  if (r.error) throw new Error(`gv.work: ${r.error.message}`);
  return r.result;
};

beforeAll(async () => {
  ids.first = await ingest(asker, { content: uniqueText('first'), workarea: 'work/a', kind: 'memory' });
  ids.second = await ingest(asker, { content: uniqueText('second'), workarea: 'work/a', kind: 'memory' });
  ids.done = await ingest(asker, { content: uniqueText('done'), workarea: 'work/done', kind: 'memory' });
  await promote(ids.done);
  expect((await gate.rpc(asker.key, 'gv.complete', { workarea: 'work/done' })).error).toBeUndefined();
  ids.question = await ingest(asker, {
    content: JSON.stringify({ format: 'question/1', question: `Which Node do builds use? ${uniqueText('q')}` }),
    workarea: 'work/q',
    kind: 'question',
    addressed_to: { kinds: ['person'] },
  });
  await promote(ids.question);
  ids.answer = await ingest(answerer, {
    content: JSON.stringify({ format: 'answer/1', answer: `Node 20. ${uniqueText('a')}` }),
    workarea: 'work/answers',
    kind: 'answer',
    derives_from: [ids.question],
  });
  await promote(ids.answer);
});

describe('gv.work', () => {
  it("answers the caller's part of each area it wrote into, open ones first", async () => {
    const mine = await work(asker);
    expect(mine.identity).toBe(asker.identity);
    const areas = Object.fromEntries(mine.areas.map((a: { workarea: string }) => [a.workarea, a]));
    expect(Object.keys(areas).sort()).toEqual(['work/a', 'work/done', 'work/q']);
    expect(areas['work/a']).toMatchObject({ space: 'main', state: 'open', rows: 2, waiting: 2 });
    expect(areas['work/done']).toMatchObject({ state: 'complete', rows: 1, waiting: 0 });
    expect(areas['work/done'].completed_at).toBeGreaterThan(0);
    expect(mine.areas.at(-1).workarea).toBe('work/done');
    expect(mine.areas_truncated).toBe(false);
  });

  it('lists its rows waiting for review with what each waits for, as gv.approval says', async () => {
    const mine = await work(asker);
    expect(mine.held.map((h: { artifact_id: string }) => h.artifact_id)).toEqual([ids.first, ids.second]);
    for (const h of mine.held) {
      const approval = (await gate.rpc(asker.key, 'gv.approval', { artifact_id: h.artifact_id })).result;
      expect(h.waits_for).toEqual({ blocker: approval.waits_for.blocker, code: approval.waits_for.code, words: approval.waits_for.words });
      expect(h).toMatchObject({ state: 'L1_SCANNED', workarea: 'work/a', kind: 'memory', trust_class: 'T-1' });
    }
  });

  it('lists the questions it asked with how many promoted answers each has', async () => {
    const mine = await work(asker);
    expect(mine.questions).toEqual([expect.objectContaining({ artifact_id: ids.question, state: 'ACTIVE', workarea: 'work/q', answers: 1 })]);
  });

  it("is the caller's own only: another agent sees its own work, never the asker's", async () => {
    const theirs = await work(answerer);
    expect(theirs.areas.map((a: { workarea: string }) => a.workarea)).toEqual(['work/answers']);
    expect(theirs.held).toEqual([]);
    expect(theirs.questions).toEqual([]);
    expect(JSON.stringify(theirs)).not.toContain(ids.first);
  });

  it('pages by limit and narrows by space', async () => {
    const page = await work(asker, { limit: 1 });
    expect([page.areas.length, page.held.length, page.areas_truncated, page.held_truncated]).toEqual([1, 1, true, true]);
    await gate.socket('gv.space_create', { name: 'elsewhere', policy: 'auto' });
    const elsewhere = await work(asker, { space: 'elsewhere' });
    expect([elsewhere.areas, elsewhere.held, elsewhere.questions]).toEqual([[], [], []]);
    expect((await gate.rpc(asker.key, 'gv.work', { space: 'nowhere' })).error?.data?.spaces).toContain('elsewhere');
    expect((await gate.rpc(asker.key, 'gv.work', { limit: 201 })).error?.data?.field).toBe('limit');
  });

  it('is for writers: a reader is refused naming both roles', async () => {
    const reader = await gate.key('reader');
    expect((await gate.rpc(reader.key, 'gv.work', {})).error?.data).toEqual({ required: 'agent', role: 'reader' });
  });
});
