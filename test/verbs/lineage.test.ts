import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

type Who = { key: string; identity: string };
const { gate, keys: { a, b, reviewer, reader } } = useGate({ kind: 'unit', keys: { a: 'agent', b: 'agent', reviewer: 'reviewer', reader: 'reader' } });

const rows: Record<string, { artifact_id: string }> = {};

const write = async (who: Who, workarea: string, extra: Record<string, unknown> = {}) => {
  const answer = await gate.rpc(who.key, 'gv.ingest', { content: uniqueText('lineage'), workarea, kind: 'memory', source_uri: 'test://lineage', ...extra });
  expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  return answer.result as { artifact_id: string };
};
const promote = async (id: string) => {
  await gate.readBody(reviewer.key, id);
  expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id })).result.state).toBe('ACTIVE');
};
const lineage = async (who: Who, params: Record<string, unknown> = {}) => {
  const answer = await gate.rpc(who.key, 'gv.lineage', params);
  expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  return answer.result;
};
const node = (graph: any, name: string) => graph.nodes.find((n: any) => n.name === name);
const edgesOf = (graph: any, provenance: string) =>
  graph.edges.filter((e: any) => e.provenance === provenance).map((e: any) => `${e.source}>${e.target}`);

/**
 * A writes proj/api (one promoted, one held by producer builder), proj/api/tests, proj/web
 * (deriving from its promoted row and from B's) and notes. B writes held rows only in
 * secret/zone and proj/api (producer ghost), a promoted row in shared/pub, relates and
 * completes where it wrote. A reader writes nothing.
 */
beforeAll(async () => {
  rows.apiPromoted = await write(a, 'proj/api');
  await promote(rows.apiPromoted.artifact_id);
  rows.apiHeld = await write(a, 'proj/api', { producer: { name: 'builder', kind: 'agent' } });
  rows.tests = await write(a, 'proj/api/tests');
  rows.notes = await write(a, 'notes');
  rows.pub = await write(b, 'shared/pub');
  await promote(rows.pub.artifact_id);
  await new Promise((resolve) => setTimeout(resolve, 5));
  rows.secret = await write(b, 'secret/zone', { producer: { name: 'ghost', kind: 'tool' } });
  rows.bInApi = await write(b, 'proj/api', { producer: { name: 'ghost', kind: 'tool' }, derives_from: [rows.pub.artifact_id] });
  rows.web = await write(a, 'proj/web', { derives_from: [rows.apiPromoted.artifact_id, rows.pub.artifact_id] });
  rows.web2 = await write(a, 'proj/web', { derives_from: [rows.apiPromoted.artifact_id] });
  const related = [
    await gate.rpc(a.key, 'gv.workarea_relate', { workarea: 'proj/web', kind: 'continues', target: 'proj/api', producer: { name: 'planner', kind: 'agent' } }),
    await gate.rpc(b.key, 'gv.workarea_relate', { workarea: 'proj/api', kind: 'continues', target: 'secret/zone' }),
    await gate.rpc(b.key, 'gv.workarea_relate', { workarea: 'proj/api', kind: 'opened_by', target: 'shared/pub' }),
    await gate.rpc(b.key, 'gv.workarea_relate', { workarea: 'secret/zone', kind: 'continues', target: 'shared/pub' }),
  ];
  for (const r of related) expect(r.error, JSON.stringify(r.error)).toBeUndefined();
  await gate.rpc(b.key, 'gv.complete', { workarea: 'proj/api' });
  await gate.rpc(b.key, 'gv.complete', { workarea: 'secret/zone' });
  await gate.rpc(a.key, 'gv.complete', { workarea: 'notes' });
});

