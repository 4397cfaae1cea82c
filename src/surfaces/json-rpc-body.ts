import { ErrorCode } from '../gate-error.js';
import { framingError } from '../verbs/dispatch.js';
import type { JsonRpcResponse } from '../verbs/dispatch.js';
import { isJsonObject } from '../domain/json-object.js';

/**
 * A POST body as one JSON-RPC 2.0 request object, or the framing error (answered 400) that
 * refuses it: -32700 for text that is not JSON, -32600 for JSON that is not one object.
 * /rpc and /mcp read their bodies alike.
 */
export function jsonRpcObject(body: Buffer): { message: Record<string, unknown> } | { refusal: JsonRpcResponse } {
  let message: unknown;
  try {
    message = JSON.parse(body.toString('utf8'));
  } catch {
    return { refusal: framingError(ErrorCode.parse, 'the body is not JSON') };
  }
  if (!isJsonObject(message)) {
    return { refusal: framingError(ErrorCode.invalidRequest, 'a request is one JSON-RPC 2.0 object') };
  }
  return { message };
}
