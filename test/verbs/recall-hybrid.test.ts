import { describe, expect, it } from 'vitest';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent, other, reviewer }, ingestId } = useGate({ kind: 'unit', keys: { agent: 'agent', other: 'agent', reviewer: 'reviewer' } });

const ingest = (key: string, content: string) => ingestId(key, { content, workarea: 'hybrid/test', source_uri: 'test://h' });
const ids = (r: any) => (r.result.hits as { artifact_id: string }[]).map((h) => h.artifact_id);

/** Vectors are written after the commit, by the embed pool; wait (bounded) until a vector recall finds the row. */
async function embedded(key: string, query: string, id: string) {
  for (let i = 0; i < 100; i++) {
    if (ids(await gate.rpc(key, 'gv.recall', { query, mode: 'vector', k: 20 })).includes(id)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`row ${id} was not embedded within 10 s`);
}

describe('gv.recall modes', () => {
  it('vector finds a row sharing no whole word with the query; lexical does not; hybrid, the default, fuses both lists', async () => {
    // No word of it shares a Porter stem with the query (the index stems: "databases" would
    // find "database", "migrations" "migrating"); only pieces of words ("data", "night") match.
    const migrations = await ingest(other.key, 'Schema changes of the datastores run each night before the backups.');
    const unrelated = await ingest(other.key, 'The office plants are watered on Tuesdays by whoever arrives first.');
    const both = await ingest(other.key, 'Rollback of a failed migration restores the previous database snapshot.');
    for (const id of [migrations, unrelated, both]) {
      await gate.readBody(reviewer.key, id);
      await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id });
    }
    await embedded(agent.key, 'database migrating nightly', migrations);
    await embedded(agent.key, 'database migrating nightly', both);

    const lexical = await gate.rpc(agent.key, 'gv.recall', { query: 'database migrating nightly', mode: 'lexical' });
    expect(ids(lexical)).toEqual([both]);
    expect(lexical.result.hits[0].signals).toEqual({ lexical: { rank: 1, score: expect.any(Number) } });

    const vector = await gate.rpc(agent.key, 'gv.recall', { query: 'database migrating nightly', mode: 'vector', k: 2 });
    expect(vector.result.answered_by.mode).toBe('vector');
    expect(ids(vector).sort()).toEqual([migrations, both].sort());
    expect(vector.result.hits[0].signals.vector.rank).toBe(1);
    expect(vector.result.hits[0].signals.lexical).toBeUndefined();

    const hybrid = await gate.rpc(agent.key, 'gv.recall', { query: 'database migrating nightly', k: 2 });
    expect(hybrid.result.answered_by.mode).toBe('hybrid');
    // The row both lists hold outranks the one only the vector list holds.
    expect(ids(hybrid)).toEqual([both, migrations]);
    const [top, second] = hybrid.result.hits;
    expect(top.signals.lexical.rank).toBe(1);
    expect(top.signals.vector.rank).toBeGreaterThanOrEqual(1);
    expect(second.signals.lexical).toBeUndefined();
    expect(top.score).toBeGreaterThan(second.score);
  });

  it('own held rows come after the ranked hits in vector mode; another identity\'s held row never comes back', async () => {
    const mine = await ingest(agent.key, 'My held note: the replication lag alarm fires above thirty seconds.');
    const theirs = await ingest(other.key, 'Their held note: the replication lag alarm pages the on-call engineer.');
    await embedded(agent.key, 'replication lag alarm', mine);
    for (const mode of ['vector', 'hybrid']) {
      const r = await gate.rpc(agent.key, 'gv.recall', { query: 'replication lag alarm', mode, k: 3 });
      const held = r.result.hits.filter((h: { held: boolean }) => h.held);
      expect(held.map((h: { artifact_id: string }) => h.artifact_id), mode).toEqual([mine]);
      expect(r.result.hits.at(-1).artifact_id).toBe(mine);
      expect(JSON.stringify(r.result)).not.toContain(theirs.slice(7));
      expect(JSON.stringify(r.result)).not.toContain('pages the on-call');
    }
  });
});
