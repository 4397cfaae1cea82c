import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useGate } from '../harness/use-gate.js';
import { RerankServer, teiAnswer } from './rerank-server.js';

/**
 * The optional re-ranking stage (issue 37 part 3): with rerank.url set, a recall's best hits
 * go to a text-embeddings-inference style POST {url}/rerank and are shown in its order; a
 * late, failed or malformed answer leaves the recall's own order, and failures in a row
 * open a circuit that sends nothing until it half-opens. A real server on loopback.
 */
const CLAIMS = [
  'Deploy checklist: run the migrations before the deploy starts',
  'Deploy rollback: keep the previous release for one deploy',
  'Deploy window: no deploy on Fridays after noon',
  'Deploy notes: zebra crossing signs were repainted during the deploy',
];
const QUERY = 'deploy';
const TIMEOUT_MS = 400;

let server: RerankServer;
beforeAll(async () => {
  // By default the claim about zebras is the best, whatever the recall thought.
  server = await new RerankServer((req) => ({ status: 200, body: teiAnswer(req, (t) => (t.includes('zebra') ? 9 : t.length / 100)) })).start();
});
afterAll(async () => {
  await server?.stop();
});

const { gate } = useGate({
  kind: 'in-process',
  // The key the rerank backend's api_key_env names, in the environment the gate runs with.
  env: { GATE_TEST_RERANK_KEY: 'rk-test-only' },
  settings: () => ({
    'spaces.main_policy': 'auto',
    'review.quorum_profile': 'solo-reviewer',
    'rerank.url': server.url,
    'rerank.api_key_env': 'GATE_TEST_RERANK_KEY',
    'rerank.top_n': 4,
    'rerank.timeout_ms': TIMEOUT_MS,
    'rerank.circuit_failures': 2,
    'rerank.circuit_open_s': 60,
  }),
});

let agent: string;
type Hit = { body: string; signals: { lexical?: { rank: number }; rerank?: { rank: number; score: number } } };
const recall = async (k = 3): Promise<Hit[]> => {
  const answer = await gate.rpc(agent, 'gv.recall', { query: QUERY, mode: 'lexical', k });
  expect(answer.error).toBeUndefined();
  return answer.result.hits as Hit[];
};

beforeAll(async () => {
  agent = (await gate.issueKey('agent')).key;
  const reviewer = (await gate.issueKey('reviewer')).key;
  for (const [i, text] of CLAIMS.entries()) {
    const ingested = await gate.rpc(agent, 'gv.ingest', { content: text, kind: 'memory', workarea: 'deploy', source_uri: `test://deploy/${i}` });
    expect(ingested.error).toBeUndefined();
    const id = ingested.result.artifact_id as string;
    await gate.rpc(reviewer, 'gv.node', { artifact_id: id, body: true });
    const promoted = await gate.rpc(reviewer, 'gv.promote', { artifact_id: id });
    expect(promoted.result?.state, JSON.stringify(promoted.error)).toBe('ACTIVE');
  }
});

describe('the re-ranking stage', () => {
  let ownOrder: string[];

  it("shows the best top_n hits in the re-ranker's order, each with signals.rerank, and sends the query, the texts and the key", async () => {
    const hits = await recall(2);
    const sent = server.requests.at(-1)!;
    expect(sent.authorization).toBe('Bearer rk-test-only');
    expect(sent.body.query).toBe(QUERY);
    // All 4 matches (top_n) were ranked for k 2; the re-ranker chose the 2 shown.
    expect(sent.body.texts).toHaveLength(4);
    ownOrder = sent.body.texts;
    const scores = ownOrder.map((t) => (t.includes('zebra') ? 9 : t.length / 100));
    const expected = ownOrder.map((t, i) => ({ t, s: scores[i]! })).sort((a, b) => b.s - a.s).slice(0, 2);
    expect(hits.map((h) => h.body)).toEqual(expected.map((e) => e.t));
    // The re-ranker's order is not the recall's own: the zebra claim was last.
    expect(ownOrder.at(-1)).toContain('zebra');
    expect(hits[0]!.body).toContain('zebra');
    expect(hits.map((h) => h.signals.rerank)).toEqual(expected.map((e, i) => ({ rank: i + 1, score: e.s })));
    expect(hits[0]!.signals.lexical).toBeDefined();
  });

  it("answers in the recall's own order within the deadline when the re-ranker is late or malformed, and opens the circuit", async () => {
    server.behaviour = () => 'hold';
    const t0 = performance.now();
    const late = await recall();
    // The re-ranker holds its answer for good: that the recall answered at all is the deadline
    // ending the wait (a missing deadline fails as the test's timeout), and not before it. Not
    // timed from above (test/README.md, "Waiting").
    expect(performance.now() - t0).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(late.map((h) => h.body)).toEqual(ownOrder.slice(0, 3));
    expect(late.every((h) => h.signals.rerank === undefined)).toBe(true);

    server.behaviour = (req) => ({ status: 200, body: JSON.stringify([{ index: req.body.texts.length, score: 1 }]) });
    expect((await recall()).map((h) => h.body)).toEqual(ownOrder.slice(0, 3));

    // Two failures in a row: the circuit is open, and a recall sends nothing.
    server.behaviour = (req) => ({ status: 200, body: teiAnswer(req, (t) => (t.includes('zebra') ? 9 : 0)) });
    const asked = server.requests.length;
    const open = await recall();
    expect(server.requests.length).toBe(asked);
    expect(open.map((h) => h.body)).toEqual(ownOrder.slice(0, 3));
  });

  it('half-opens after circuit_open_s: one trial goes, and its good answer closes the circuit', async () => {
    gate.clock.advance(61_000);
    const asked = server.requests.length;
    const hits = await recall();
    expect(server.requests.length).toBe(asked + 1);
    expect(hits[0]!.body).toContain('zebra');
    expect(hits[0]!.signals.rerank!.rank).toBe(1);
    await recall();
    expect(server.requests.length).toBe(asked + 2);
  });

  it('a server answering 503 leaves the order as it was', async () => {
    server.behaviour = () => ({ status: 503, body: '{}' });
    expect((await recall()).map((h) => h.body)).toEqual(ownOrder.slice(0, 3));
  });
});
