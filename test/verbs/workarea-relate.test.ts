import { describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent, other, reviewer } } = useGate({ kind: 'unit', keys: { agent: 'agent', other: 'agent', reviewer: 'reviewer' } });

const write = async (key: string, workarea: string, extra: Record<string, unknown> = {}) => {
  const answer = await gate.rpc(key, 'gv.ingest', { content: uniqueText('relate'), workarea, kind: 'memory', source_uri: 'test://relate', ...extra });
  expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  return answer.result;
};
const relate = (key: string, workarea: string, kind: string, target: string, extra: Record<string, unknown> = {}) =>
  gate.rpc(key, 'gv.workarea_relate', { workarea, kind, target, ...extra });

async function relatedEvents(workarea: string) {
  const page = await gate.rpc(reviewer.key, 'gv.events', { types: ['workarea-related'], workarea, limit: 1000 });
  return page.result.events as any[];
}

describe('gv.workarea_relate', () => {
  it('relates two areas the caller wrote into; repeating changes nothing and journals nothing', async () => {
    await write(agent.key, 'rel/a');
    await write(agent.key, 'rel/b');
    const first = await relate(agent.key, 'rel/a', 'continues', 'rel/b', { note: 'a note the agent wrote', producer: { name: 'planner', kind: 'agent' } });
    expect(first.result).toEqual({ space: 'main', workarea: 'rel/a', kind: 'continues', target: 'rel/b', changed: true, event_id: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const again = await relate(agent.key, 'rel/a', 'continues', 'rel/b');
    expect(again.result).toEqual({ space: 'main', workarea: 'rel/a', kind: 'continues', target: 'rel/b', changed: false });
    const events = await relatedEvents('rel/a');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ object: 'workarea', workarea: 'rel/a', kind: 'continues', target: 'rel/b', by: agent.identity });
    expect(JSON.stringify(events)).not.toContain('a note the agent wrote');
    expect(JSON.stringify(events)).not.toContain('planner');
    // Another kind between the same areas is another relation.
    expect((await relate(agent.key, 'rel/a', 'opened_by', 'rel/b')).result.changed).toBe(true);
  });

  it('each declarer holds its own relation: another writer of the area declaring the same edge changes it', async () => {
    await write(agent.key, 'rel/shared');
    await write(other.key, 'rel/shared');
    await write(agent.key, 'rel/base');
    await write(other.key, 'rel/base');
    expect((await relate(agent.key, 'rel/shared', 'continues', 'rel/base')).result.changed).toBe(true);
    expect((await relate(other.key, 'rel/shared', 'continues', 'rel/base')).result.changed).toBe(true);
    expect((await relatedEvents('rel/shared')).map((e) => e.by).sort()).toEqual([agent.identity, other.identity].sort());
  });

  it('opened_by and continues may name an area with a promoted row; derived_from only an area the caller wrote into', async () => {
    const published = await write(other.key, 'rel/published');
    await gate.readBody(reviewer.key, published.artifact_id);
    await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: published.artifact_id });
    await write(agent.key, 'rel/reader-of');
    expect((await relate(agent.key, 'rel/reader-of', 'opened_by', 'rel/published')).result.changed).toBe(true);
    expect((await relate(agent.key, 'rel/reader-of', 'continues', 'rel/published')).result.changed).toBe(true);
    const derived = await relate(agent.key, 'rel/reader-of', 'derived_from', 'rel/published');
    expect(derived.error?.code).toBe(-32602);
    expect(derived.error?.message).toContain('derived_from');
    await write(agent.key, 'rel/own-source');
    expect((await relate(agent.key, 'rel/reader-of', 'derived_from', 'rel/own-source')).result.changed).toBe(true);
  });
});

