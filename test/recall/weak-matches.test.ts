import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../harness/gate-process.js';
import { tool, toolRefusal } from '../harness/mcp-calls.js';
import { useGate } from '../harness/use-gate.js';

/**
 * Recall without relevance (issue 14 item 11): vector recall always has neighbours, so a
 * query whose words match nothing gets hits; each carries `weak`, and `min_similarity`
 * leaves such hits out. Twenty claims of the labelled set, promoted, against its own
 * made-up-word queries.
 */
const claims = (JSON.parse(readFileSync(join(ROOT, 'fixtures', 'recall-quality', 'claims.json'), 'utf8')) as Array<{ id: string; text: string }>).slice(0, 20);
const nonsense = (JSON.parse(readFileSync(join(ROOT, 'fixtures', 'recall-quality', 'unanswerable.json'), 'utf8')) as { nonsense: string[] }).nonsense.slice(0, 5);
const RELEVANT = 'do SQLite readers keep reading while a writer appends';

const { gate, keys: { agent } } = useGate({ kind: 'in-process', keys: { agent: 'agent' } });

beforeAll(async () => {
  const reviewer = await gate.key('reviewer');
  for (const c of claims) {
    const ingested = await gate.rpc(agent.key, 'gv.ingest', { content: c.text, kind: 'memory', source_uri: `fixture://${c.id}`, workarea: 'weak' });
    const id = ingested.result.artifact_id as string;
    await gate.readBody(reviewer.key, id);
    const promoted = await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id });
    expect(promoted.result?.state).toBe('ACTIVE');
  }
  // Vectors are written after the commit: wait until the last claim is its own nearest row.
  const last = claims.at(-1)!.text;
  for (const deadline = Date.now() + 30_000; ; ) {
    const hit = (await gate.rpc(agent.key, 'gv.recall', { query: last, k: 1, mode: 'vector' })).result.hits[0];
    if (hit?.body === last) break;
    if (Date.now() > deadline) throw new Error('claims not embedded within 30 s');
    await new Promise((r) => setTimeout(r, 100));
  }
}, 60_000);

describe('weak recall hits', () => {
  it('a query of words the store never saw: hits come back, every one weak', async () => {
    for (const query of nonsense) {
      const hits = (await gate.rpc(agent.key, 'gv.recall', { query })).result.hits as Array<{ weak: boolean; signals: { lexical?: unknown } }>;
      expect(hits.length).toBe(10);
      for (const h of hits) {
        expect(h.signals.lexical).toBeUndefined();
        expect(h.weak).toBe(true);
      }
    }
  });

  it('a relevant paraphrase: its top hit is the answer and not weak, in hybrid and in vector mode', async () => {
    for (const mode of ['hybrid', 'vector']) {
      const hits = (await gate.rpc(agent.key, 'gv.recall', { query: RELEVANT, mode })).result.hits;
      expect(hits[0].body).toBe(claims[0]!.text);
      expect(hits[0].weak).toBe(false);
    }
  });

  it('lexical mode: every hit shares a word with the query, so none is weak', async () => {
    const hits = (await gate.rpc(agent.key, 'gv.recall', { query: 'database', mode: 'lexical' })).result.hits;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h: { weak: boolean }) => h.weak === false)).toBe(true);
  });

  it('min_similarity leaves weak hits out: nothing for nonsense, the answer still for the paraphrase', async () => {
    const none = await gate.rpc(agent.key, 'gv.recall', { query: nonsense[0], min_similarity: 0.25 });
    expect(none.result.hits).toEqual([]);
    const some = await gate.rpc(agent.key, 'gv.recall', { query: RELEVANT, min_similarity: 0.25 });
    expect(some.result.hits[0].body).toBe(claims[0]!.text);
    // Hits that matched a word stay whatever their cosine: a floor of 1 keeps exactly those.
    const strict = await gate.rpc(agent.key, 'gv.recall', { query: RELEVANT, min_similarity: 1 });
    expect(strict.result.hits.length).toBeGreaterThan(0);
    expect(strict.result.hits.every((h: { signals: { lexical?: unknown } }) => h.signals.lexical !== undefined)).toBe(true);
    const refused = await gate.rpc(agent.key, 'gv.recall', { query: RELEVANT, min_similarity: 2 });
    expect(refused.error?.code).toBe(-32602);
  });

  it('gate.recall over /mcp serves weak in its declared output, and takes min_similarity', async () => {
    const weak = await tool(gate, 'recall', { query: nonsense[1]! }, agent.key);
    expect(weak.results.length).toBe(10);
    expect(weak.results.every((h: { weak: boolean }) => h.weak === true)).toBe(true);
    const relevant = await tool(gate, 'recall', { query: RELEVANT, include_evidence: false }, agent.key);
    expect(relevant.results[0]).toMatchObject({ body: claims[0]!.text, weak: false });
    expect((await tool(gate, 'recall', { query: nonsense[1]!, min_similarity: 0.25 }, agent.key)).results).toEqual([]);
    expect((await toolRefusal(gate, 'recall', { query: RELEVANT, min_similarity: -1 }, agent.key)).code).toBe(-32602);
  });
});
