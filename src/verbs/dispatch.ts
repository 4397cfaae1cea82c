import { VERBS_BY_NAME } from './registry.js';
import type { Caller } from '../access/caller.js';
import { atLeast } from '../domain/roles.js';
import { ErrorCode, GateError, invalidParams, roleTooLow } from '../gate-error.js';
import { answerMessage, type JsonRpcResponse } from '../http-rpc/json-rpc-answer.js';
import { validateParams } from './validate-params.js';
import { verbContext } from './define-verb.js';
import { refuseBannedWrite } from '../access/bans.js';
import type { House } from './house.js';
import { ANSWERS_CHECKED, checkAnswer } from './answer-check.js';

/**
 * The one dispatcher (docs/architecture.md#rules-of-the-house, rule 2): every surface ends here with a Caller it derived
 * from the connection and one parsed JSON-RPC message. Returns null for a notification:
 * a valid request without an id. A message that is no valid request is answered -32600
 * whether or not it has an id, since nothing says its sender wanted silence.
 */
export async function dispatch(house: House, caller: Caller, message: unknown): Promise<JsonRpcResponse | null> {
  return answerMessage(
    message,
    (method, params) => call(house, caller, method, params),
    (method, error) => house.log.error(`internal error in ${method}`, error),
  );
}

/**
 * What a key with scope `events` may call (docs/protocol.md#credentials-and-roles): gv.events, and "the
 * paused and caps parts of status", which gv.ping answers (`degraded_reasons`: review
 * paused, quarantine near its cap, the grading budget spent), so a least-privilege monitor
 * sees them.
 */
const EVENTS_SCOPE_VERBS: ReadonlySet<string> = new Set(['gv.events', 'gv.ping']);

/** What each key scope may call; a key with scope `metrics` reads GET /metrics, and gv.ping (docs/spec-choices.md). */
const SCOPE_VERBS: Record<NonNullable<Caller['scope']>, ReadonlySet<string>> = { events: EVENTS_SCOPE_VERBS, metrics: new Set(['gv.ping']) };

/** Resolves the verb, applies C1 (role), the scope and surface limits, C3 (params) and a write door's bans, then runs it. */
export async function call(house: House, caller: Caller, method: string, rawParams: unknown): Promise<unknown> {
  const verb = VERBS_BY_NAME.get(method);
  if (!verb) throw new GateError(ErrorCode.methodNotFound, `method not found: ${method}`);
  if (verb.role === 'runner') {
    if (caller.role !== 'runner') throw roleTooLow(method, 'runner', caller.role);
  } else if (!atLeast(caller.role, verb.role)) {
    throw roleTooLow(method, verb.role, caller.role);
  }
  if (caller.scope !== null && !SCOPE_VERBS[caller.scope].has(method)) {
    throw new GateError(ErrorCode.invalidParams, `a key with scope ${caller.scope} may call ${[...SCOPE_VERBS[caller.scope]].join(' and ')} only, not ${method}`, {
      reason: 'scope',
      scope: caller.scope,
    });
  }
  if (verb.surfaces && !verb.surfaces.includes(caller.surface)) {
    throw invalidParams(`${method} is served on the ${verb.surfaces.join(' and ')} surface only`);
  }
  const params = validateParams(verb, rawParams);
  // An answer (or refusal) read from the views waits until what it read is durable.
  let answer: unknown;
  try {
    if (verb.door !== undefined) await refuseBannedWrite(house, caller, method, verb.door.sources?.(params));
    answer = await verb.handler(verbContext(house, caller, verb.uses), params);
    if (ANSWERS_CHECKED) checkAnswer(verb, answer);
  } catch (error) {
    await house.store.writer.durable(error);
    throw error;
  }
  await house.store.writer.durable(answer);
  return answer;
}

