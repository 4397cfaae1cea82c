import { resolveHome } from '../config/home.js';
import { EXIT, exitAfterWriting } from './exit-codes.js';
import { NoAnswerError, socketCall } from './socket-call.js';

export async function callCommand(method: string, paramsText: string | undefined, options: { home?: string; timeout?: number }): Promise<void> {
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
