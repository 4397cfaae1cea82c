import { describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

const { gate } = useGate({ kind: 'unit' });

/** Polls `done` until it holds; the bound only names a condition never met. */
async function until(done: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error('the embed stage still had rows to embed');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('gv.rebuild checks the vector index', () => {
  it('embeds every served and held row again and finds each stored vector equal', async () => {
    const agent = await gate.key('agent');
    const reviewer = await gate.key('reviewer');
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText(`vector ${i}`), workarea: 'tests/vectors', kind: 'memory', source_uri: 'test://v' });
      expect(r.result.state).toBe('L1_SCANNED');
      ids.push(r.result.artifact_id);
    }
    for (const id of ids.slice(0, 8)) {
      await gate.readBody(reviewer.key, id);
      expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id })).result.state).toBe('ACTIVE');
    }
    await gate.rpc(reviewer.key, 'gv.reject', { artifact_id: ids[11], reason: 'test' });
    // The stage embeds after each commit; a rebuild would fill (and count as rewritten) any
    // vector still missing, so it waits until the stage has nothing left to embed.
    await until(() => gate.gate.recall.vector.ready.pending === 0);
    const answer = await gate.socket('gv.rebuild', {});
    expect(answer.error).toBeUndefined();
    expect(answer.result.equal).toBe(true);
    const vectors = answer.result.vectors;
    // Eight served rows and three held ones want a vector; the rejected one does not.
    expect(vectors).toMatchObject({ checked: 11, equal: 11, missing: 0, rewritten: 0, failed: 0 });
    expect(vectors.model).toMatch(/^local-hashed-ngrams\/1 d512 /);
  });
});
