import { describe, expect, it } from 'vitest';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent, writer, reviewer } } = useGate({ kind: 'unit', keys: { agent: 'agent', writer: 'agent', reviewer: 'reviewer' } });

const word = `heronwatch${Date.now().toString(36)}`;

async function promoted(content: string, workarea: string, extra: Record<string, unknown> = {}) {
  const r = await gate.rpc(writer.key, 'gv.ingest', { content, workarea, kind: 'memory', source_uri: 'test://w', ...extra });
  expect(r.error, JSON.stringify(r)).toBeUndefined();
  await gate.readBody(reviewer.key, r.result.artifact_id);
  const p = await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: r.result.artifact_id });
  expect(p.error, JSON.stringify(p)).toBeUndefined();
  return r.result.artifact_id as string;
}
const ids = (r: any) => r.result.hits.map((h: { artifact_id: string }) => h.artifact_id);

describe('gv.recall with a work area', () => {
  it('closest answers from the area, then walks up one segment at a time, then the space; distance is levels walked', async () => {
    const top = await promoted(`${word} top level note`, 'proj');
    const mid = await promoted(`${word} middle level note`, 'proj/api');
    const deep = await promoted(`${word} deep level note`, 'proj/api/auth');

    const atDeep = await gate.rpc(agent.key, 'gv.recall', { query: word, workarea: 'proj/api/auth', mode: 'lexical' });
    expect(atDeep.result).toMatchObject({ scope: 'closest', space: 'main', workarea: 'proj/api/auth' });
    expect(atDeep.result.answered_by).toMatchObject({ level: 'workarea', workarea: 'proj/api/auth', distance: 0 });
    expect(ids(atDeep)).toEqual([deep]);
    expect(atDeep.result.hits[0].distance).toBe(0);

    // Nothing in proj/api/cache: one level up, proj/api answers with its own rows and those below it.
    const up1 = await gate.rpc(agent.key, 'gv.recall', { query: word, workarea: 'proj/api/cache', mode: 'lexical' });
    expect(up1.result.answered_by).toMatchObject({ workarea: 'proj/api', distance: 1 });
    expect(ids(up1).sort()).toEqual([mid, deep].sort());
    expect(up1.result.hits.every((h: { distance: number }) => h.distance === 1)).toBe(true);

    const elsewhere = await gate.rpc(agent.key, 'gv.recall', { query: word, workarea: 'other/x/y', mode: 'lexical' });
    expect(elsewhere.result.answered_by).toMatchObject({ level: 'space', workarea: null, distance: 3 });
    expect(ids(elsewhere).sort()).toEqual([top, mid, deep].sort());
  });

  it('scope workarea searches only that area and below, at distance 0', async () => {
    const r = await gate.rpc(agent.key, 'gv.recall', { query: word, scope: 'workarea', workarea: 'proj/api', mode: 'lexical' });
    expect(r.result.scope).toBe('workarea');
    expect(r.result.hits).toHaveLength(2);
    expect(r.result.hits.every((h: { workarea: string; distance: number }) => h.workarea.startsWith('proj/api') && h.distance === 0)).toBe(true);
    const none = await gate.rpc(agent.key, 'gv.recall', { query: word, scope: 'workarea', workarea: 'proj/web', mode: 'lexical' });
    expect(none.result.hits).toEqual([]);
  });

  it('serves the steering in force beside the hits, nearest place first, newest first within a place, never among hits', async () => {
    const steer = async (content: string, workarea: string, addressed_to?: Record<string, unknown>) =>
      promoted(content, workarea, { kind: 'steering', ...(addressed_to ? { addressed_to } : {}) });
    const sTop = await steer(`${word} steering at the top: keep answers short`, 'lab');
    const sMidOld = await steer(`${word} steering in lab/a, older`, 'lab/a');
    const sMidNew = await steer(`${word} steering in lab/a, newer`, 'lab/a');
    const sForTools = await steer(`${word} steering for tools only`, 'lab/a/b', { kinds: ['tool'] });
    const sForScout = await steer(`${word} steering for the scout`, 'lab/a/b', { names: ['scout'] });
    const sSibling = await steer(`${word} steering in a sibling area`, 'lab/z');
    const hit = await promoted(`${word} an ordinary claim in lab/a/b`, 'lab/a/b');

    const r = await gate.rpc(agent.key, 'gv.recall', { query: word, workarea: 'lab/a/b', mode: 'lexical' });
    expect(ids(r)).toEqual([hit]);
    const steering = r.result.steering.map((s: { artifact_id: string }) => s.artifact_id);
    expect(steering).toEqual([sForScout, sForTools, sMidNew, sMidOld, sTop]);
    expect(steering).not.toContain(sSibling);
    expect(r.result.steering.map((s: { distance: number }) => s.distance)).toEqual([0, 0, 1, 1, 2]);
    expect(r.result.steering[0]).toMatchObject({
      space: 'main',
      workarea: 'lab/a/b',
      writer: { identity: writer.identity, kind: 'program' },
      addressed_to: { names: ['scout'] },
      provisional: true,
    });
    expect(typeof r.result.steering[0].body).toBe('string');
    expect(r.result.steering_omitted).toBe(0);

    const scout = await gate.rpc(agent.key, 'gv.recall', { workarea: 'lab/a/b', producer: { name: 'scout', kind: 'agent' } });
    expect(scout.result.hits).toEqual([]);
    expect(scout.result.steering.map((s: { artifact_id: string }) => s.artifact_id)).toEqual([sForScout, sMidNew, sMidOld, sTop]);

    const tool = await gate.rpc(agent.key, 'gv.recall', { workarea: 'lab/a/b', producer: { name: 'linter', kind: 'tool' } });
    expect(tool.result.steering.map((s: { artifact_id: string }) => s.artifact_id)).toEqual([sForTools, sMidNew, sMidOld, sTop]);

    const capped = await gate.rpc(agent.key, 'gv.recall', { workarea: 'lab/a/b', steering_k: 2 });
    expect(capped.result.steering.map((s: { artifact_id: string }) => s.artifact_id)).toEqual([sForScout, sForTools]);
    expect(capped.result.steering_omitted).toBe(3);
  });

  it('a held steering row is never in force, and a work-area recall without a query answers the steering alone', async () => {
    const held = await gate.rpc(writer.key, 'gv.ingest', {
      content: `${word} held steering`, workarea: 'lab/a/b', kind: 'steering', source_uri: 'test://w',
    });
    const r = await gate.rpc(writer.key, 'gv.recall', { workarea: 'lab/a/b' });
    expect(r.result.hits).toEqual([]);
    expect(r.result.steering.map((s: { artifact_id: string }) => s.artifact_id)).not.toContain(held.result.artifact_id);
    // Nor does the writer's own held steering come back as a held hit.
    const own = await gate.rpc(writer.key, 'gv.recall', { query: `${word} held steering`, workarea: 'lab/a/b', mode: 'lexical' });
    expect(ids(own)).not.toContain(held.result.artifact_id);
  });

  it('scope space and all answer no steering and distance null', async () => {
    const r = await gate.rpc(agent.key, 'gv.recall', { query: word, mode: 'lexical' });
    expect(r.result).toMatchObject({ scope: 'space', workarea: null, steering: [], steering_omitted: 0 });
    expect(r.result.hits.every((h: { distance: null }) => h.distance === null)).toBe(true);
    expect(r.result.hits.some((h: { provenance: { kind: string } }) => h.provenance.kind === 'steering')).toBe(false);
  });
});

