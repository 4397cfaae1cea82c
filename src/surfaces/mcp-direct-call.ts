import { SERVICE_VERSION } from '../version.js';
import { ToolProtocolError, type ToolResult } from '../tools/call-tool.js';
import { toolsOf } from '../tools/tool-catalog.js';
import { META_CAPABILITIES, META_VERSION, MCP_PROTOCOL_VERSION } from './mcp-tool-server.js';
import { isJsonObject } from '../domain/json-object.js';

const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
const MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAMS_KEYS = new Set(['name', 'arguments', '_meta']);
const META_KEYS = new Set([META_VERSION, META_CAPABILITIES, META_CLIENT_INFO]);
const CLIENT_TOOLS = new Set<string>(toolsOf('client').map((t) => t.name));
/** What the SDK stamps on every result it encodes. */
const RESULT_META = { 'io.modelcontextprotocol/serverInfo': { name: 'gate', version: SERVICE_VERSION } };

export interface DirectCall {
  id: string | number;
  name: string;
  args: unknown;
}

/**
 * The one exchange the door answers without the SDK: a tools/call, on the client tier, that
 * the SDK would take as it is (served revision in header and `_meta` alike, Mcp-Method and
 * Mcp-Name mirroring the body, a tool this build serves, arguments an object, nothing else in
 * the envelope). Measured: the SDK's per-request server, web Request/Response and schema
 * parsing cost a quarter of /mcp's ingest throughput against /rpc on this machine, and
 * tools/call is nearly all of an agent's traffic. Anything else, and anything unusual about
 * a tools/call, goes to the SDK; test/mcp/direct-call.test.ts holds the two answers equal.
 * `headers` are the ones the door hands the SDK, defaults filled in.
 */
export function directCallOf(m: Record<string, unknown>, headers: Headers): DirectCall | null {
  if (m['method'] !== 'tools/call' || m['jsonrpc'] !== '2.0') return null;
  const id = m['id'];
  if (typeof id !== 'string' && (typeof id !== 'number' || !Number.isSafeInteger(id))) return null;
  for (const key of Object.keys(m)) if (!MESSAGE_KEYS.has(key)) return null;
  const params = m['params'];
  if (!isJsonObject(params)) return null;
  for (const key of Object.keys(params)) if (!PARAMS_KEYS.has(key)) return null;
  const name = params['name'];
  if (typeof name !== 'string' || !CLIENT_TOOLS.has(name)) return null;
  const args = params['arguments'];
  if (args !== undefined && !isJsonObject(args)) return null;
  const meta = params['_meta'];
  if (!isJsonObject(meta)) return null;
  for (const key of Object.keys(meta)) if (!META_KEYS.has(key)) return null;
  if (meta[META_VERSION] !== MCP_PROTOCOL_VERSION || !isJsonObject(meta[META_CAPABILITIES])) return null;
  const info = meta[META_CLIENT_INFO];
  if (info !== undefined && !(isJsonObject(info) && typeof info['name'] === 'string' && typeof info['version'] === 'string')) return null;
  if (headers.get('mcp-protocol-version') !== MCP_PROTOCOL_VERSION) return null;
  if (headers.get('mcp-method') !== 'tools/call' || headers.get('mcp-name') !== name) return null;
  return { id, name, args };
}

/** The JSON-RPC answer the SDK encodes for a tool's result, or for a ToolProtocolError (in band: HTTP 200). */
export function directCallAnswer(id: string | number, outcome: ToolResult | ToolProtocolError): string {
  if (outcome instanceof ToolProtocolError) {
    return JSON.stringify({ jsonrpc: '2.0', id, error: { code: outcome.code, message: outcome.message } });
  }
  const { structuredContent, content, isError } = outcome;
  return JSON.stringify({ result: { content, structuredContent, isError, resultType: 'complete', _meta: RESULT_META }, jsonrpc: '2.0', id });
}
