import { resolveHome } from '../config/home.js';
import { NoGateError, socketCall } from './socket-call.js';

export async function callCommand(method: string, paramsText: string | undefined, options: { home?: string }): Promise<void> {
  let params: unknown;
  if (paramsText !== undefined) {
    try {
      params = JSON.parse(paramsText);
    } catch {
      process.stderr.write('gate call: params must be JSON, e.g. \'{"artifact_id":"sha256:..."}\'\n');
      process.exit(2);
    }
  }
  try {
    const answer = await socketCall(resolveHome(options.home).socket, method, params);
    process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    process.exit('error' in answer ? 1 : 0);
  } catch (error) {
    process.stderr.write(`gate call: ${error instanceof NoGateError ? error.message : String(error)}\n`);
    process.exit(2);
  }
}
