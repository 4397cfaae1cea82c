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
  // The first request is told to come back in one second; the second is answered.
  server = await new EmbeddingsServer((req, n) =>
    n === 1
      ? { status: 429, headers: { 'retry-after': '1' }, body: '{"error": {"message": "rate limited"}}' }
      : { status: 200, body: goodAnswer(req, DIMS) },
  ).start();
  g = InProcessGate.open(openaiFlags(server.url, DIMS));
});
afterAll(async () => {
  await g?.close();
  await server?.stop();
  lift();
});

describe('an embeddings server answering 429 with Retry-After', () => {
  it('is asked again after the wait, and the row gets its vector', async () => {
    await g.ingest('Return 429 with a Retry-After header when a client exceeds its rate limit.');
    await g.settled(15_000);
    expect(g.gate.recall.vector.ready).toMatchObject({ indexed: 1, pending: 0 });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(950);
    expect(server.requests[1]!.body).toEqual(server.requests[0]!.body);
    expect(g.lines.filter((l) => l.startsWith('error'))).toEqual([]);
  }, 30_000);
});
