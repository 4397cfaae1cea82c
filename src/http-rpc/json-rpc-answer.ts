import { isJsonObject } from '../domain/json-object.js';
import { ErrorCode, GateError } from '../gate-error.js';

export type JsonRpcId = string | number | null;

export interface JsonRpcResponse {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result?: unknown;
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

export const errorResponse = (id: JsonRpcId, error: GateError): JsonRpcResponse => ({ jsonrpc: '2.0', id, error: error.toJSON() });

/** A framing error a surface answers before any message reaches the dispatcher. */
export const framingError = (code: number, message: string): JsonRpcResponse => errorResponse(null, new GateError(code, message));

export function requestId(message: Record<string, unknown>): JsonRpcId {
  const id = message['id'];
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** Why `m` is not a JSON-RPC 2.0 request, or null when it is one. */
function envelopeFault(m: Record<string, unknown>): string | null {
  if (m['jsonrpc'] !== '2.0') return 'jsonrpc must be "2.0"';
  if ('id' in m && m['id'] !== null && typeof m['id'] !== 'string' && typeof m['id'] !== 'number') return 'id must be a string, a number or null';
  if (typeof m['method'] !== 'string') return 'method must be a string';
  return null;
}

/**
 * The JSON-RPC frame around a verb call, for both servers (the member gate's
 * dispatch, the organization gate's dispatchOrg): envelope checks, notifications, GateError to its
 * error object, anything else -32603 after `internal` has logged it.
 */
export async function answerMessage(
  message: unknown,
  run: (method: string, params: unknown) => Promise<unknown>,
  internal: (method: string, error: unknown) => void,
): Promise<JsonRpcResponse | null> {
  if (!isJsonObject(message)) {
    return errorResponse(null, new GateError(ErrorCode.invalidRequest, 'a request is one JSON-RPC 2.0 object'));
  }
  const m = message as Record<string, unknown>;
  const id = requestId(m);
  const fault = envelopeFault(m);
  if (fault !== null) return errorResponse(id, new GateError(ErrorCode.invalidRequest, fault));
  const notification = !('id' in m);
  try {
    const result = await run(m['method'] as string, m['params']);
    return notification ? null : { jsonrpc: '2.0', id, result };
  } catch (error) {
    if (notification) return null;
    if (error instanceof GateError) return errorResponse(id, error);
    internal(String(m['method']), error);
    return errorResponse(id, new GateError(ErrorCode.internal, 'internal error'));
  }
}
