import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddingsServer, goodAnswer, openaiFlags } from './embeddings-server.js';
import { layOver } from '../harness/process-overlay.js';
import { InProcessGate } from '../harness/in-process-gate.js';

const DIMS = 16;
let server: EmbeddingsServer;
let g: InProcessGate;
let lift = () => undefined as void;

beforeAll(async () => {
  // The key the backend's api_key_env names, in this process's environment while the gate runs.
  lift = layOver({ GATE_TEST_EMBED_KEY: 'sk-test-only-not-a-real-key' }).lift;
  // Vectors of the wrong length: an answer that parses but is not what was asked.
  server = await new EmbeddingsServer((req) => ({
    status: 200,
    body: JSON.stringify({ data: req.body.input.map((_, index) => ({ index, embedding: [0.5, 0.5] })) }),
  })).start();
  g = InProcessGate.open(openaiFlags(server.url, DIMS));
});
afterAll(async () => {
  await g?.close();
  await server?.stop();
  lift();
});

const waitFor = async (what: () => boolean, ms: number) => {
  const until = Date.now() + ms;
  while (!what()) {
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('a malformed embeddings answer', () => {
  it('leaves the row without a vector, is logged, and the row is embedded on a later try', async () => {
    await g.ingest('Never commit API keys to the repository; load them from the environment.');
    await waitFor(() => g.lines.some((l) => l.includes('not embedded')), 10_000);
    expect(g.lines.join('\n')).toMatch(/1 rows not embedded \(retried in 5 s\): embeddings answer refused: an embedding of 2 dimensions, 16 configured/);
    expect(g.gate.recall.vector.ready).toMatchObject({ indexed: 0, pending: 1 });
    // gv.queues counts the row waiting for its retry as queued, aging from when it first queued.
    const failed = g.gate.pipeline.embed.reading();
    expect(failed).toMatchObject({ queued: 1, running: 0, bound: null, room: null });
    await new Promise((r) => setTimeout(r, 50));
    expect(g.gate.pipeline.embed.reading().oldest_wait_ms).toBeGreaterThanOrEqual(failed.oldest_wait_ms! + 40);
    server.behaviour = (req) => ({ status: 200, body: goodAnswer(req, DIMS) });
    await waitFor(() => g.gate.recall.vector.ready.indexed === 1, 20_000);
    expect(g.gate.recall.vector.ready.pending).toBe(0);
    expect(g.gate.pipeline.embed.reading()).toMatchObject({ queued: 0, running: 0, oldest_wait_ms: null });
    expect(server.requests).toHaveLength(2);
  }, 30_000);
});
