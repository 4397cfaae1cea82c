import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

type Key = { key: string; identity: string };
const { gate, keys: { writer, other, reader, reviewer }, ingestId } = useGate({
  kind: 'unit',
  keys: { writer: 'agent', other: 'agent', reader: 'reader', reviewer: 'reviewer' },
});

const ids: Record<string, string> = {};

const ingest = (who: Key, workarea: string, extra: Record<string, unknown> = {}) => ingestId(who, { content: uniqueText(workarea), workarea, source_uri: 'test://wa', ...extra });
const call = async (who: Key, method: string, params: Record<string, unknown>) => {
  const r = await gate.rpc(who.key, method, params);
  if (r.error) throw new Error(`${method}: ${r.error.message}`);
  return r.result;
};
const promote = async (id: string) => {
  await gate.readBody(reviewer.key, id);
  return call(reviewer, 'gv.promote', { artifact_id: id });
};
const relate = (child: string, kind: string, parent: string) => call(reviewer, 'gv.relate', { artifact_id: child, kind, parent });
const area = (who: Key, params: Record<string, unknown> = {}) => call(who, 'gv.graph', { workarea: 'proj/a', ...params });
const nodeIds = (g: { nodes: { artifact_id: string }[] }) => g.nodes.map((n) => n.artifact_id);

beforeAll(async () => {
  await gate.socket('gv.space_create', { name: 'second', policy: 'auto' });
  await gate.socket('gv.grant', {
    action: 'issue',
    grants: [
      { principal: other.identity, space: 'second', capabilities: ['read', 'contribute'] },
      { principal: writer.identity, space: 'second', capabilities: ['read'] },
    ],
  });
  ids.a1 = await ingest(writer, 'proj/a');
  ids.a2 = await ingest(writer, 'proj/a');
  await promote(ids.a1);
  await promote(ids.a2);
  ids.a3 = await ingest(writer, 'proj/a');
  ids.otherHeldInArea = await ingest(other, 'proj/a');
  ids.f1 = await ingest(other, 'proj/b');
  await promote(ids.f1);
  ids.f2 = await ingest(other, 'proj/a', { space: 'second' });
  await promote(ids.f2);
  ids.f3 = await ingest(other, 'proj/b');
  ids.far = await ingest(other, 'proj/c');
  await promote(ids.far);
  ids.sub = await ingest(writer, 'proj/a/deeper');
  await promote(ids.sub);
  await relate(ids.a1, 'extends', ids.f1);
  await relate(ids.f2, 'corrects', ids.a2);
  await relate(ids.f3, 'contradicts', ids.a1);
  await relate(ids.far, 'restates', ids.f1);
  ids.secret = await ingest(other, 'proj/secret');
  await call(other, 'gv.complete', { workarea: 'proj/a' });
  await call(writer, 'gv.complete', { workarea: 'proj/a', note: 'done here' });
});

