import { atLeast } from '../domain/roles.js';
import { ErrorCode, GateError, roleTooLow } from '../gate-error.js';
import { answerMessage, type JsonRpcResponse } from '../http-rpc/json-rpc-answer.js';
import { validateFields } from '../http-rpc/validate-fields.js';
import type { OrgStaffCaller } from './org-bearer.js';
import type { OrgContext } from './org-context.js';
import { ORG_VERBS } from './org-registry.js';

/**
 * The organization gate's /rpc under the gate's own rules: the same JSON-RPC frame
 * (answerMessage), C1 (a caller below the verb's role is refused -32602 naming both roles)
 * and C3 (validateFields: unlisted fields, null and the identity fields refused by name).
 */
export function dispatchOrg(ctx: OrgContext, caller: OrgStaffCaller, message: unknown): Promise<JsonRpcResponse | null> {
  return answerMessage(
    message,
    async (method, rawParams) => {
      const verb = ORG_VERBS.get(method);
      if (!verb) throw new GateError(ErrorCode.methodNotFound, `method not found: ${method}`);
      if (!atLeast(caller.role, verb.role)) throw roleTooLow(method, verb.role, caller.role);
      return verb.handler(ctx, caller, validateFields(verb.params, undefined, rawParams));
    },
    (method, error) => ctx.log.error('internal error in a verb', error, { verb: ORG_VERBS.has(method) ? method : undefined }),
  );
}
