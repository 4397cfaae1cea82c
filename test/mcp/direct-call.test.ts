import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { mcpPost } from '../harness/mcp-calls.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent } } = useGate({ kind: 'in-process', keys: { agent: 'agent' } });

let held: string;

beforeAll(async () => {
  held = (await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText('direct'), kind: 'memory', source_uri: 's', workarea: 'tests/direct' })).result.artifact_id;
  // Embedded after its commit: until then gate.recall answers it without a vector signal, and the two paths could see it differently.
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = (await gate.rpc(agent.key, 'gv.recall', { query: 'direct', k: 3, mode: 'vector' })).result?.hits ?? [];
    if (found.some((r: any) => r.artifact_id === held)) break;
    if (Date.now() > deadline) throw new Error('the held row was not embedded within 20 s');
    await new Promise((r) => setTimeout(r, 50));
  }
});

const V = 'io.modelcontextprotocol/protocolVersion';
const C = 'io.modelcontextprotocol/clientCapabilities';
/** A `_meta` key the door's direct path does not take: the same call then goes through the SDK. */
const THROUGH_SDK = { 'io.example/trace': 'direct-call-test' };

/** A pending row's age moves between two calls. */
const timeless = (body: unknown) => JSON.parse(JSON.stringify(body).replace(/(\\?"age_ms\\?":)\d+/g, '$10'));

async function both(id: string | number, name: string, args: unknown, meta: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const call = (extra: Record<string, unknown>) =>
    mcpPost(
      gate,
      { jsonrpc: '2.0', id, method: 'tools/call', params: { name, ...(args === undefined ? {} : { arguments: args }), _meta: { [V]: '2026-07-28', [C]: {}, ...meta, ...extra } } },
      { key: agent.key, headers },
    );
  const direct = await call({});
  const sdk = await call(THROUGH_SDK);
  return { direct, sdk };
}

describe('tools/call answered by the door itself answers exactly what the SDK answers', () => {
  it('for results, tool errors and unknown rows, with numeric and string ids', async () => {
    const cases: [string | number, string, unknown][] = [
      [1, 'gate.status', { artifact_id: held }],
      ['s-2', 'gate.why', { artifact_id: held }],
      [3, 'gate.spaces', {}],
      [4, 'gate.spaces', undefined],
      [5, 'gate.pending', { limit: 5 }],
      [6, 'gate.recall', { query: 'direct', k: 3 }],
      [7, 'gate.status', { artifact_id: 'sha256:0000' }],
      [8, 'gate.remember', { content: '' }],
      [9, 'gate.status', { artifact_id: held, unlisted: true }],
      [10, 'gate.status', { artifact_id: null }],
    ];
    for (const [id, name, args] of cases) {
      const { direct, sdk } = await both(id, name, args);
      expect({ name, status: direct.status, body: timeless(direct.json) }).toEqual({ name, status: sdk.status, body: timeless(sdk.json) });
      expect(direct.headers['content-type']).toBe(sdk.headers['content-type']);
    }
  });

  it('for a new claim: the same answer but for the artifact id', async () => {
    const args = (tag: string) => ({ content: uniqueText(tag), content_type: 'memory', source_uri: 's', workarea: 'tests/direct' });
    const direct = await mcpPost(gate, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'gate.remember', arguments: args('a'), _meta: { [V]: '2026-07-28', [C]: {} } } }, { key: agent.key });
    const sdk = await mcpPost(
      gate,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'gate.remember', arguments: args('b'), _meta: { [V]: '2026-07-28', [C]: {}, ...THROUGH_SDK } } },
      { key: agent.key },
    );
    const masked = (body: any) => JSON.parse(JSON.stringify(body).replace(/sha256:[0-9a-f]{64}/g, 'ID'));
    expect(direct.status).toBe(200);
    expect(masked(direct.json)).toEqual(masked(sdk.json));
    expect(direct.json.result.structuredContent.artifact_id).not.toBe(sdk.json.result.structuredContent.artifact_id);
  });

  it('a bare client (no header, no _meta) and one naming itself get the same answer as the SDK gives', async () => {
    const bare = await mcpPost(gate, { jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'gate.status', arguments: { artifact_id: held } } }, { key: agent.key });
    const { direct, sdk } = await both(11, 'gate.status', { artifact_id: held }, { 'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' } }, {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'gate.status',
    });
    expect(bare.json).toEqual(sdk.json);
    expect(direct.json).toEqual(sdk.json);
  });

  it('what is wrong about a tools/call is still the SDK’s to refuse, in its words', async () => {
    const call = (params: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });
    const wrong: [unknown, Record<string, string>, number, number, RegExp][] = [
      [call({ name: 'gate.spaces', arguments: {} }), { 'mcp-name': 'gate.pending' }, 400, -32020, /headers and body disagree/],
      [call({ name: 'gate.spaces', arguments: {} }), { 'mcp-protocol-version': '2099-01-01' }, 400, -32022, /Unsupported protocol version/],
      [call({ name: 'gate.spaces', arguments: [] }), {}, 200, -32602, /^Invalid tools\/call request/],
      [call({ name: 'gate.nope', arguments: {} }), {}, 200, -32602, /^unknown tool: gate.nope/],
    ];
    for (const [body, headers, status, code, message] of wrong) {
      const res = await mcpPost(gate, body, { key: agent.key, headers });
      expect(res.status).toBe(status);
      expect(res.json.error).toMatchObject({ code, message: expect.stringMatching(message) });
    }
  });
});