describe('gv.graph with a work area', () => {
  it("serves the area's rows, then the rows one relation edge away marked foreign, for a reviewer all of them", async () => {
    const g = await area(reviewer);
    expect(g).toMatchObject({ space: 'main', workarea: 'proj/a', full: true, truncated: false, total: 7 });
    expect(nodeIds(g)).toEqual([ids.otherHeldInArea, ids.a3, ids.a2, ids.a1, ids.f3, ids.f2, ids.f1]);
    expect(g.nodes.map((n: { foreign: boolean }) => n.foreign)).toEqual([false, false, false, false, true, true, true]);
    // Two edges away (far restates f1) and the sub-area below are not part of it.
    expect(nodeIds(g)).not.toContain(ids.far);
    expect(nodeIds(g)).not.toContain(ids.sub);
    expect(g.edges.map((e: { child: string; kind: string; parent: string }) => `${e.child}>${e.kind}>${e.parent}`).sort()).toEqual(
      [`${ids.a1}>extends>${ids.f1}`, `${ids.f2}>corrects>${ids.a2}`, `${ids.f3}>contradicts>${ids.a1}`].sort(),
    );
    expect(g.counts).toEqual({ ACTIVE: 4, L1_SCANNED: 3 });
    expect(g.completed.map((c: { writer_identity: string }) => c.writer_identity).sort()).toEqual([other.identity, writer.identity].sort());
    expect(g.completed).toContainEqual({ writer_identity: writer.identity, ts: expect.any(Number) });
  });

  it("below reviewer: no other identity's held row, no neighbour in an unreadable space, no completion by a writer of held rows alone", async () => {
    const r = await area(reader);
    expect(nodeIds(r)).toEqual([ids.a2, ids.a1, ids.f1]);
    expect(r.total).toBe(3);
    expect(r.counts).toEqual({ ACTIVE: 3 });
    expect(r.edges.map((e: { kind: string }) => e.kind)).toEqual(['extends']);
    expect(r.completed).toEqual([{ writer_identity: writer.identity, ts: expect.any(Number) }]);
    const text = JSON.stringify(r);
    for (const hidden of [ids.otherHeldInArea, ids.f3, ids.f2, ids.a3, other.identity]) expect(text).not.toContain(hidden);

    // The writer sees its own held row and, holding read on the second space, the cross-space neighbour.
    const w = await area(writer);
    expect(nodeIds(w)).toEqual([ids.a3, ids.a2, ids.a1, ids.f2, ids.f1]);
    expect(w.nodes.find((n: { artifact_id: string }) => n.artifact_id === ids.f2)).toMatchObject({ space: 'second', foreign: true });
  });

  it('states filter the area and its neighbours alike; the limit fills with the area first', async () => {
    const held = await area(reviewer, { states: ['L1_SCANNED'] });
    expect(nodeIds(held)).toEqual([ids.otherHeldInArea, ids.a3, ids.f3]);
    expect(held.total).toBe(3);
    expect(held.counts).toEqual({ ACTIVE: 4, L1_SCANNED: 3 });
    const two = await area(reviewer, { limit: 5 });
    expect(nodeIds(two)).toEqual([ids.otherHeldInArea, ids.a3, ids.a2, ids.a1, ids.f3]);
    expect(two).toMatchObject({ total: 7, truncated: true });
    // An edge to a node left out by the limit is not served.
    expect(two.edges.every((e: { child: string; parent: string }) => nodeIds(two).includes(e.child) && nodeIds(two).includes(e.parent))).toBe(true);
  });

  it('a work area in another space is named by space', async () => {
    const g = await area(writer, { space: 'second' });
    expect(nodeIds(g)).toEqual([ids.f2, ids.a2]);
    expect(g.nodes.map((n: { foreign: boolean }) => n.foreign)).toEqual([false, true]);
  });

  it('an area nobody wrote into, and one holding only rows the caller may not see, are refused in the same words', async () => {
    const none = await gate.rpc(reader.key, 'gv.graph', { workarea: 'proj/none' });
    const secret = await gate.rpc(reader.key, 'gv.graph', { workarea: 'proj/secret' });
    expect(none.error?.code).toBe(-32602);
    expect(secret.error?.code).toBe(-32602);
    expect(none.error?.message).toBe('work area proj/none in space main has no row you can see');
    expect(secret.error?.message).toBe('work area proj/secret in space main has no row you can see');
    // Its writer and a reviewer see it.
    expect(nodeIds(await call(other, 'gv.graph', { workarea: 'proj/secret' }))).toEqual([ids.secret]);
    expect(nodeIds(await call(reviewer, 'gv.graph', { workarea: 'proj/secret' }))).toEqual([ids.secret]);
  });

  const refusals: Array<[string, Record<string, unknown>, string]> = [
    ['a bad work area name', { workarea: 'proj//a' }, 'workarea'],
    ['kinds beside workarea', { workarea: 'proj/a', kinds: ['memory'] }, 'kinds is refused beside workarea'],
    ['workarea beside spaces', { workarea: 'proj/a', spaces: ['main'] }, 'workarea is refused beside spaces'],
    ['space without workarea', { space: 'second' }, 'space is read only with workarea'],
    ['an unknown space', { workarea: 'proj/a', space: 'nowhere' }, 'unknown space "nowhere"'],
  ];
  for (const [name, params, words] of refusals) {
    it(`refuses ${name} with -32602`, async () => {
      const r = await gate.rpc(reader.key, 'gv.graph', params);
      expect(r.error?.code, JSON.stringify(r)).toBe(-32602);
      expect(r.error?.message).toContain(words);
    });
  }
});
