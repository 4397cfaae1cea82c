import { ErrorCode } from '../gate-error.js';
import { framingError } from '../http-rpc/json-rpc-answer.js';
import { dispatch } from '../verbs/dispatch.js';
import { readBudgetRetryAfter, refuseTooLarge, sendJson } from '../http-rpc/http-replies.js';
import { readBody } from './body-intake.js';
import { jsonRpcObject } from '../http-rpc/json-rpc-body.js';
import { jsonContent, type Route } from './route.js';
import { rpcRequestSchema, rpcResponseSchema } from './rpc-schema.js';
import { noteRequest, recallModeOf, servedVerb } from './request-log.js';
import type { House } from '../verbs/house.js';

/** A scope-limited key's refusal reaches the client as 403 (docs/protocol.md#credential-errors). */
const isScopeRefusal = (response: { error?: { data?: Record<string, unknown> } }) => response.error?.data?.['reason'] === 'scope';

/** An envelope the dispatcher refused (no jsonrpc 2.0, no method): a malformed request, 400 like the door's own (docs/protocol.md#routes). */
const isInvalidRequest = (response: { error?: { code: number } }) => response.error?.code === ErrorCode.invalidRequest;

/** POST /rpc: one JSON-RPC 2.0 message into the one dispatcher, exactly as from the socket. */
export function rpcRoute(house: House, maxRequestBytes: number): Route {
  return {
    method: 'POST',
    path: '/rpc',
    guard: 'bearer',
    cors: 'plain',
    summary: 'One JSON-RPC 2.0 message; the verbs of the registry (x-verbs lists each with its least role).',
    doc: () => ({
      requestBody: { required: true, content: jsonContent(rpcRequestSchema()) },
      responses: {
        200: {
          description: "a JSON-RPC response: the verb's result (each verb's answer schema, titled with its name), or an error object (refusals by role, rule or grant are here)",
          content: jsonContent(rpcResponseSchema()),
        },
        204: { description: 'a notification (no id) was handled' },
        400: {
          description: 'a body that is not UTF-8 or not JSON (-32700), or not a request: not one object, a repeated key, no jsonrpc 2.0 or method (-32600); in a JSON-RPC envelope',
          content: jsonContent({ type: 'object' }),
        },
        403: { description: 'a scope-limited key called outside its scope', content: jsonContent({ type: 'object' }) },
        413: { description: 'larger than the limit; refused before the body is read (a client may see a reset)' },
      },
    }),
    handler: async ({ req, res, caller }) => {
      const body = await readBody(req, maxRequestBytes);
      if (body === null) return refuseTooLarge(res, framingError(ErrorCode.tooLarge, 'request larger than the limit'));
      const parsed = jsonRpcObject(body);
      if ('refusal' in parsed) return sendJson(res, parsed.status, parsed.refusal);
      const response = await dispatch(house, caller!, parsed.message);
      const mode = response?.error === undefined ? recallModeOf(parsed.message) : undefined;
      noteRequest(req, { verb: servedVerb(parsed.message), code: response?.error?.code, ...(mode === undefined ? {} : { recall_mode: mode }) });
      if (response === null) {
        res.writeHead(204);
        res.end();
        return;
      }
      // A long read past its caller's budget is a busy answer: 429 with Retry-After, as docs/protocol.md#error-codes has busy answers.
      const retryAfter = readBudgetRetryAfter(response.error);
      if (retryAfter !== null) return sendJson(res, 429, response, { 'retry-after': retryAfter });
      sendJson(res, isScopeRefusal(response) ? 403 : isInvalidRequest(response) ? 400 : 200, response);
    },
  };
}
