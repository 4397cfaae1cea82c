import { beforeAll, describe, expect, it } from 'vitest';
import { useGate } from '../harness/use-gate.js';

// The lexical plan past its rank window: more rows hold the query's common words than bm25
// ranks at once (RANK_WINDOW in src/recall/lexical.ts, 5,000), so the rows holding its rare
// words are older than every row in that window.
const WINDOW = 5_000;
const tag = Date.now().toString(36);
const rare = { a: `quillwort${tag}`, b: `sandwort${tag}`, c: `moonwort${tag}` };

const { gate, keys: { agent, reviewer } } = useGate({ kind: 'unit', keys: { agent: 'agent', reviewer: 'reviewer' } });

const ids: Record<string, string> = {};

async function promoted(content: string): Promise<string> {
  const ingest = await gate.rpc(agent.key, 'gv.ingest', { content, workarea: 'tests/plan', kind: 'memory', source_uri: 'test://plan' });
  if (ingest.error) throw new Error(ingest.error.message);
  await gate.readBody(reviewer.key, ingest.result.artifact_id);
  const promote = await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: ingest.result.artifact_id });
  if (promote.error) throw new Error(promote.error.message);
  return ingest.result.artifact_id;
}

beforeAll(async () => {
  ids.oneRare = await promoted(`The field guide lists ${rare.a} among the spring flowers.`);
  ids.twoRare = await promoted(`Both ${rare.b} and ${rare.c} grow on the limestone here.`);
  ids.rareAndCommon = await promoted(`A note on ${rare.b}: the note says it is about where it grows.`);
  // Newer rows that hold only the common words, more of them than the window.
  const total = WINDOW + 200;
  for (let at = 0; at < total; at += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, total - at) }, (_, i) =>
        promoted(`Filler ${at + i}: where is the note about the thing, the note is where it is about.`),
      ),
    );
  }
}, 300_000);

const recall = async (query: string) => {
  const r = await gate.rpc(agent.key, 'gv.recall', { query, mode: 'lexical', k: 3 });
  if (r.error) throw new Error(r.error.message);
  return r.result.hits.map((h: { artifact_id: string }) => h.artifact_id) as string[];
};

describe('lexical recall past the rank window', () => {
  it('finds an old row holding the one rare word of a long query that common words match everywhere', async () => {
    // Six terms: no row holds them all, and "where", "is", "the", "note", "about" are in every filler row.
    expect((await recall(`where is the note about ${rare.a}`))[0]).toBe(ids.oneRare);
  });

  it('ranks a row holding two of three query words above rows holding one, however many newer rows hold the third', async () => {
    const hits = await recall(`${rare.b} ${rare.c} note`);
    expect(hits[0]).toBe(ids.twoRare);
    expect(hits[1]).toBe(ids.rareAndCommon);
  });
});
