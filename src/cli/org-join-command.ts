import { resolveHome } from '../config/home.js';
import { API_KEY_PATTERN } from '../credentials/api-keys.js';
import { socketCall } from './socket-call.js';
import { socketFailureExit } from './call-command.js';
import { Ending } from './command-ending.js';
import { EXIT, exitAfterWriting } from './exit-codes.js';
import { operatorProof, readOperatorKey } from './operator-key.js';
import { promptPassword, readStdinPassword } from './password-prompt.js';

export interface OrgJoinOptions {
  keyEnv?: string;
  pollEvery?: number;
  operatorKey?: string;
  home?: string;
  timeout?: number;
  json?: boolean;
}

/** The member's submit key: from the variable --key-env names, else typed without echo on a terminal, else stdin. */
async function submitKey(options: OrgJoinOptions): Promise<string> {
  let key: string;
  if (options.keyEnv !== undefined) {
    key = process.env[options.keyEnv] ?? '';
    if (key === '') throw new Ending(`--key-env ${options.keyEnv}: the variable is not set in this shell`, EXIT.badArgument);
  } else if (process.stdin.isTTY === true) {
    key = await promptPassword("The member's submit key (gate org member add printed it): ");
  } else {
    key = await readStdinPassword();
  }
  key = key.trim();
  if (!API_KEY_PATTERN.test(key)) throw new Ending('the submit key is gk_ followed by 43 base64url characters, as gate org member add prints it', EXIT.badArgument);
  return key;
}

async function call(socket: string, method: string, params: Record<string, unknown>, timeout?: number): Promise<Record<string, any>> {
  const answer = await socketCall(socket, method, params, timeout);
  if ('error' in answer) throw new Ending((answer['error'] as { message: string }).message, EXIT.errorObject);
  return answer['result'] as Record<string, any>;
}

/**
 * gate org join URL: connects the running gate of this home to an organization gate through
 * gv.org_join over the socket (admin): the org is asked whether it knows this gate's key,
 * the key is kept in the home, [org] is saved and applied at once, so the next drain and pull
 * use it with no restart. Prints what was done and the next step.
 */
export async function orgJoinCommand(url: string, options: OrgJoinOptions): Promise<void> {
  const socket = resolveHome(options.home).socket;
  try {
    const key = await submitKey(options);
    let proof = {};
    if (options.operatorKey !== undefined) {
      let operator;
      try {
        operator = readOperatorKey(options.operatorKey);
      } catch (error) {
        throw new Ending(`${options.operatorKey}: ${error instanceof Error ? error.message : String(error)}`, EXIT.badArgument);
      }
      const { nonce } = (await call(socket, 'gv.challenge', {}, options.timeout)) as { nonce: string };
      proof = { proof: operatorProof(operator, nonce) };
    }
    const joined = await call(socket, 'gv.org_join', { url, key, ...(options.pollEvery === undefined ? {} : { poll_every_ms: options.pollEvery }), ...proof }, options.timeout);
    if (options.json) return exitAfterWriting(process.stdout, `${JSON.stringify(joined, null, 2)}\n`, EXIT.result);
    const poll = joined['poll_every_ms'] as number;
    const lines = [
      `joined the organization ${joined['org_deployment_id']} at ${joined['url']} as the member ${joined['member_deployment_id']}`,
      `  the submit key is kept in ${joined['key_file']} (0600); gate.toml [org] saved: ${(joined['saved'] as Array<{ key: string }>).map((s) => s.key).join(', ')}`,
      `  in force now, no restart: the next gv.submit_drain sends to the organization; ${poll === 0 ? 'outcomes are pulled only by gv.outcomes_pull ([org].poll_every_ms = 0)' : `outcomes are pulled every ${poll / 1000} s ([org].poll_every_ms)`}, and each one is logged`,
      `  ${joined['queued']} submission(s) queued`,
      'next: gate call gv.submit \'{"artifact_id":"sha256:..."}\' for a claim this gate promoted, then gate call gv.submit_drain',
    ];
    exitAfterWriting(process.stdout, `${lines.join('\n')}\n`, EXIT.result);
  } catch (error) {
    const code = error instanceof Ending ? error.code : socketFailureExit(error);
    exitAfterWriting(process.stderr, `gate org join: ${error instanceof Error ? error.message : String(error)}\n`, code);
  }
}
