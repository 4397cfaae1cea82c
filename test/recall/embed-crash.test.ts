import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';
import { EmbeddingsServer, goodAnswer } from './embeddings-server.js';

const DIMS = 16;
let server: EmbeddingsServer;

beforeAll(async () => {
  // The first request is answered; later ones are held open, so the gate dies mid-embedding.
  server = await new EmbeddingsServer((req, n) => (n === 1 ? { status: 200, body: goodAnswer(req, DIMS) } : 'hold')).start();
});
afterAll(async () => {
  await server?.stop();
});
const { gate, keys: { agent, reviewer } } = useGate({
  env: () => ({
    GATE_EMBED_BACKEND: 'openai',
    GATE_EMBED_URL: server.url,
    GATE_EMBED_MODEL: 'test-model',
    GATE_EMBED_DIMENSIONS: String(DIMS),
    GATE_EMBED_BATCH_MAX: '2',
    GATE_EMBED_API_KEY_ENV: 'GATE_TEST_EMBED_KEY',
    GATE_TEST_EMBED_KEY: 'sk-test-only-not-a-real-key',
  }),
  keys: { agent: 'agent', reviewer: 'reviewer' },
});

const waitFor = async (what: () => boolean, ms: number, why: string) => {
  const until = Date.now() + ms;
  while (!what()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${why}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** The vectors committed in the home's gate.db, read as another process would (0 before the table is made). */
function vectorsWritten(home: string): number {
  const db = new Database(join(home, 'gate.db'), { readonly: true, fileMustExist: true });
  try {
    return Number(db.prepare('SELECT count(*) FROM main.vector_values').pluck().get());
  } catch {
    return 0;
  } finally {
    db.close();
  }
}

describe('a gate killed while embedding', () => {
  it('embeds what it had not, at the next start', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText(`crash ${i}`), workarea: 'tests/crash', kind: 'memory', source_uri: 'test://c' });
      ids.push(r.result.artifact_id);
    }
    for (const id of ids.slice(0, 3)) {
      await gate.readBody(reviewer.key, id);
      await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id });
    }
    // A second request means the first batch was embedded; its vectors are written the embed
    // stage's write linger (100 ms) later, as the held second request adds none. Awaited as
    // committed rows another connection reads, not slept for (test/README.md, "Waiting").
    await waitFor(() => server.requests.length >= 2, 10_000, 'a second embeddings request');
    await waitFor(() => vectorsWritten(gate.home) >= 1, 30_000, "the first batch's vectors written");
    await gate.kill();

    server.behaviour = (req) => ({ status: 200, body: goodAnswer(req, DIMS) });
    const seen = gate.stderr.length;
    await gate.restart();
    await waitFor(() => gate.stderr.slice(seen).some((l) => l.includes('rows to embed')), 10_000, 'the start-up check');
    const start = /(\d+) searchable vectors, \d+ re-placed, (\d+) rows to embed/.exec(gate.stderr.slice(seen).join('\n'))!;
    const [kept, missing] = [Number(start[1]), Number(start[2])];
    expect(kept).toBeGreaterThanOrEqual(1);
    expect(missing).toBeGreaterThanOrEqual(1);
    expect(kept + missing).toBe(6);
    await waitFor(() => gate.stderr.slice(seen).some((l) => l.includes(`vector catch-up done: ${missing} rows embedded`)), 20_000, 'the catch-up');

    const rebuilt = await gate.socket('gv.rebuild', {});
    expect(rebuilt.result.equal).toBe(true);
    expect(rebuilt.result.vectors).toMatchObject({ model: `openai-compatible test-model d${DIMS}`, checked: 6, equal: 6, missing: 0, rewritten: 0 });
  });
});
