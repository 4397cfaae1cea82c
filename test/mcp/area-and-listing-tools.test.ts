import { describe, expect, it } from 'vitest';
import { KEYS_PROMOTE, uniqueText } from '../harness/gate-process.js';
import { tool, toolRefusal } from '../harness/mcp-calls.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent } } = useGate({ kind: 'in-process', keys: { agent: 'agent' } });

const write = (workarea: string, content = uniqueText('area')) =>
  tool(gate, 'remember', { content, content_type: 'memory', source_uri: 'test://area', workarea }, agent.key);

describe('gate.pending and gate.spaces', () => {
  it('pending: metadata in pending, findings as finding groups (one per scan and kind)', async () => {
    const clean = await write('pending/a');
    // Two tokens of one kind in one scan: two findings, one finding group.
    const flagged = await write(
      'pending/a',
      `${uniqueText('ci')}\nold: https://x:ghp_TestOnlyNotARealTokenx7Kq2Zp9Lm4Rv8W@github.com/a.git\nnew: https://x:ghp_TestOnlyNotARealTokenx7Kq2Zp9Lm4Rv8Q@github.com/a.git`,
    );
    const p = await tool(gate, 'pending', {}, agent.key);
    const byId = new Map(p.pending.map((x: any) => [x.artifact_id, x]));
    expect(byId.get(clean.artifact_id)).toMatchObject({ state: 'L1_SCANNED', findings_count: 0, findings: 0 });
    const f = byId.get(flagged.artifact_id) as any;
    expect(f.findings_count).toBeGreaterThanOrEqual(2);
    expect(f.findings).toBe(1);
    expect(JSON.stringify(p)).not.toContain('ghp_');
    expect(p.truncated).toBe(false);
    expect((await tool(gate, 'pending', { limit: 1 }, agent.key)).pending.length).toBe(1);
    expect((await toolRefusal(gate, 'pending', { limit: 1001 })).data.field).toBe('limit');
  });

  it('spaces: name, owner, policy and count; no input', async () => {
    const s = await tool(gate, 'spaces', {}, agent.key);
    expect(s.spaces.find((x: any) => x.name === 'main')).toMatchObject({ owner: 'operator', policy: KEYS_PROMOTE.GATE_SPACES_MAIN_POLICY });
    expect((await toolRefusal(gate, 'spaces', { name: 'new' })).message).toBe('unlisted field: name');
  });
});

describe('gate.workarea, gate.complete, gate.workarea_relate, gate.lineage', () => {
  it('workarea: own rows, counts and open; an area never written into is refused', async () => {
    const r = await write('areas/one');
    const w = await tool(gate, 'workarea', { workarea: 'areas/one' }, agent.key);
    expect(w).toMatchObject({ workarea: 'areas/one', state: 'open', identity: agent.identity });
    expect(w.own.map((x: any) => x.artifact_id)).toEqual([r.artifact_id]);
    expect((await toolRefusal(gate, 'workarea', { workarea: 'areas/never' }, agent.key)).data.field).toBe('workarea');
    expect((await toolRefusal(gate, 'workarea', { workarea: '' }, agent.key)).data.field).toBe('workarea');
  });

  it('complete: idempotent, then writes there are refused -32010 work_complete', async () => {
    await write('areas/done');
    const first = await tool(gate, 'complete', { workarea: 'areas/done', note: 'finished' }, agent.key);
    expect(first).toMatchObject({ name: 'areas/done', state: 'complete', changed: true });
    expect((await tool(gate, 'complete', { workarea: 'areas/done' }, agent.key)).changed).toBe(false);
    const e = await toolRefusal(gate, 'remember', { content: uniqueText(), content_type: 'memory', source_uri: 'test://x', workarea: 'areas/done' }, agent.key);
    expect(e).toMatchObject({ code: -32010, data: { reason: 'work_complete' } });
    expect((await tool(gate, 'workarea', { workarea: 'areas/done' }, agent.key)).state).toBe('complete');
  });

  it('workarea_relate: opened_by between own areas; repeating changes nothing; cycles refused', async () => {
    await write('areas/parent');
    await write('areas/child');
    const r = await tool(gate, 'workarea_relate', { workarea: 'areas/child', kind: 'opened_by', target: 'areas/parent' }, agent.key);
    expect(r).toMatchObject({ kind: 'opened_by', changed: true });
    expect((await tool(gate, 'workarea_relate', { workarea: 'areas/child', kind: 'opened_by', target: 'areas/parent' }, agent.key)).changed).toBe(false);
    const cycle = await toolRefusal(gate, 'workarea_relate', { workarea: 'areas/parent', kind: 'continues', target: 'areas/child' }, agent.key);
    expect(cycle.data.reason).toBe('cycle');
    expect((await toolRefusal(gate, 'workarea_relate', { workarea: 'areas/child', kind: 'unlinks', target: 'areas/parent' }, agent.key)).data.field).toBe('kind');
  });

  it('lineage: the areas as a graph with the declared edge', async () => {
    const l = await tool(gate, 'lineage', {}, agent.key);
    expect(l.space).toBe('main');
    expect(l.nodes.map((n: any) => n.name)).toEqual(expect.arrayContaining(['areas/child', 'areas/parent']));
    expect(l.edges).toContainEqual(expect.objectContaining({ source: 'areas/child', target: 'areas/parent', provenance: 'declared', kind: 'opened_by' }));
  });
});
