import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddingsServer, goodAnswer, openaiFlags } from './embeddings-server.js';
import { layOver } from '../harness/process-overlay.js';
import { InProcessGate, query } from '../harness/in-process-gate.js';

const DIMS = 32;
let server: EmbeddingsServer;
let g: InProcessGate;
let lift = () => undefined as void;

beforeAll(async () => {
  // The key the backend's api_key_env names, in this process's environment while the gate runs.
  lift = layOver({ GATE_TEST_EMBED_KEY: 'sk-test-only-not-a-real-key' }).lift;
  server = await new EmbeddingsServer((req) => ({ status: 200, body: goodAnswer(req, DIMS) })).start();
  g = InProcessGate.open(openaiFlags(server.url, DIMS));
});
afterAll(async () => {
  await g?.close();
  await server?.stop();
  lift();
});

describe('the openai embeddings backend', () => {
  it('embeds rows and queries through POST {url}/embeddings with the configured model, dimensions and key', async () => {
    const tomato = await g.ingest('Tomato plants need six hours of direct sunlight a day to ripen.');
    await g.ingest('Rotate the deploy credentials every ninety days and revoke the old ones.');
    await g.settled();
    expect(g.gate.recall.vector.ready).toEqual({ model: `openai-compatible test-model d${DIMS}`, indexed: 2, pending: 0 });
    const first = server.requests[0]!;
    expect(first.authorization).toBe('Bearer sk-test-only-not-a-real-key');
    expect(first.body).toMatchObject({ model: 'test-model', dimensions: DIMS, encoding_format: 'float' });
    const asked = server.requests.length;
    const hits = await g.gate.recall.vector.ownHeld(query('how much sun do tomatoes need'), g.agent.identity);
    expect(hits[0]!.rowid).toBe(tomato.rowid);
    // The query itself went to the server.
    expect(server.requests.slice(asked).map((r) => r.body.input)).toEqual([['how much sun do tomatoes need']]);
  });
});
