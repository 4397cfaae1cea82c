import { describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { tool, toolRefusal } from '../harness/mcp-calls.js';
import { useGate } from '../harness/use-gate.js';

const { gate } = useGate({ kind: 'in-process' });

const base = () => ({ content: uniqueText('remember'), content_type: 'memory', source_uri: 'test://remember', workarea: 'remember/a' });

describe('gate.remember', () => {
  it('a kind enters scanned clean: {artifact_id, state, sub_level L1, findings_count}', async () => {
    const r = await tool(gate, 'remember', base());
    expect(r.artifact_id).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(r).toMatchObject({ state: 'L1_SCANNED', sub_level: 'L1', findings_count: 0, space: 'main', workarea: 'remember/a' });
  });

  it('a scanner finding is sub_level L1b', async () => {
    const r = await tool(gate, 'remember', {
      ...base(),
      content: `${uniqueText('ci')}\n    git remote set-url origin https://x:ghp_TestOnlyNotARealTokenx7Kq2Zp9Lm4Rv8W@github.com/acme/gate.git`,
    });
    expect(r.state).toBe('L1B_FLAGGED');
    expect(r.sub_level).toBe('L1b');
    expect(r.findings_count).toBeGreaterThan(0);
  });

  it('a recorded-path class is RECORDED, with no sub-level', async () => {
    const r = await tool(gate, 'remember', { ...base(), content_type: 'tool_call' });
    expect(r.state).toBe('RECORDED');
    expect(r.sub_level).toBeUndefined();
  });

  it('any other content_type is refused by name', async () => {
    for (const content_type of ['question', 'answer', 'bundle_skill', 'poem']) {
      const e = await toolRefusal(gate, 'remember', { ...base(), content_type });
      expect(e.code).toBe(-32602);
      expect(e.data.field).toBe('content_type');
    }
  });

  it('the client tier refuses a write naming no work area', async () => {
    const { workarea: _w, ...noArea } = base();
    const e = await toolRefusal(gate, 'remember', noArea);
    expect(e.data.field).toBe('workarea');
    expect(e.message).toBe('missing field: workarea');
  });

  it('trust_class, writer_identity and deployment_id are refused by name', async () => {
    for (const field of ['trust_class', 'writer_identity', 'deployment_id']) {
      const e = await toolRefusal(gate, 'remember', { ...base(), [field]: 'x' });
      expect(e.code).toBe(-32602);
      expect(e.data.field).toBe(field);
      expect(e.message).toContain(field);
    }
  });

  it('additional properties and null are refused by name', async () => {
    expect((await toolRefusal(gate, 'remember', { ...base(), kind: 'memory' })).message).toBe('unlisted field: kind');
    const n = await toolRefusal(gate, 'remember', { ...base(), space: null });
    expect(n.data.field).toBe('space');
    expect((await toolRefusal(gate, 'remember', { ...base(), producer: { name: 'main', kind: 'agent', extra: 1 } })).data.field).toBe('producer.extra');
  });

  it('addressed_to is for steering only', async () => {
    const e = await toolRefusal(gate, 'remember', { ...base(), addressed_to: { kinds: ['agent'] } });
    expect(e.data.field).toBe('addressed_to');
    const ok = await tool(gate, 'remember', { ...base(), content_type: 'steering', addressed_to: { names: ['reviewer-bot'] } });
    expect(ok.state).toBe('L1_SCANNED');
    expect((await toolRefusal(gate, 'remember', { ...base(), content_type: 'steering', addressed_to: {} })).data.field).toBe('addressed_to');
  });

  it('derives_from is a list of readable parents; producer is {name, kind}', async () => {
    const parent = await tool(gate, 'remember', base());
    const child = await tool(gate, 'remember', { ...base(), derives_from: [parent.artifact_id], producer: { name: 'main', kind: 'agent' } });
    expect(child.state).toBe('L1_SCANNED');
    expect((await toolRefusal(gate, 'remember', { ...base(), derives_from: parent.artifact_id })).data.field).toBe('derives_from');
    expect((await toolRefusal(gate, 'remember', { ...base(), producer: { name: 'main' } })).data.field).toBe('producer.kind');
  });

  it('the same bytes again answer duplicate with the first id', async () => {
    const args = base();
    const first = await tool(gate, 'remember', args);
    const again = await tool(gate, 'remember', args);
    expect(again).toMatchObject({ artifact_id: first.artifact_id, duplicate: true });
  });

  it('a reader key is refused naming both roles', async () => {
    const reader = await gate.key('reader');
    const e = await toolRefusal(gate, 'remember', base(), reader.key);
    expect(e.code).toBe(-32602);
    expect(e.data).toMatchObject({ required: 'agent', role: 'reader' });
  });

  it('content is not retrievable by another identity until ratified', async () => {
    const writer = await gate.key('agent');
    const other = await gate.key('agent');
    const text = uniqueText('secret plan');
    const r = await tool(gate, 'remember', { ...base(), content: text }, writer.key);
    const mine = await tool(gate, 'recall', { query: text, k: 5 }, writer.key);
    expect(mine.results.map((h: any) => h.artifact_id)).toContain(r.artifact_id);
    const theirs = await tool(gate, 'recall', { query: text, k: 5 }, other.key);
    expect(theirs.results.map((h: any) => h.artifact_id)).not.toContain(r.artifact_id);
    expect(JSON.stringify(theirs)).not.toContain(text);
    const e = await toolRefusal(gate, 'status', { artifact_id: r.artifact_id }, other.key);
    expect(e.message).toBe(`unknown artifact: ${r.artifact_id.slice(0, 16)}`);
  });
});
