import { beforeAll, describe, expect, it } from 'vitest';
import { useGate } from '../harness/use-gate.js';

// A hybrid recall reads its lexical list 50 deep for the fusion, but widens it past the rows
// holding every query term (to rows holding some) only while fewer than k rows stand.
const tag = Date.now().toString(36);
const both = `larchwood${tag} tamarack${tag}`;

const { gate, keys: { agent } } = useGate({ kind: 'unit', keys: { agent: 'agent' } });

let partial: string;

beforeAll(async () => {
  const reviewer = await gate.key('reviewer');
  const promoted = async (content: string) => {
    const ingest = await gate.rpc(agent.key, 'gv.ingest', { content, workarea: 'tests/widen', kind: 'memory', source_uri: 'test://widen' });
    if (ingest.error) throw new Error(ingest.error.message);
    await gate.readBody(reviewer.key, ingest.result.artifact_id);
    const promote = await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: ingest.result.artifact_id });
    if (promote.error) throw new Error(promote.error.message);
    return ingest.result.artifact_id as string;
  };
  // Nearest the query by its characters (a vector match), but holding only one of its terms.
  partial = await promoted(`larchwood${tag} tamarac${tag}`);
  for (let i = 0; i < 12; i++) await promoted(`Row ${i}: ${both} stand together on the ridge.`);
});

const lexicalSignalOf = async (k: number, mode: string) => {
  const r = await gate.rpc(agent.key, 'gv.recall', { query: both, mode, k, include_own_pending: false });
  if (r.error) throw new Error(r.error.message);
  const hit = r.result.hits.find((h: { artifact_id: string }) => h.artifact_id === partial);
  return hit === undefined ? 'absent' : hit.signals.lexical === undefined ? 'no lexical signal' : 'lexical signal';
};

describe('hybrid recall widens its lexical list only to fill k', () => {
  it('with k rows holding every term, a row holding some is not read by the lexical list', async () => {
    expect(['absent', 'no lexical signal']).toContain(await lexicalSignalOf(10, 'hybrid'));
  });

  it('with fewer than k such rows, the lexical list is widened and reaches it', async () => {
    expect(await lexicalSignalOf(20, 'hybrid')).toBe('lexical signal');
    expect(await lexicalSignalOf(20, 'lexical')).toBe('lexical signal');
  });
});