describe('gv.lineage for a reviewer', () => {
  it('draws every area with writers, part states, producers, counts and all three kinds of edge', async () => {
    const graph = await lineage(reviewer);
    expect(graph.space).toBe('main');
    expect(graph.workarea).toBeNull();
    expect(graph.nodes.map((n: any) => n.name)).toEqual(
      ['notes', 'proj', 'proj/api', 'proj/api/tests', 'proj/web', 'secret', 'secret/zone', 'shared', 'shared/pub'],
    );
    const api = node(graph, 'proj/api');
    expect(api).toMatchObject({ implicit: false, writers: [a.identity, b.identity].sort(), promoted: 1, held: 2, recorded: 0 });
    expect(api.states).toEqual({ [a.identity]: 'open', [b.identity]: 'complete' });
    expect(api.producers.map((p: any) => `${p.name}:${p.kind}:${p.rows}`)).toEqual(['builder:agent:1', 'ghost:tool:1']);
    expect(api.first_write).toBeLessThanOrEqual(api.last_write);
    expect(node(graph, 'proj')).toMatchObject({ implicit: true, writers: [], states: {}, producers: [], promoted: 0, held: 0, first_write: null, last_write: null });
    expect(node(graph, 'notes').states).toEqual({ [a.identity]: 'complete' });

    expect(edgesOf(graph, 'path')).toEqual(['proj/api>proj', 'proj/api/tests>proj/api', 'proj/web>proj', 'secret/zone>secret', 'shared/pub>shared']);
    const declared = graph.edges.filter((e: any) => e.provenance === 'declared');
    expect(declared).toContainEqual({ source: 'proj/web', target: 'proj/api', provenance: 'declared', kind: 'continues', by: a.identity, producer: { name: 'planner', kind: 'agent' } });
    expect(declared).toContainEqual({ source: 'proj/api', target: 'secret/zone', provenance: 'declared', kind: 'continues', by: b.identity });
    expect(declared).toHaveLength(4);
    const derived = graph.edges.filter((e: any) => e.provenance === 'derived');
    // A child citing two rows of one area counts once; the reviewer is told which rows.
    expect(derived).toContainEqual({ source: 'proj/web', target: 'proj/api', provenance: 'derived', count: 2, rows: [rows.web2!.artifact_id, rows.web!.artifact_id] });
    expect(derived).toContainEqual({ source: 'proj/web', target: 'shared/pub', provenance: 'derived', count: 1, rows: [rows.web!.artifact_id] });
    expect(derived).toContainEqual({ source: 'proj/api', target: 'shared/pub', provenance: 'derived', count: 1, rows: [rows.bInApi!.artifact_id] });
  });
});

describe('gv.lineage below reviewer', () => {
  it("shows areas with a promoted row or the caller's writes, implicit segments, and counts the caller may see", async () => {
    const graph = await lineage(a);
    expect(graph.nodes.map((n: any) => n.name)).toEqual(['notes', 'proj', 'proj/api', 'proj/api/tests', 'proj/web', 'shared', 'shared/pub']);
    expect(node(graph, 'proj/api')).toMatchObject({ writers: [a.identity], states: { [a.identity]: 'open' }, promoted: 1, held: 1 });
    expect(node(graph, 'proj/api').producers.map((p: any) => p.name)).toEqual(['builder']);
    // B wrote a promoted row in shared/pub: its writer and part state are public there.
    expect(node(graph, 'shared/pub')).toMatchObject({ writers: [b.identity], states: { [b.identity]: 'open' }, promoted: 1, held: 0 });
    expect(node(graph, 'shared')).toMatchObject({ implicit: true });
    const own = (await gate.rpc(a.key, 'gv.workarea', { workarea: 'proj/api' })).result.own.map((r: any) => r.ts);
    expect(node(graph, 'proj/api').last_write).toBe(Math.max(...own));

    expect(graph.edges.filter((e: any) => e.provenance === 'declared')).toEqual([
      { source: 'proj/web', target: 'proj/api', provenance: 'declared', kind: 'continues', by: a.identity, producer: { name: 'planner', kind: 'agent' } },
    ]);
    expect(graph.edges.filter((e: any) => e.provenance === 'derived')).toEqual([
      { source: 'proj/web', target: 'proj/api', provenance: 'derived', count: 2 },
      { source: 'proj/web', target: 'shared/pub', provenance: 'derived', count: 1 },
    ]);
  });

  it("never shows another identity's held rows in any form: id, count, producer, area name, relation or part state", async () => {
    for (const who of [a, reader]) {
      const text = JSON.stringify([await lineage(who), await lineage(who, { workarea: 'proj/api' }), await lineage(who, { workarea: 'proj' })]);
      for (const hidden of ['secret', 'zone', 'ghost', rows.secret!.artifact_id, rows.bInApi!.artifact_id]) expect(text, hidden).not.toContain(hidden);
    }
    // B relating proj/api opened_by shared/pub stays hidden: B wrote only held rows in proj/api.
    const graph = await lineage(a);
    expect(graph.edges.some((e: any) => e.by === b.identity)).toBe(false);
    expect(node(graph, 'proj/api').states[b.identity]).toBeUndefined();
  });

  it('a reader sees promoted rows only: no held count and no area of held rows alone', async () => {
    const graph = await lineage(reader);
    expect(graph.nodes.map((n: any) => n.name)).toEqual(['proj', 'proj/api', 'shared', 'shared/pub']);
    expect(node(graph, 'proj/api')).toMatchObject({ writers: [a.identity], promoted: 1, held: 0, producers: [] });
    expect(graph.edges.filter((e: any) => e.provenance !== 'path')).toEqual([]);
  });
});

