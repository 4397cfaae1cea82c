import { isUtf8 } from 'node:buffer';
import { ErrorCode, GateError } from '../gate-error.js';
import { errorResponse, framingError, requestId } from '../verbs/dispatch.js';
import type { JsonRpcResponse } from '../verbs/dispatch.js';
import { isJsonObject } from '../domain/json-object.js';
import { structureFault } from './json-structure.js';
import { hasLoneSurrogate } from './lone-surrogates.js';
import { MAX_REQUEST_DEPTH } from '../domain/request-depth.js';

export type ParsedRequest = { message: Record<string, unknown> } | { refusal: JsonRpcResponse; status: 200 | 400 };

/**
 * A request's bytes (a POST body on /rpc and /mcp, one line on the socket) as one JSON-RPC
 * 2.0 object, or the refusal the door answers before any dispatch, with its HTTP status:
 * - -32700 (400): not UTF-8, not JSON, or a string escaping a lone surrogate (no UTF-8 form);
 * - -32600 (400): not one object, an object with none of jsonrpc, method and id (not a
 *   request at all, and no notification either), or a key repeated in any object;
 * - -32602 (200, like every refusal of params): nested deeper than MAX_REQUEST_DEPTH.
 * Parsed once: JSON.parse builds the value (it does not recurse, whatever the depth), then
 * one loop over the same text finds repeated keys and the depth.
 */
export function jsonRpcObject(body: Buffer): ParsedRequest {
  // Bytes that are not UTF-8 are refused, never decoded into U+FFFD: the bytes a writer sent
  // are the bytes the journal hashes. isUtf8 then toString costs what a fatal TextDecoder
  // does (bench/request-parse.js: both within a few % of toString alone) and refuses without
  // an exception. A BOM stays in the text, and JSON.parse refuses it as before.
  if (!isUtf8(body)) return { refusal: framingError(ErrorCode.parse, 'the request is not UTF-8'), status: 400 };
  const text = body.toString('utf8');
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return { refusal: framingError(ErrorCode.parse, 'the request is not JSON'), status: 400 };
  }
  if (!isJsonObject(message)) {
    return { refusal: framingError(ErrorCode.invalidRequest, 'a request is one JSON-RPC 2.0 object'), status: 400 };
  }
  const fault = structureFault(text, MAX_REQUEST_DEPTH);
  if (fault?.kind === 'duplicate') {
    const field = [...fault.within, fault.key].join('.');
    const where = fault.within.length === 0 ? 'at the top level' : `in ${fault.within.join('.')}`;
    const error = new GateError(ErrorCode.invalidRequest, `duplicate key ${JSON.stringify(fault.key)} ${where}`, { key: fault.key, field });
    // Which of two ids was meant cannot be told; any other repeat leaves the id readable.
    return { refusal: errorResponse(field === 'id' ? null : requestId(message), error), status: 400 };
  }
  if (fault?.kind === 'depth') {
    const error = new GateError(ErrorCode.invalidParams, `the request nests deeper than the limit of ${fault.limit} levels`, { limit: fault.limit });
    return { refusal: errorResponse(requestId(message), error), status: 200 };
  }
  if (hasLoneSurrogate(text, message)) {
    return { refusal: framingError(ErrorCode.parse, 'the request escapes a lone UTF-16 surrogate: that text has no UTF-8 form'), status: 400 };
  }
  if (!('jsonrpc' in message) && !('method' in message) && !('id' in message)) {
    return { refusal: framingError(ErrorCode.invalidRequest, 'not a JSON-RPC request: none of jsonrpc, method and id'), status: 400 };
  }
  return { message };
}
