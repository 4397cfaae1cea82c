import { describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { uniqueText } from '../harness/gate-process.js';
import { mcpPost } from '../harness/mcp-calls.js';
import { useGate } from '../harness/use-gate.js';

const { gate } = useGate({ kind: 'in-process' });

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

describe('POST /mcp serves 2026-07-28 to the v2 SDK client, unmodified', () => {
  it('discover, listTools and callTool', async () => {
    const client = new Client({ name: 'conformance', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gate.url}/mcp`)));
    const discovered = await client.discover();
    expect(discovered.supportedVersions).toEqual(['2026-07-28']);
    expect(discovered.capabilities.tools).toBeDefined();
    expect(discovered._meta?.[SERVER_INFO]).toMatchObject({ name: 'gate' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'gate.remember', 'gate.recall', 'gate.status', 'gate.why', 'gate.tip', 'gate.pending', 'gate.spaces',
      'gate.workarea', 'gate.complete', 'gate.workarea_relate', 'gate.lineage',
    ]);
    for (const t of tools) expect(t.outputSchema, t.name).toBeDefined();
    // The SDK client checks structuredContent against the advertised output schema.
    const remembered = await client.callTool({
      name: 'gate.remember',
      arguments: { content: uniqueText('sdk'), content_type: 'memory', source_uri: 'test://sdk', workarea: 'sdk/a' },
    });
    expect(remembered.isError).toBe(false);
    expect(remembered.structuredContent).toMatchObject({ state: 'L1_SCANNED', sub_level: 'L1' });
    expect(JSON.parse((remembered.content as { text: string }[])[0]!.text)).toEqual(remembered.structuredContent);
    const status = await client.callTool({ name: 'gate.status', arguments: { artifact_id: (remembered.structuredContent as any).artifact_id } });
    expect((status.structuredContent as any).state).toBe('L1_SCANNED');
    await client.close();
  });
});

describe('a bare client (no protocol header, no _meta) is served as 2026-07-28', () => {
  it('server/discover answers supportedVersions, capabilities, ttlMs, cacheScope and serverInfo in _meta', async () => {
    const res = await mcpPost(gate, { jsonrpc: '2.0', id: 7, method: 'server/discover' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(res.json).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      result: {
        resultType: 'complete',
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {} },
        _meta: { [SERVER_INFO]: { name: 'gate' } },
      },
    });
    expect(typeof res.json.result.ttlMs).toBe('number');
    expect(typeof res.json.result.cacheScope).toBe('string');
  });

  it('tools/list carries ttlMs and cacheScope and every tool an input and an output schema', async () => {
    const res = await mcpPost(gate, { jsonrpc: '2.0', id: 8, method: 'tools/list' });
    expect(res.status).toBe(200);
    expect(res.json.result.resultType).toBe('complete');
    expect(typeof res.json.result.ttlMs).toBe('number');
    expect(typeof res.json.result.cacheScope).toBe('string');
    for (const t of res.json.result.tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.inputSchema.additionalProperties, t.name).toBe(false);
      expect(t.outputSchema.type).toBe('object');
    }
  });

  it('a tools/call result carries structuredContent, the same payload as text, isError and resultType', async () => {
    const res = await mcpPost(gate, { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'gate.spaces', arguments: {} } });
    expect(res.status).toBe(200);
    const r = res.json.result;
    expect(r.resultType).toBe('complete');
    expect(r.isError).toBe(false);
    expect(r.structuredContent.spaces.map((s: any) => s.name)).toContain('main');
    expect(r.content).toEqual([{ type: 'text', text: JSON.stringify(r.structuredContent) }]);
  });

  it('a present _meta without client capabilities is completed, not refused', async () => {
    const res = await mcpPost(gate, {
      jsonrpc: '2.0',
      id: 10,
      method: 'tools/list',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
    });
    expect(res.status).toBe(200);
    expect(res.json.result.tools.length).toBe(11);
  });
});
