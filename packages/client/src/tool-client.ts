import { GateClientError, fromErrorObject } from './client-error.js';
import { HttpTransport, type Bearer } from './http-transport.js';
import { resultOf } from './json-rpc-reply.js';
import { requireScope, type ClientScope } from './scopes.js';
import type { Transport, TransportLimits } from './transport-limits.js';
import { CLIENT_TOOLS, TOOL_WRITES, type ToolAnswer, type ToolArguments, type ToolName } from './verb-table.js';
import { isJsonObject } from './json-object.js';

export type ToolClientOptions = Partial<TransportLimits> & {
  baseUrl: string;
  /** Omitted: keyless, which a gate serves on loopback only when `[mcp].keyless_loopback` is on. A function: a bearer per request (AgentAssertions.bearer). */
  bearer?: Bearer;
  allowPlainHttpLoopback?: boolean;
  scope?: ClientScope;
};


/**
 * The client tier's tools over POST /mcp, as docs/protocol.md#client-transport-rules describes a tool client:
 * only tools/call, no protocol header, no session; it reads `result.structuredContent`
 * and turns a tool error (isError) into the same error kinds as a verb refusal.
 */
export class ToolClient {
  private readonly transport: Transport;
  private readonly scope: ClientScope;
  private nextId = 1;

  constructor(options: ToolClientOptions) {
    this.scope = options.scope ?? 'read';
    this.transport = new HttpTransport({ ...options, path: '/mcp' });
  }

  /** Calls one tool and resolves with its structuredContent, typed as the gate declares the tool's output (ToolAnswer). */
  async call<N extends ToolName>(name: N, ...[args]: {} extends ToolArguments<N> ? [ToolArguments<N>?] : [ToolArguments<N>]): Promise<ToolAnswer<N>> {
    if (!(CLIENT_TOOLS as readonly string[]).includes(name)) throw new GateClientError('unsupported_operation', `${name} is not a tool of the client tier`);
    const write = (TOOL_WRITES as readonly string[]).includes(name);
    requireScope(this.scope, name, write ? 'agent' : 'reader');
    const id = this.nextId++;
    const reply = await this.transport.roundTrip({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args ?? {} } }, write);
    const result = resultOf(reply.value, id, write, reply.status);
    const content = result['structuredContent'];
    if (!isJsonObject(content)) throw new GateClientError('invalid_response', 'the tool result has no structuredContent object', { outcome_unknown: write });
    if (result['isError'] === true) {
      const error = content['error'];
      if (!isJsonObject(error) || typeof error['code'] !== 'number' || typeof error['message'] !== 'string') {
        throw new GateClientError('invalid_response', 'the tool error has no {code, message}', { outcome_unknown: write });
      }
      throw fromErrorObject(error as { code: number; message: string; data?: unknown });
    }
    return content as ToolAnswer<N>;
  }

  remember = (args: ToolArguments<'gate.remember'>) => this.call('gate.remember', args);
  /** Ranked hits are in `results`. */
  recall = (args: ToolArguments<'gate.recall'>) => this.call('gate.recall', args);
  /** The position is in `state`. */
  status = (artifactId: string) => this.call('gate.status', { artifact_id: artifactId });
  /** The signed history is in `events`. */
  why = (artifactId: string) => this.call('gate.why', { artifact_id: artifactId });
  tip = (artifactId: string) => this.call('gate.tip', { artifact_id: artifactId });
  /** The waiting rows are in `pending`. */
  pending = (limit?: number) => this.call('gate.pending', limit === undefined ? {} : { limit });

  close(): Promise<void> {
    return this.transport.close();
  }
}
