import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GateProcess } from '../harness/gate-process.js';

// A vector recall held to a work area compares the area's own rows exactly (VectorRecall's
// `exactly`, reading their stored vectors in one statement) instead of scanning the space.

let gate: GateProcess;
let agent: { key: string; identity: string };
let writer: { key: string; identity: string };
let reviewer: { key: string; identity: string };

beforeAll(async () => {
  gate = await GateProcess.start();
  agent = await gate.key('agent');
  writer = await gate.key('agent');
  reviewer = await gate.key('reviewer');
});
afterAll(async () => {
  await gate?.stop();
});

const ids = (r: any) => (r.result.hits as { artifact_id: string }[]).map((h) => h.artifact_id);

async function ingest(key: string, content: string, workarea: string): Promise<string> {
  const r = await gate.rpc(key, 'gv.ingest', { content, workarea, kind: 'memory', source_uri: 'test://vw' });
  expect(r.error, JSON.stringify(r)).toBeUndefined();
  return r.result.artifact_id as string;
}

async function promoted(content: string, workarea: string): Promise<string> {
  const id = await ingest(writer.key, content, workarea);
  await gate.readBody(reviewer.key, id);
  const p = await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id });
  expect(p.error, JSON.stringify(p)).toBeUndefined();
  return id;
}

/** Vectors are written after the commit by the embed pool: waits (bounded) until a vector recall of the space finds every row. */
async function embedded(key: string, query: string, wanted: string[]) {
  for (let i = 0; i < 100; i++) {
    const found = ids(await gate.rpc(key, 'gv.recall', { query, mode: 'vector', k: 50 }));
    if (wanted.every((id) => found.includes(id))) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('rows were not embedded within 10 s');
}

describe('gv.recall mode vector within a work area', () => {
  it('answers only the area and the areas below it, nearest first, and the caller\'s own held rows of that area after them', async () => {
    const query = 'Session tokens are dropped from the cache when the user logs out.';
    const mid = await promoted('Logging out drops the session tokens held in the cache.', 'proj/api');
    const deep = await promoted(query, 'proj/api/auth');
    const plants = await promoted('The office plants are watered on Tuesdays by whoever arrives first.', 'proj/api');
    // A sibling whose name starts with the area's is not below it.
    const sibling = await promoted('Session tokens are dropped from the cache when a user logs out of the apiary.', 'proj/apiary');
    const web = await promoted('Session tokens are dropped from the cache when the user logs out of the web page.', 'proj/web');
    const myHeld = await ingest(agent.key, 'My draft: session tokens leave the cache at logout.', 'proj/api');
    const myHeldElsewhere = await ingest(agent.key, 'My draft: session tokens leave the cache at logout, for the web.', 'proj/web');
    await embedded(agent.key, query, [mid, deep, plants, sibling, web]);
    await embedded(agent.key, query, [myHeld, myHeldElsewhere]);

    const r = await gate.rpc(agent.key, 'gv.recall', { query, mode: 'vector', scope: 'workarea', workarea: 'proj/api', k: 10 });
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
    for (const h of hits) expect(h.workarea === 'proj/api' || h.workarea.startsWith('proj/api/')).toBe(true);
    expect(ids(r)).not.toContain(sibling);
    expect(ids(r)).not.toContain(web);
    expect(ids(r)).not.toContain(myHeldElsewhere);

    // k below the area's size keeps the nearest.
    const top2 = await gate.rpc(agent.key, 'gv.recall', { query, mode: 'vector', scope: 'workarea', workarea: 'proj/api', k: 2 });
    expect(ids(top2).filter((id) => id !== myHeld)).toEqual([deep, mid]);
  });
});