describe('gv.workarea_relate refusals', () => {
  it('a source area the caller never wrote into is refused, even one with a promoted row', async () => {
    const published = await write(other.key, 'rel/theirs');
    await gate.readBody(reviewer.key, published.artifact_id);
    await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: published.artifact_id });
    await write(agent.key, 'rel/mine');
    const refused = await relate(agent.key, 'rel/theirs', 'continues', 'rel/mine');
    expect(refused.error?.code).toBe(-32602);
    expect(refused.error?.data).toEqual({ field: 'workarea' });
    expect(await relatedEvents('rel/theirs')).toHaveLength(0);
  });

  it('a target nobody wrote into and one holding only another identity held rows are refused alike', async () => {
    await write(agent.key, 'rel/from');
    await write(other.key, 'rel/held-only');
    const held = await relate(agent.key, 'rel/from', 'continues', 'rel/held-only');
    const empty = await relate(agent.key, 'rel/from', 'continues', 'rel/empty');
    expect(held.error?.code).toBe(-32602);
    expect(held.error?.message.replace('rel/held-only', 'X')).toBe(empty.error?.message.replace('rel/empty', 'X'));
    expect(held.error?.data).toEqual(empty.error?.data);
  });

  it('an area related to itself is refused', async () => {
    await write(agent.key, 'rel/self');
    expect((await relate(agent.key, 'rel/self', 'continues', 'rel/self')).error?.code).toBe(-32602);
  });

  it('cycles are refused across every declared kind and declarer, naming only the two areas', async () => {
    for (const area of ['cyc/x', 'cyc/y', 'cyc/hidden-step']) await write(agent.key, area);
    await write(other.key, 'cyc/y');
    await write(other.key, 'cyc/x');
    expect((await relate(agent.key, 'cyc/x', 'continues', 'cyc/y')).result.changed).toBe(true);
    const back = await relate(agent.key, 'cyc/y', 'derived_from', 'cyc/x');
    expect(back.error?.code).toBe(-32602);
    expect(back.error?.data).toEqual({ field: 'target', reason: 'cycle' });
    // Longer: y opened_by hidden-step, hidden-step continues x would close x -> y -> hidden-step -> x.
    expect((await relate(agent.key, 'cyc/y', 'opened_by', 'cyc/hidden-step')).result.changed).toBe(true);
    const long = await relate(agent.key, 'cyc/hidden-step', 'continues', 'cyc/x');
    expect(long.error?.data).toEqual({ field: 'target', reason: 'cycle' });
    // Another declarer's edge closes a cycle just the same, and the refusal names no step between.
    const theirs = await relate(other.key, 'cyc/y', 'continues', 'cyc/x');
    expect(theirs.error?.data).toEqual({ field: 'target', reason: 'cycle' });
    expect(theirs.error?.message).not.toContain('hidden-step');
    expect(await relatedEvents('cyc/hidden-step')).toHaveLength(0);
  });

  it('a reader is refused naming both roles', async () => {
    const reader = await gate.key('reader');
    const refused = await relate(reader.key, 'rel/a', 'continues', 'rel/b');
    expect(refused.error?.code).toBe(-32602);
    expect(refused.error?.data).toEqual({ required: 'agent', role: 'reader' });
  });

  it('unknown space, bad area names, an unknown kind and missing operands are refused', async () => {
    const space = await relate(agent.key, 'rel/a', 'continues', 'rel/b', { space: 'nowhere' });
    expect(space.error?.data?.spaces).toContain('main');
    expect((await relate(agent.key, 'rel//a', 'continues', 'rel/b')).error?.data).toEqual({ field: 'workarea' });
    expect((await relate(agent.key, 'rel/a', 'continues', 'rel/b/')).error?.data).toEqual({ field: 'target' });
    expect((await relate(agent.key, 'rel/a', 'supersedes', 'rel/b')).error?.data).toEqual({ field: 'kind' });
    for (const missing of ['workarea', 'kind', 'target']) {
      const params: Record<string, unknown> = { workarea: 'rel/a', kind: 'continues', target: 'rel/b' };
      delete params[missing];
      const refused = await gate.rpc(agent.key, 'gv.workarea_relate', params);
      expect(refused.error?.data, missing).toEqual({ field: missing });
    }
    const producer = await relate(agent.key, 'rel/a', 'continues', 'rel/b', { producer: { name: 'a/b', kind: 'agent' } });
    expect(producer.error?.code).toBe(-32602);
  });

  it('a caller without contribute on the space is refused not_granted', async () => {
    await gate.socket('gv.space_create', { name: 'closed', policy: 'human' });
    await gate.socket('gv.grant', { action: 'issue', grants: [{ principal: agent.identity, space: 'closed', capabilities: ['read', 'contribute'] }] });
    await write(agent.key, 'rel/one', { space: 'closed' });
    await write(agent.key, 'rel/two', { space: 'closed' });
    await gate.socket('gv.grant', { action: 'revoke', grants: [{ principal: agent.identity, space: 'closed', capabilities: ['contribute'] }] });
    const refused = await relate(agent.key, 'rel/one', 'continues', 'rel/two', { space: 'closed' });
    expect(refused.error?.data).toEqual({ reason: 'not_granted', space: 'closed', capability: 'contribute' });
  });

  it('the journal replays to the same relations', async () => {
    const rebuilt = await gate.socket('gv.rebuild');
    expect(rebuilt.result.tables.workarea_relations.equal).toBe(true);
    expect(rebuilt.result.equal).toBe(true);
  });
});
