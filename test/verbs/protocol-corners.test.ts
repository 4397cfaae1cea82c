import { describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

// Rules of docs/protocol.md that hold without any other test saying so: each test here fails
// when its rule breaks. One in-process gate for all of them.
const { gate, keys } = useGate({ kind: 'in-process', keys: { runner: 'runner', agent: 'agent', reviewer: 'reviewer', reader: 'reader' } });

const claim = (text: string, extra: Record<string, unknown> = {}) => ({ content: uniqueText(text), workarea: 'corners', kind: 'memory', source_uri: 'test://corners', ...extra });

describe('a runner key is good for the runner verbs alone (docs/protocol.md#credentials-and-roles)', () => {
  it('is refused gv.recall and gv.ingest, naming the role each needs', async () => {
    const recall = await gate.rpc(keys.runner.key, 'gv.recall', { query: 'anything' });
    expect(recall.error).toMatchObject({ code: -32602, data: { required: 'reader', role: 'runner' } });
    const ingest = await gate.rpc(keys.runner.key, 'gv.ingest', claim('a runner writes'));
    expect(ingest.error).toMatchObject({ code: -32602, data: { required: 'agent', role: 'runner' } });
  });

  it('is refused at /mcp before any tool is listed or called; an agent key on the same door is served', async () => {
    for (const body of [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'gate.recall', arguments: { query: 'anything' } } },
    ]) {
      const refused = await gate.http('POST', '/mcp', { key: keys.runner.key, body });
      expect(refused.status).toBe(403);
      expect(refused.json).toMatchObject({ kind: 'role' });
      expect(refused.text).not.toContain('gate.remember');
    }
    const served = await gate.http('POST', '/mcp', { key: keys.agent.key, body: { jsonrpc: '2.0', id: 3, method: 'tools/list' } });
    expect(served.status).toBe(200);
    expect(served.text).toContain('gate.remember');
  });

  it('still calls a runner verb: the refusal there is the verb’s own, not the role’s', async () => {
    const token = await gate.rpc(keys.runner.key, 'gv.runner_token', {});
    expect(token.error?.data?.role).toBeUndefined();
  });
});

describe('gv.describe reports the deployment mode', () => {
  it('production by default, in its own field', async () => {
    const described = await gate.rpc(keys.reader.key, 'gv.describe', {});
    expect(described.result.deployment_mode).toBe('production');
  });
});

describe('gv.approval of a RECORDED row', () => {
  it('answers not_applicable: evidence is recorded, never approved', async () => {
    const recorded = await gate.rpc(keys.agent.key, 'gv.ingest', { content: uniqueText('{"tool":"ls","args":["-l"]}'), workarea: 'corners', content_type: 'tool_call', source_uri: 'test://corners/tool' });
    expect(recorded.result.state).toBe('RECORDED');
    const approval = await gate.rpc(keys.agent.key, 'gv.approval', { artifact_id: recorded.result.artifact_id });
    expect(approval.result.status).toBe('not_applicable');
  });
});

describe('bulk defer takes 1 to 100 ids', () => {
  it('refuses an empty list and 101 ids, naming the field', async () => {
    const empty = await gate.rpc(keys.reviewer.key, 'gv.defer', { artifact_ids: [] });
    expect(empty.error).toMatchObject({ code: -32602, data: { field: 'artifact_ids' } });
    const ids = Array.from({ length: 101 }, (_, i) => `sha256:${i.toString(16).padStart(64, '0')}`);
    const tooMany = await gate.rpc(keys.reviewer.key, 'gv.defer', { artifact_ids: ids });
    expect(tooMany.error).toMatchObject({ code: -32602, data: { field: 'artifact_ids' } });
    expect(tooMany.error.message).toMatch(/1 to 100/);
  });
});

describe('a work area is at most 200 characters (docs/protocol.md#spaces-work-areas-and-other-resources)', () => {
  it('refuses 8 segments of 64 characters though each segment is in the grammar, and takes 200', async () => {
    const long = Array.from({ length: 8 }, (_, i) => `${i}`.padEnd(64, 'a')).join('/');
    expect(long.length).toBeGreaterThan(200);
    const refused = await gate.rpc(keys.agent.key, 'gv.ingest', claim('a long area', { workarea: long }));
    expect(refused.error).toMatchObject({ code: -32602 });
    expect(refused.error.message).toMatch(/at most 200 characters/);
    const atLimit = ['a'.padEnd(64, 'b'), 'c'.padEnd(64, 'd'), 'e'.padEnd(64, 'f'), 'g'.padEnd(5, 'h')].join('/');
    expect(atLimit.length).toBe(200);
    const taken = await gate.rpc(keys.agent.key, 'gv.ingest', claim('an area of 200', { workarea: atLimit }));
    expect(taken.error).toBeUndefined();
  });
});

describe('pages and ceilings over more rows than they serve', () => {
  const ROWS = 2_001;
  it(`the inventory defaults to 50 and clamps at 200; the graph serves at most 2,000 nodes of ${ROWS}`, async () => {
    // Fifty at a time (a key may have 64 requests in flight): each answer waits for its group commit, and fifty share one.
    for (let start = 0; start < ROWS; start += 50) {
      const batch = Array.from({ length: Math.min(50, ROWS - start) }, (_, i) => gate.rpc(keys.agent.key, 'gv.ingest', claim(`row ${start + i} of the ceiling test`)));
      for (const r of await Promise.all(batch)) expect(r.error).toBeUndefined();
    }
    const byDefault = await gate.rpc(keys.reviewer.key, 'gv.inventory', {});
    expect(byDefault.result.limit).toBe(50);
    expect(byDefault.result.artifacts).toHaveLength(50);
    expect(byDefault.result.total).toBeGreaterThanOrEqual(ROWS);
    const clamped = await gate.rpc(keys.reviewer.key, 'gv.inventory', { limit: 1_000 });
    expect(clamped.result.limit).toBe(200);
    expect(clamped.result.artifacts).toHaveLength(200);
    const graph = await gate.rpc(keys.reviewer.key, 'gv.graph', { spaces: ['main'], limit: 5_000 });
    expect(graph.error).toBeUndefined();
    expect(graph.result.nodes).toHaveLength(2_000);
    expect(graph.result.total).toBeGreaterThanOrEqual(ROWS);
  }, 180_000);
});