describe('gv.lineage of one work area', () => {
  it('answers the area, what it depends on and what depends on it, each followed on, with rows on every seen node', async () => {
    const web = await lineage(a, { workarea: 'proj/web' });
    expect(web.workarea).toBe('proj/web');
    expect(web.nodes.map((n: any) => n.name)).toEqual(['proj', 'proj/api', 'proj/web', 'shared', 'shared/pub']);
    expect(node(web, 'proj/web').rows.map((r: any) => r.artifact_id)).toEqual([rows.web2!.artifact_id, rows.web!.artifact_id]);
    expect(node(web, 'proj/web').rows[0]).toMatchObject({ state: 'L1_SCANNED', kind: 'memory', writer_identity: a.identity });
    expect(node(web, 'proj/api').rows.map((r: any) => r.artifact_id).sort()).toEqual([rows.apiPromoted!.artifact_id, rows.apiHeld!.artifact_id].sort());
    expect(node(web, 'proj').rows).toEqual([]);
    expect(web.edges.every((e: any) => web.nodes.some((n: any) => n.name === e.source) && web.nodes.some((n: any) => n.name === e.target))).toBe(true);

    const top = await lineage(a, { workarea: 'proj' });
    expect(top.nodes.map((n: any) => n.name)).toEqual(['proj', 'proj/api', 'proj/api/tests', 'proj/web']);
  });

  it('an area the caller cannot see answers like one nobody wrote into', async () => {
    const hidden = await lineage(a, { workarea: 'secret/zone' });
    const nothing = await lineage(a, { workarea: 'nothing/here' });
    expect(hidden.nodes).toEqual([]);
    expect(hidden.edges).toEqual([]);
    expect({ ...hidden, workarea: null }).toEqual({ ...nothing, workarea: null });
    expect((await lineage(reviewer, { workarea: 'secret/zone' })).nodes.map((n: any) => n.name)).toEqual(
      ['proj/api', 'proj/api/tests', 'proj/web', 'secret', 'secret/zone', 'shared', 'shared/pub'],
    );
  });
});

describe('gv.lineage per space and refusals', () => {
  it('draws only the named space', async () => {
    await gate.socket('gv.space_create', { name: 'lab', policy: 'human' });
    await gate.socket('gv.grant', { action: 'issue', grants: [{ principal: a.identity, space: 'lab', capabilities: ['read', 'contribute'] }] });
    await write(a, 'bench/run', { space: 'lab' });
    expect((await lineage(a, { space: 'lab' })).nodes.map((n: any) => n.name)).toEqual(['bench', 'bench/run']);
    expect((await lineage(a)).nodes.some((n: any) => n.name.startsWith('bench'))).toBe(false);
  });

  it('an unknown space and a bad area name are refused', async () => {
    const space = await gate.rpc(a.key, 'gv.lineage', { space: 'nowhere' });
    expect(space.error?.code).toBe(-32602);
    expect(space.error?.data?.spaces).toContain('main');
    const bad = await gate.rpc(a.key, 'gv.lineage', { workarea: 'proj//api' });
    expect(bad.error?.data).toEqual({ field: 'workarea' });
  });
});
