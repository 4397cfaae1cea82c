import { describe, expect, it } from 'vitest';
import { mcpPost } from '../harness/mcp-calls.js';
import { useGate } from '../harness/use-gate.js';

const { gate } = useGate({ kind: 'in-process', env: { GATE_MCP_MAX_REQUEST_BYTES: '65536' } });

const V = 'io.modelcontextprotocol/protocolVersion';

describe('POST /mcp is strict about what is wrong', () => {
  it('a protocol header that disagrees with the body is 400 with -32020', async () => {
    const res = await mcpPost(
      gate,
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { [V]: '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } },
      { headers: { 'mcp-method': 'server/discover' } },
    );
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe(-32020);
  });

  it('an Mcp-Name that is not the called tool is 400 with -32020', async () => {
    const res = await mcpPost(
      gate,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'gate.spaces', arguments: {} } },
      { headers: { 'mcp-name': 'gate.pending' } },
    );
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe(-32020);
  });

  it('an unsupported version is 400 with -32022 and data {supported, requested}', async () => {
    for (const sent of [{ headers: { 'mcp-protocol-version': '2099-01-01' } }, { meta: '2099-01-01' }] as const) {
      const params = 'meta' in sent ? { _meta: { [V]: sent.meta, 'io.modelcontextprotocol/clientCapabilities': {} } } : {};
      const res = await mcpPost(gate, { jsonrpc: '2.0', id: 2, method: 'tools/list', params }, { headers: 'headers' in sent ? sent.headers : {} });
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe(-32022);
      expect(res.json.error.data).toEqual({ supported: ['2026-07-28'], requested: '2099-01-01' });
    }
  });

  it('initialize is refused, naming the supported versions, while the legacy flag is off', async () => {
    const res = await mcpPost(gate, {
      jsonrpc: '2.0',
      id: 3,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe(-32022);
    expect(res.json.error.data.supported).toEqual(['2026-07-28']);
  });

  it("a refused version's message names the versions served and the operator's mcp.legacy_initialize (issue 35)", async () => {
    // A 2025-06-18 client's initialize, as a current SDK client or an older editor sends it.
    const res = await mcpPost(gate, {
      jsonrpc: '2.0',
      id: 6,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe(-32022);
    expect(res.json.error.data).toEqual({ supported: ['2026-07-28'], requested: '2025-06-18' });
    expect(res.json.error.message).toBe(
      'Unsupported protocol version: 2025-06-18. This gate serves MCP 2026-07-28 only. Its operator can set mcp.legacy_initialize = true' +
        ' ([mcp] legacy_initialize in gate.toml, or GATE_MCP_LEGACY_INITIALIZE=true) to accept 2025-06-18 clients:' +
        ' the gate then answers their initialize itself and serves their later requests as 2026-07-28.',
    );
    // A version no setting accepts still names the setting and what it would accept.
    const later = await mcpPost(gate, { jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} }, { headers: { 'mcp-protocol-version': '2099-01-01' } });
    expect(later.json.error.code).toBe(-32022);
    expect(later.json.error.message).toContain('This gate serves MCP 2026-07-28 only.');
    expect(later.json.error.message).toContain('mcp.legacy_initialize = true to accept clients of the 2025 revisions (2025-11-25, 2025-06-18, 2025-03-26)');
  });

  it('a method this build does not serve is -32601', async () => {
    const res = await mcpPost(gate, { jsonrpc: '2.0', id: 4, method: 'resources/list' });
    expect(res.json.error.code).toBe(-32601);
  });

  it('a tool this build does not serve is a JSON-RPC -32602, not a tool error', async () => {
    const res = await mcpPost(gate, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'gate.rank', arguments: {} } });
    expect(res.json.result).toBeUndefined();
    expect(res.json.error.code).toBe(-32602);
    expect(res.json.error.message).toContain('gate.rank');
  });

  it('GET /mcp is 405', async () => {
    const res = await gate.http('GET', '/mcp');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('an unparsable body is 400 with -32700; non-object JSON 400 with -32600', async () => {
    const bad = await gate.http('POST', '/mcp', { raw: '{"jsonrpc":', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe(-32700);
    const list = await gate.http('POST', '/mcp', { raw: '[]', headers: { 'content-type': 'application/json' } });
    expect(list.status).toBe(400);
    expect(list.json.error.code).toBe(-32600);
  });

  it('a request over the limit is 413 (or a reset) before the body is read', async () => {
    const big = { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'gate.remember', arguments: { content: 'x'.repeat(70_000) } } };
    const outcome = await mcpPost(gate, big).then(
      (r) => r.status,
      () => 'reset',
    );
    expect([413, 'reset']).toContain(outcome);
  });

  it('no answer issues a session id', async () => {
    const res = await mcpPost(gate, { jsonrpc: '2.0', id: 7, method: 'server/discover' });
    expect([...res.headers.keys()].filter((h) => h.includes('session'))).toEqual([]);
  });
});
