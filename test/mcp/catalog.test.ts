import { describe, expect, it } from 'vitest';
import { mcpPost } from '../harness/mcp-calls.js';
import { useGate } from '../harness/use-gate.js';

const { gate } = useGate({ kind: 'in-process', env: { GATE_MCP_KEYLESS_LOOPBACK: 'false' } });

describe('GET /mcp/catalog.json', () => {
  it('is public and generated from the registry: every verb, the methods, envelopes, content union and tiers', async () => {
    const res = await gate.http('GET', '/mcp/catalog.json');
    expect(res.status).toBe(200);
    const c = res.json;
    const described = (await gate.socket('gv.describe')).result.verbs.map((v: any) => v.name);
    expect(c.verbs.map((v: any) => v.name)).toEqual(described);
    for (const v of c.verbs) expect(v.params.type, v.name).toBe('object');
    expect(Object.keys(c.methods)).toEqual(['server/discover', 'tools/list', 'tools/call']);
    expect(Object.keys(c.envelopes)).toEqual(['request', 'response', 'error', 'tool_result', 'tool_error']);
    expect(c.content.oneOf.map((u: any) => u.title)).toEqual(['kind', 'recorded-path class', 'question/1', 'answer/1', 'crew_sheet/1']);
    expect(c.protocol.versions).toEqual(['2026-07-28']);
    for (const tier of ['client', 'plugin']) {
      for (const t of c.tiers[tier].tools) expect(described, `${t.name} maps onto ${t.verb}`).toContain(t.verb);
    }
    expect(c.tiers.plugin.tools.map((t: any) => t.name)).toEqual([
      'gate.remember', 'gate.recall', 'gate.status', 'gate.pending', 'gate.workarea', 'gate.complete', 'gate.workarea_relate', 'gate.lineage',
    ]);
    // The plugin tier's remember defaults its work area; the client tier's requires one.
    const remember = (tier: string) => c.tiers[tier].tools.find((t: any) => t.name === 'gate.remember');
    expect(remember('client').inputSchema.required).toContain('workarea');
    expect(remember('plugin').inputSchema.required).not.toContain('workarea');
  });

  it("the client tier's tools are exactly what tools/list serves", async () => {
    const agent = await gate.key('agent');
    const catalog = (await gate.http('GET', '/mcp/catalog.json')).json;
    const listed = (await mcpPost(gate, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { key: agent.key })).json.result.tools;
    expect(catalog.tiers.client.tools.map(({ verb: _v, ...t }: any) => t)).toEqual(listed);
  });
});
