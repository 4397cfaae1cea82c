import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { tool, toolRefusal } from '../harness/mcp-calls.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent, reviewer } } = useGate({ kind: 'in-process', keys: { agent: 'agent', reviewer: 'reviewer' } });

let id: string;

beforeAll(async () => {
  id = (await tool(gate, 'remember', { content: uniqueText('row'), content_type: 'memory', source_uri: 'test://row', workarea: 'rows/a' }, agent.key)).artifact_id;
  await gate.readBody(reviewer.key, id);
  await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id });
});

describe('gate.status, gate.why, gate.tip', () => {
  it('status: the position is in state, with its reason', async () => {
    const s = await tool(gate, 'status', { artifact_id: id }, agent.key);
    expect(s).toMatchObject({ artifact_id: id, state: 'ACTIVE', reason: 'provisional', ratified: true, held: false });
  });

  it('operands are read with or without sha256:', async () => {
    const s = await tool(gate, 'status', { artifact_id: id.slice(7) }, agent.key);
    expect(s.artifact_id).toBe(id);
    expect((await toolRefusal(gate, 'status', { artifact_id: 'sha256:xyz' })).data.field).toBe('artifact_id');
  });

  it('why: every event that moved the row, in order, signed, in events', async () => {
    const w = await tool(gate, 'why', { artifact_id: id }, agent.key);
    expect(w.events.map((e: any) => e.type)).toEqual(['ingest', 'scan', 'promote']);
    for (const e of w.events) expect(e.verified).toBe(true);
  });

  it('tip: the served head, the chain and no pin', async () => {
    const t = await tool(gate, 'tip', { artifact_id: id }, agent.key);
    expect(t).toMatchObject({ artifact_id: id, head: id, pin: null });
    expect(t.chain.map((m: any) => m.artifact_id)).toEqual([id]);
  });

  it('an id naming no row is rule U, the same sentence for each tool', async () => {
    const missing = `sha256:${'0'.repeat(64)}`;
    for (const name of ['status', 'why', 'tip']) {
      const e = await toolRefusal(gate, name, { artifact_id: missing });
      expect(e).toEqual({ code: -32602, message: `unknown artifact: ${missing.slice(0, 16)}` });
    }
  });

  it('artifact_id is required and alone', async () => {
    expect((await toolRefusal(gate, 'why', {})).message).toBe('missing field: artifact_id');
    expect((await toolRefusal(gate, 'tip', { artifact_id: id, body: true })).message).toBe('unlisted field: body');
  });
});
