import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { tool, toolRefusal } from '../harness/mcp-calls.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent, reviewer } } = useGate({ kind: 'in-process', keys: { agent: 'agent', reviewer: 'reviewer' } });

let promoted: string;
let held: string;
const marker = `zebracorn${process.pid}`;

beforeAll(async () => {
  const a = await tool(gate, 'remember', { content: `${marker} promoted ${uniqueText()}`, content_type: 'memory', source_uri: 'test://recall', workarea: 'recall/a' }, agent.key);
  await gate.readBody(reviewer.key, a.artifact_id);
  await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: a.artifact_id });
  promoted = a.artifact_id;
  held = (await tool(gate, 'remember', { content: `${marker} held ${uniqueText()}`, content_type: 'memory', source_uri: 'test://recall', workarea: 'recall/a' }, agent.key)).artifact_id;
});

describe('gate.recall', () => {
  it('ranked hits are in results, own held rows after them with held true and ratified false', async () => {
    const r = await tool(gate, 'recall', { query: marker }, agent.key);
    expect(r.scope).toBe('space');
    expect(r.answered_by.level).toBe('space');
    const ids = r.results.map((h: any) => h.artifact_id);
    expect(ids).toEqual([promoted, held]);
    expect(r.results[1]).toMatchObject({ held: true, provenance: { ratified: false, unreviewed: true } });
    expect(r.results[0]).toMatchObject({ held: false, workarea: 'recall/a', provenance: { ratified: true } });
    expect(r.hits).toBeUndefined();
  });

  it('include_evidence false leaves provenance and signals out', async () => {
    const r = await tool(gate, 'recall', { query: marker, include_evidence: false }, agent.key);
    expect(r.results.length).toBe(2);
    for (const h of r.results) {
      expect(h.provenance).toBeUndefined();
      expect(h.signals).toBeUndefined();
      expect(h.held).toBeTypeOf('boolean');
    }
  });

  it('audience null is the default; include_own_pending false drops held rows', async () => {
    const r = await tool(gate, 'recall', { query: marker, audience: null, include_own_pending: false }, agent.key);
    expect(r.results.map((h: any) => h.artifact_id)).toEqual([promoted]);
  });

  it('a work-area recall names the scope, level and distance', async () => {
    const r = await tool(gate, 'recall', { query: marker, workarea: 'recall/a/deeper' }, agent.key);
    expect(r.scope).toBe('closest');
    expect(r.answered_by).toMatchObject({ level: 'workarea', workarea: 'recall/a', distance: 1 });
    expect(r.results[0].distance).toBe(1);
    expect(r.steering).toEqual([]);
  });

  it('the input rules: k at most 100, steering_k 1 to 20, known scopes, no unlisted field', async () => {
    expect((await toolRefusal(gate, 'recall', { query: marker, k: 101 })).data.field).toBe('k');
    expect((await toolRefusal(gate, 'recall', { query: marker, workarea: 'recall/a', steering_k: 21 })).data.field).toBe('steering_k');
    expect((await toolRefusal(gate, 'recall', { query: marker, scope: 'everywhere' })).data.field).toBe('scope');
    expect((await toolRefusal(gate, 'recall', { query: marker, mode: 'vector' })).message).toBe('unlisted field: mode');
    expect((await toolRefusal(gate, 'recall', { query: marker, scope: 'all', workarea: 'recall/a' })).code).toBe(-32602);
    expect((await toolRefusal(gate, 'recall', { query: marker, space: 'nowhere' })).message).toContain('nowhere');
  });
});
