import { resolveHome } from '../config/home.js';
import { EXIT, exitAfterWriting } from './exit-codes.js';
import { NoAnswerError, socketCall } from './socket-call.js';
import { VERB_ROLES } from '@gate/client';
import { closestName } from './did-you-mean.js';

/**
 * Why `method` is not a verb this gate serves, with the closest one when a typo is likely;
 * undefined for a verb it serves. The client's verb table equals the registry the socket
 * dispatches from (test/client/verb-table.test.ts), so a name outside it could only be refused.
 */
export function unknownVerb(method: string): string | undefined {
  if (Object.hasOwn(VERB_ROLES, method)) return undefined;
  const near = closestName(method, Object.keys(VERB_ROLES));
  return near === undefined
    ? `unknown verb ${method}: gate call gv.describe lists the verbs this gate serves`
    : `unknown verb ${method}: did you mean ${near}?`;
}

export async function callCommand(method: string, paramsText: string | undefined, options: { home?: string; timeout?: number }): Promise<void> {
  const unknown = unknownVerb(method);
  if (unknown !== undefined) return exitAfterWriting(process.stderr, `gate call: ${unknown}\n`, EXIT.badArgument);
  let params: unknown;
  if (paramsText !== undefined) {
    try {
      params = JSON.parse(paramsText);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return exitAfterWriting(process.stderr, `gate call: params must be JSON, e.g. '{"artifact_id":"sha256:..."}' (${why})\n`, EXIT.badArgument);
    }
  }
  try {
    const answer = await socketCall(resolveHome(options.home).socket, method, params, options.timeout);
    exitAfterWriting(process.stdout, `${JSON.stringify(answer, null, 2)}\n`, 'error' in answer ? EXIT.errorObject : EXIT.result);
  } catch (error) {
    exitAfterWriting(process.stderr, `gate call: ${error instanceof Error ? error.message : String(error)}\n`, socketFailureExit(error));
  }
}

/** The exit status of a socket call that threw: a gate that never answered, or none there. */
export function socketFailureExit(error: unknown): number {
  return error instanceof NoAnswerError ? EXIT.noAnswerInTime : EXIT.noGate;
}
