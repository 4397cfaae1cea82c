import { ErrorCode, GateError } from '../gate-error.js';
import { errorResponse, framingError, requestId, type JsonRpcResponse } from './json-rpc-answer.js';
import { jsonObjectBody } from './json-object-body.js';

export type ParsedRequest = { message: Record<string, unknown> } | { refusal: JsonRpcResponse; status: 200 | 400 };

/**
 * A request's bytes (a POST body on /rpc and /mcp, one line on the socket) as one JSON-RPC
 * 2.0 object, or the refusal the door answers before any dispatch, with its HTTP status:
 * - -32700 (400): not UTF-8, not JSON, or a string escaping a lone surrogate (no UTF-8 form);
 * - -32600 (400): not one object, an object with none of jsonrpc, method and id (not a
 *   request at all, and no notification either), or a key repeated in any object;
 * - -32602 (200, like every refusal of params): nested deeper than MAX_REQUEST_DEPTH.
 * The bytes are read as every JSON door reads them (json-object-body.ts).
 */
export function jsonRpcObject(body: Buffer): ParsedRequest {
  const read = jsonObjectBody(body);
  if (!('fault' in read)) {
    const message = read.value;
    if (!('jsonrpc' in message) && !('method' in message) && !('id' in message)) {
      return { refusal: framingError(ErrorCode.invalidRequest, 'not a JSON-RPC request: none of jsonrpc, method and id'), status: 400 };
    }
    return { message };
  }
  switch (read.fault) {
    case 'not_utf8':
      return { refusal: framingError(ErrorCode.parse, 'the request is not UTF-8'), status: 400 };
    case 'not_json':
      return { refusal: framingError(ErrorCode.parse, 'the request is not JSON'), status: 400 };
    case 'not_object':
      return { refusal: framingError(ErrorCode.invalidRequest, 'a request is one JSON-RPC 2.0 object'), status: 400 };
    case 'lone_surrogate':
      return { refusal: framingError(ErrorCode.parse, 'the request escapes a lone UTF-16 surrogate: that text has no UTF-8 form'), status: 400 };
    case 'structure': {
      const fault = read.structure;
      if (fault.kind === 'depth') {
        const error = new GateError(ErrorCode.invalidParams, `the request nests deeper than the limit of ${fault.limit} levels`, { limit: fault.limit });
        return { refusal: errorResponse(requestId(read.value), error), status: 200 };
      }
      const field = [...fault.within, fault.key].join('.');
      const where = fault.within.length === 0 ? 'at the top level' : `in ${fault.within.join('.')}`;
      const error = new GateError(ErrorCode.invalidRequest, `duplicate key ${JSON.stringify(fault.key)} ${where}`, { key: fault.key, field });
      // Which of two ids was meant cannot be told; any other repeat leaves the id readable.
      return { refusal: errorResponse(field === 'id' ? null : requestId(read.value), error), status: 400 };
    }
  }
}
