import { describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent, other, reviewer } } = useGate({ kind: 'unit', keys: { agent: 'agent', other: 'agent', reviewer: 'reviewer' } });

const write = async (key: string, workarea: string, extra: Record<string, unknown> = {}) => {
  const answer = await gate.rpc(key, 'gv.ingest', { content: uniqueText('workarea'), workarea, kind: 'memory', source_uri: 'test://workarea', ...extra });
  expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  return answer.result;
};
const promote = async (id: string) => {
  await gate.readBody(reviewer.key, id);
  return gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id });
};
const ids = (rows: Array<{ artifact_id: string }>) => rows.map((r) => r.artifact_id).sort();

describe('gv.workarea', () => {
  it("answers the caller's rows with states, the promoted rows and counts, metadata only; never another's held row", async () => {
    const secretWords = 'the body of a claim never leaves in this answer';
    const mineHeld = await write(agent.key, 'wa/one', { content: `${secretWords} ${Date.now()}`, producer: { name: 'builder', kind: 'agent' } });
    const minePromoted = await write(agent.key, 'wa/one');
    await promote(minePromoted.artifact_id);
    const mineRecorded = await write(agent.key, 'wa/one', { kind: undefined, content_type: 'trace' });
    const theirsPromoted = await write(other.key, 'wa/one');
    await promote(theirsPromoted.artifact_id);
    const theirsHeld = await write(other.key, 'wa/one');

    const answer = (await gate.rpc(agent.key, 'gv.workarea', { workarea: 'wa/one' })).result;
    expect(answer).toMatchObject({ space: 'main', workarea: 'wa/one', identity: agent.identity, state: 'open', truncated: false });
    expect(ids(answer.own)).toEqual(ids([mineHeld, minePromoted, mineRecorded]));
    expect(answer.own.find((r: any) => r.artifact_id === mineHeld.artifact_id)).toMatchObject({
      state: 'L1_SCANNED',
      kind: 'memory',
      content_type: 'memory',
      producer: { name: 'builder', kind: 'agent' },
      ts: expect.any(Number),
    });
    expect(answer.own.find((r: any) => r.artifact_id === mineRecorded.artifact_id)).toMatchObject({ state: 'RECORDED', content_type: 'trace' });
    expect(ids(answer.promoted)).toEqual(ids([minePromoted, theirsPromoted]));
    expect(answer.promoted.find((r: any) => r.artifact_id === theirsPromoted.artifact_id)).toMatchObject({ state: 'ACTIVE', writer_identity: other.identity });
    expect(answer.counts).toEqual({ ACTIVE: 2, L1_SCANNED: 1, RECORDED: 1 });
    const text = JSON.stringify(answer);
    expect(text).not.toContain(theirsHeld.artifact_id);
    expect(text).not.toContain(secretWords);

    const forReviewer = (await gate.rpc(reviewer.key, 'gv.workarea', { workarea: 'wa/one' }));
    expect(forReviewer.error?.message).toContain('never wrote');
  });

  it('reports the part complete once completed', async () => {
    await write(agent.key, 'wa/done');
    await gate.rpc(agent.key, 'gv.complete', { workarea: 'wa/done' });
    const answer = (await gate.rpc(agent.key, 'gv.workarea', { workarea: 'wa/done' })).result;
    expect(answer.state).toBe('complete');
    expect(answer.completed_ts).toEqual(expect.any(Number));
  });

  it('counts every row of the area for a reviewer who wrote there', async () => {
    await write(reviewer.key, 'wa/reviewed');
    await write(other.key, 'wa/reviewed');
    const answer = (await gate.rpc(reviewer.key, 'gv.workarea', { workarea: 'wa/reviewed' })).result;
    expect(answer.own).toHaveLength(1);
    expect(answer.counts).toEqual({ L1_SCANNED: 2 });
  });
});

describe('gv.workarea refusals', () => {
  it('an area the caller never wrote into is refused, whether it holds promoted rows, held rows or nothing', async () => {
    const published = await write(other.key, 'wa/theirs');
    await promote(published.artifact_id);
    await write(other.key, 'wa/held');
    const reader = await gate.key('reader');
    const answers = [
      await gate.rpc(agent.key, 'gv.workarea', { workarea: 'wa/theirs' }),
      await gate.rpc(agent.key, 'gv.workarea', { workarea: 'wa/held' }),
      await gate.rpc(agent.key, 'gv.workarea', { workarea: 'wa/nobody' }),
      await gate.rpc(reader.key, 'gv.workarea', { workarea: 'wa/theirs' }),
    ];
    for (const a of answers) {
      expect(a.error?.code).toBe(-32602);
      expect(a.error?.data).toEqual({ field: 'workarea' });
    }
    expect(answers[1]!.error?.message.replace('wa/held', 'X')).toBe(answers[2]!.error?.message.replace('wa/nobody', 'X'));
  });

  it('an unknown space and a bad area name are refused', async () => {
    const space = await gate.rpc(agent.key, 'gv.workarea', { workarea: 'wa/one', space: 'nowhere' });
    expect(space.error?.data?.spaces).toContain('main');
    expect((await gate.rpc(agent.key, 'gv.workarea', { workarea: '' })).error?.data).toEqual({ field: 'workarea' });
    expect((await gate.rpc(agent.key, 'gv.workarea', { workarea: 'a/../b' })).error?.data).toEqual({ field: 'workarea' });
  });
});
