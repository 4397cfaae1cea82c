import { beforeAll, describe, expect, it } from 'vitest';
import { useGate } from '../harness/use-gate.js';

/**
 * How recall reads words (issue 37): porter stems in the recall index, a query's function
 * words left out, the query's vector weighing its rare words up, and hybrid's scaled-score
 * fusion, each through gv.recall on a served gate.
 */
const CLAIMS = {
  stems: 'Caroline is researching adoption agencies in her city',
  functionWords: 'So that is what they did, and then they were done with it.',
  pottery: 'Melanie signed up for a pottery class',
  caroline: [
    'Caroline said hello to everyone at breakfast',
    'Caroline walked the dog around the lake',
    'Caroline baked bread for the neighbours',
    'Caroline read a novel in the garden',
  ],
};

const { gate, keys: { agent, reviewer } } = useGate({ kind: 'unit', keys: { agent: 'agent', reviewer: 'reviewer' } });
const ids = new Map<string, string>();

type Hit = { artifact_id: string; body: string; score: number; weak: boolean; signals: { lexical?: { rank: number; score: number }; vector?: { rank: number; score: number }; context?: unknown } };
const recall = async (params: Record<string, unknown>): Promise<Hit[]> => {
  const answer = await gate.rpc(agent.key, 'gv.recall', params);
  expect(answer.error).toBeUndefined();
  return answer.result.hits as Hit[];
};

beforeAll(async () => {
  for (const [i, text] of [CLAIMS.stems, CLAIMS.functionWords, ...CLAIMS.caroline, CLAIMS.pottery].entries()) {
    const ingested = await gate.rpc(agent.key, 'gv.ingest', { content: text, kind: 'memory', workarea: 'words', source_uri: `test://words/${i}` });
    expect(ingested.error, text).toBeUndefined();
    const id = ingested.result.artifact_id as string;
    await gate.readBody(reviewer.key, id);
    const promoted = await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id });
    expect(promoted.result?.state, `${text}: ${JSON.stringify(promoted.error)}`).toBe('ACTIVE');
    ids.set(text, id);
  }
  // Vectors are written after the commit: wait until the last claim is its own nearest row.
  for (const deadline = Date.now() + 30_000; ; ) {
    const [hit] = await recall({ query: CLAIMS.pottery, k: 1, mode: 'vector' });
    if (hit?.body === CLAIMS.pottery) break;
    if (Date.now() > deadline) throw new Error('claims not embedded within 30 s');
    await new Promise((r) => setTimeout(r, 100));
  }
}, 60_000);

describe('recall words', () => {
  it('stems: "research" and "agency" find "researching adoption agencies"', async () => {
    for (const query of ['research', 'agency', 'researched agency']) {
      const hits = await recall({ query, mode: 'lexical' });
      expect(hits.map((h) => h.body)).toEqual([CLAIMS.stems]);
    }
  });

  it("leaves a question's function words out: a claim made of them is not a hit of a question about something else", async () => {
    const hits = await recall({ query: 'What did Melanie do at the pottery class?', mode: 'lexical' });
    expect(hits.map((h) => h.body)).toEqual([CLAIMS.pottery]);
  });

  it('a query of nothing but function words keeps them, so it still finds the claim that says them', async () => {
    const hits = await recall({ query: 'what did they do', mode: 'lexical' });
    expect(hits.map((h) => h.body)).toEqual([CLAIMS.functionWords]);
  });

  it("weighs the query vector's rare words up: a name in most claims does not outweigh the one rare word", async () => {
    // Unweighted, "Caroline said hello to everyone at breakfast" is nearest (cosine 0.404 against 0.386).
    const [first] = await recall({ query: 'Caroline pottery', mode: 'vector' });
    expect(first!.body).toBe(CLAIMS.pottery);
    expect(first!.signals.vector!.rank).toBe(1);
  });

  it('scores a lexical or vector list by its scores scaled over the list: its first hit 1, its last 0, the signal keeping the raw score', async () => {
    for (const [mode, query] of [['lexical', 'Caroline'], ['vector', 'Caroline pottery']] as const) {
      const hits = await recall({ query, mode, k: 10 });
      expect(hits.length, mode).toBeGreaterThan(2);
      expect(hits[0]!.score, mode).toBe(1);
      expect(hits.at(-1)!.score, mode).toBe(0);
      const raw = hits.map((h) => (mode === 'lexical' ? h.signals.lexical! : h.signals.vector!) as { score: number });
      const [high, low] = [raw[0]!.score, raw.at(-1)!.score];
      expect(high, mode).toBeGreaterThan(low);
      hits.forEach((h, i) => expect(h.score, mode).toBeCloseTo((raw[i]!.score - low) / (high - low), 12));
    }
  });

  it("fuses by scaled score: a row first in both lists scores 1, and every fused score lies in 0-1", async () => {
    const hits = await recall({ query: 'pottery class', mode: 'hybrid' });
    expect(hits[0]!.body).toBe(CLAIMS.pottery);
    expect(hits[0]!.signals.lexical!.rank).toBe(1);
    expect(hits[0]!.signals.vector!.rank).toBe(1);
    expect(hits[0]!.score).toBeCloseTo(1, 12);
    for (const h of hits) {
      expect(h.score).toBeGreaterThanOrEqual(0);
      expect(h.score).toBeLessThanOrEqual(1);
    }
  });
});