/** Vectors are written after the commit by the embed pool: waits (bounded) until a vector recall of the space finds every row. */
async function embedded(query: string, wanted: string[]) {
  for (let i = 0; i < 100; i++) {
    const found = ids(await gate.rpc(agent.key, 'gv.recall', { query, mode: 'vector', k: 50 }));
    if (wanted.every((id) => found.includes(id))) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('rows were not embedded within 10 s');
}

async function heldByAgent(content: string, workarea: string): Promise<string> {
  const r = await gate.rpc(agent.key, 'gv.ingest', { content, workarea, kind: 'memory', source_uri: 'test://w' });
  expect(r.error, JSON.stringify(r)).toBeUndefined();
  return r.result.artifact_id as string;
}

// A vector recall held to a work area compares the area's own rows exactly (VectorRecall's
// `exactly`, reading their stored vectors in one statement) instead of scanning the space.
describe('gv.recall mode vector within a work area', () => {
  it('answers only the area and the areas below it, nearest first, and the caller\'s own held rows of that area after them', async () => {
    const query = 'Session tokens are dropped from the cache when the user logs out.';
    const mid = await promoted('Logging out drops the session tokens held in the cache.', 'vec/api');
    const deep = await promoted(query, 'vec/api/auth');
    const plants = await promoted('The office plants are watered on Tuesdays by whoever arrives first.', 'vec/api');
    // A sibling whose name starts with the area's is not below it.
    const sibling = await promoted('Session tokens are dropped from the cache when a user logs out of the apiary.', 'vec/apiary');
    const web = await promoted('Session tokens are dropped from the cache when the user logs out of the web page.', 'vec/web');
    const myHeld = await heldByAgent('My draft: session tokens leave the cache at logout.', 'vec/api');
    const myHeldElsewhere = await heldByAgent('My draft: session tokens leave the cache at logout, for the web.', 'vec/web');
    await embedded(query, [mid, deep, plants, sibling, web]);
    await embedded(query, [myHeld, myHeldElsewhere]);

    const r = await gate.rpc(agent.key, 'gv.recall', { query, mode: 'vector', scope: 'workarea', workarea: 'vec/api', k: 10 });
    expect(r.error, JSON.stringify(r)).toBeUndefined();
    const hits = r.result.hits as { artifact_id: string; workarea: string; held: boolean; signals: { vector: { rank: number; score: number } } }[];
    const ranked = hits.filter((h) => !h.held);
    expect(new Set(ranked.map((h) => h.artifact_id))).toEqual(new Set([deep, mid, plants]));
    // The row whose text is the query's is nearest; the unrelated one comes last.
    expect(ranked.map((h) => h.artifact_id)[0]).toBe(deep);
    expect(ranked.at(-1)!.artifact_id).toBe(plants);
    expect(ranked.map((h) => h.signals.vector.rank)).toEqual([1, 2, 3]);
    const scores = ranked.map((h) => h.signals.vector.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores[0]).toBeGreaterThan(0.99);
    expect(hits.filter((h) => h.held).map((h) => h.artifact_id)).toEqual([myHeld]);
    for (const h of hits) expect(h.workarea === 'vec/api' || h.workarea.startsWith('vec/api/')).toBe(true);
    expect(ids(r)).not.toContain(sibling);
    expect(ids(r)).not.toContain(web);
    expect(ids(r)).not.toContain(myHeldElsewhere);

    // k below the area's size keeps the nearest.
    const top2 = await gate.rpc(agent.key, 'gv.recall', { query, mode: 'vector', scope: 'workarea', workarea: 'vec/api', k: 2 });
    expect(ids(top2).filter((id) => id !== myHeld)).toEqual([deep, mid]);
  });
});
