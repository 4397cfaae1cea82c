import { beforeAll, describe, expect, it } from 'vitest';
import { useGate } from '../harness/use-gate.js';

/**
 * Lexical recall's BM25 takes Anserini's k1 0.9 and b 0.4 (native/bm25-known-df.c), not
 * FTS5's 1.2 and 0.75: a long claim saying both of a query's words ranks above a three-word
 * claim saying one of them as often. At FTS5's parameters the short claim came first (its
 * length made its one word count more than both of the long claim's together): the case
 * LoCoMo's short replies ("Gina: Remember Jon, just do it!") showed. Through gv.recall on a
 * served gate.
 */
const SHORT = 'Kayak again today';
const LONG =
  'We rented a kayak on Sunday and paddled slowly across the quiet lagoon near the old harbour, stopping twice to watch the herons before we headed back to the car park for lunch';
const CLAIMS = [
  SHORT,
  LONG,
  'The kayak club meets on Thursdays at the pier',
  'The lagoon was calm and green at sunrise',
  'Someone swam in the lagoon before breakfast',
  'The train to the coast leaves at nine every morning',
  'Bring a warm jacket because the wind picks up after noon',
  'The bakery on the corner sells rye bread on Fridays',
  'Our neighbour repainted the fence a pale shade of blue',
  'The library closes early on the first Monday of the month',
  'A new bus stop was added outside the school last week',
  'The garden needs watering twice a day in the summer heat',
  'Tickets for the concert went on sale this afternoon',
  'The old bridge is closed for repairs until the spring',
];

const { gate, keys: { agent, reviewer } } = useGate({ kind: 'unit', keys: { agent: 'agent', reviewer: 'reviewer' } });

beforeAll(async () => {
  for (const [i, text] of CLAIMS.entries()) {
    const ingested = await gate.rpc(agent.key, 'gv.ingest', { content: text, kind: 'memory', workarea: 'length', source_uri: `test://length/${i}` });
    expect(ingested.error, text).toBeUndefined();
    const id = ingested.result.artifact_id as string;
    await gate.readBody(reviewer.key, id);
    expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id })).result?.state, text).toBe('ACTIVE');
  }
}, 60_000);

describe('bm25 over claims of unequal length', () => {
  it('ranks a long claim holding both query words above a short claim holding one', async () => {
    const answer = await gate.rpc(agent.key, 'gv.recall', { query: 'kayak lagoon', mode: 'lexical', k: 10 });
    expect(answer.error).toBeUndefined();
    const bodies = (answer.result.hits as Array<{ body: string }>).map((h) => h.body);
    expect(bodies).toContain(SHORT);
    expect(bodies[0]).toBe(LONG);
  });
});
