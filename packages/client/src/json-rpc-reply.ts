import { GateClientError, fromErrorObject } from './client-error.js';
import { isJsonObject } from './json-object.js';


/**
 * A JSON-RPC reply as a client reads one (docs/protocol.md#client-transport-rules): an object, jsonrpc 2.0, the id that was
 * sent, and either an object result or an error object (mapped by rule 4).
 */
export function resultOf(value: unknown, id: number, write: boolean, status?: number): Record<string, unknown> {
  const invalid = (why: string) => new GateClientError('invalid_response', why, { outcome_unknown: write, ...(status !== undefined ? { status } : {}) });
  if (!isJsonObject(value) || value['jsonrpc'] !== '2.0') throw invalid('the reply is not a JSON-RPC 2.0 object');
  if ('error' in value) {
    const error = value['error'];
    if (!isJsonObject(error) || typeof error['code'] !== 'number' || typeof error['message'] !== 'string') throw invalid('the reply has a malformed error object');
    // A refusal may carry id null (a framing error); the gate decided, so the outcome is known.
    if (value['id'] !== id && value['id'] !== null) throw invalid(`the reply answers id ${JSON.stringify(value['id'])}, not ${id}`);
    throw fromErrorObject(error as { code: number; message: string; data?: unknown }, status !== undefined ? { status } : {});
  }
  if (value['id'] !== id) throw invalid(`the reply answers id ${JSON.stringify(value['id'])}, not ${id}`);
  if (!isJsonObject(value['result'])) throw invalid('the reply has no object result');
  return value['result'];
}
