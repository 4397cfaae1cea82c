import { describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { uniqueText } from '../harness/gate-process.js';
import { mcpPost } from '../harness/mcp-calls.js';
import { useGate } from '../harness/use-gate.js';

const { gate } = useGate({ kind: 'in-process', env: { GATE_MCP_LEGACY_INITIALIZE: 'true' } });

describe('[mcp].legacy_initialize on: a 2025 client handshakes, then is served as 2026-07-28', () => {
  it('initialize answers a 2025 version with no session id', async () => {
    const res = await mcpPost(gate, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
    });
    expect(res.status).toBe(200);
    expect(res.json.result).toMatchObject({ protocolVersion: '2025-06-18', serverInfo: { name: 'gate' }, capabilities: { tools: {} } });
    expect(res.headers.get('mcp-session-id')).toBeNull();
  });

  it('the SDK client in its default (2025) mode connects and calls a tool', async () => {
    const client = new Client({ name: 'legacy', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gate.url}/mcp`)));
    const { tools } = await client.listTools();
    expect(tools.length).toBe(11);
    const r = await client.callTool({
      name: 'gate.remember',
      arguments: { content: uniqueText('legacy'), content_type: 'memory', source_uri: 'test://legacy', workarea: 'legacy/a' },
    });
    expect(r.isError).toBe(false);
    expect((r.structuredContent as any).state).toBe('L1_SCANNED');
    await client.close();
  });
});
