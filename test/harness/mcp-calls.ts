import type { GateProcess } from './gate-process.js';

/** A gate of any kind with its HTTP door listening: a process gate or an in-process server. */
type HttpGate = Pick<GateProcess, 'http'>;

let nextId = 1;

/** One raw POST /mcp: the body as given, headers as given, no protocol defaults added. */
export function mcpPost(gate: HttpGate, body: unknown, options: { key?: string | null; headers?: Record<string, string> } = {}) {
  return gate.http('POST', '/mcp', { body, key: options.key ?? null, headers: options.headers ?? {} });
}

/**
 * tools/call as an older client of this door sends it (docs/protocol.md#client-transport-rules): no protocol
 * header, no `_meta`, no session. Resolves the HTTP status and the JSON-RPC answer.
 */
export async function toolCall(gate: HttpGate, name: string, args: Record<string, unknown>, key: string | null = null) {
  const res = await mcpPost(gate, { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name: `gate.${name}`, arguments: args } }, { key });
  return { status: res.status, answer: res.json as { result?: any; error?: { code: number; message: string; data?: any } } };
}

/** The structured output of a tool call that must succeed; fails loudly with the refusal otherwise. */
export async function tool(gate: HttpGate, name: string, args: Record<string, unknown>, key: string | null = null): Promise<any> {
  const { status, answer } = await toolCall(gate, name, args, key);
  if (status !== 200 || answer.error || answer.result?.isError) {
    throw new Error(`gate.${name} failed: ${status} ${JSON.stringify(answer)}`);
  }
  return answer.result.structuredContent;
}

/** The tool error a call must end in: {code, message, data}. */
export async function toolRefusal(gate: HttpGate, name: string, args: Record<string, unknown>, key: string | null = null) {
  const { status, answer } = await toolCall(gate, name, args, key);
  if (status !== 200 || !answer.result?.isError) throw new Error(`gate.${name} was not refused: ${status} ${JSON.stringify(answer)}`);
  return answer.result.structuredContent.error as { code: number; message: string; data?: any };
}
