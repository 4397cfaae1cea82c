import type { KeyObject } from 'node:crypto';
import { resolveHome } from '../config/home.js';
import { CAPABILITIES } from '../access/capabilities.js';
import { socketCall } from './socket-call.js';
import { socketFailureExit } from './call-command.js';
import { EXIT, exitAfterWriting } from './exit-codes.js';
import { operatorProof, readOperatorKey } from './operator-key.js';
import { peopleByEmail } from './people-by-email.js';

interface Options {
  home?: string;
  timeout?: number;
  json?: boolean;
  key?: string;
}

/** Thrown to end the command with a status: a refusal (1), a bad argument (3). */
class Ending extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

async function call(method: string, params: Record<string, unknown>, options: Options): Promise<Record<string, any>> {
  const answer = await socketCall(resolveHome(options.home).socket, method, params, options.timeout);
  if ('error' in answer) throw new Ending((answer['error'] as { message: string }).message, EXIT.errorObject);
  return answer['result'] as Record<string, any>;
}

/** Runs a grant command, ending it with `gate call`'s exit statuses. */
async function run(name: string, body: () => Promise<string>): Promise<void> {
  try {
    exitAfterWriting(process.stdout, await body(), EXIT.result);
  } catch (error) {
    const code = error instanceof Ending ? error.code : socketFailureExit(error);
    exitAfterWriting(process.stderr, `gate grant ${name}: ${error instanceof Error ? error.message : String(error)}\n`, code);
  }
}

/** `read,contribute` into the capability list, each one of the three, refused before any call. */
function capabilitiesOf(text: string): string[] {
  const caps = [...new Set(text.split(',').map((c) => c.trim()).filter((c) => c !== ''))];
  const unknown = caps.find((c) => !(CAPABILITIES as readonly string[]).includes(c));
  if (caps.length === 0 || unknown !== undefined) {
    throw new Ending(`capabilities are a comma list of ${CAPABILITIES.join(', ')}${unknown === undefined ? '' : `, not ${unknown}`}`, EXIT.badArgument);
  }
  return caps;
}

/**
 * A principal as the operator names it: `key:<key_id>`, `uid:<n>`, `<iss>|<sub>`, or a
 * person's email, looked up in the people list (people know each other by email, grants
 * name identities). An email that signs in at two issuers is not guessed between.
 */
async function principalOf(who: string, options: Options): Promise<string> {
  if (!who.includes('@') || who.includes('|')) return who;
  const people = (await call('gv.people', { action: 'list' }, options))['people'] as Array<Record<string, unknown>>;
  const matches = peopleByEmail(people, who);
  if (matches.length === 0) throw new Ending(`nobody with email ${who}`, EXIT.errorObject);
  if (matches.length > 1) throw new Ending(`${who} signs in at several issuers; name the identity <iss>|<sub> instead`, EXIT.badArgument);
  return matches[0]!['identity'] as string;
}

function operatorKey(file: string): KeyObject {
  try {
    return readOperatorKey(file);
  } catch (error) {
    throw new Ending(`${file}: ${error instanceof Error ? error.message : String(error)}`, EXIT.badArgument);
  }
}

/** With --key, the verb carries an operator proof: a fresh nonce signed by the key, which never leaves this process. */
async function proofFor(options: Options): Promise<Record<string, unknown>> {
  if (options.key === undefined) return {};
  const key = operatorKey(options.key);
  const { nonce } = (await call('gv.challenge', {}, options)) as { nonce: string };
  return { proof: operatorProof(key, nonce) };
}

export function grantChangeCommand(action: 'issue' | 'revoke') {
  return (who: string, space: string, capabilities: string, options: Options) =>
    run(action, async () => {
      const caps = capabilitiesOf(capabilities);
      const principal = await principalOf(who, options);
      const result = await call('gv.grant', { action, grants: [{ principal, space, capabilities: caps }], ...(await proofFor(options)) }, options);
      if (options.json) return `${JSON.stringify(result, null, 2)}\n`;
      const g = result['grants'][0] as { changed: boolean; held: string[]; event_id?: string };
      const held = g.held.length === 0 ? 'nothing' : g.held.join(', ');
      const did = action === 'issue' ? `issued ${caps.join(', ')} on ${space} to` : `revoked ${caps.join(', ')} on ${space} from`;
      return g.changed ? `${did} ${principal}: now holds ${held}; event ${g.event_id}\n` : `nothing changed: ${principal} holds ${held} on ${space}\n`;
    });
}

export function grantListCommand(options: Options & { principal?: string; space?: string }) {
  return run('list', async () => {
    const principal = options.principal === undefined ? undefined : await principalOf(options.principal, options);
    const result = await call(
      'gv.grants',
      { ...(principal === undefined ? {} : { principal }), ...(options.space === undefined ? {} : { space: options.space }) },
      options,
    );
    if (options.json) return `${JSON.stringify(result, null, 2)}\n`;
    const grants = result['grants'] as Array<{ principal: string; space: string; capabilities: string[] }>;
    const lines = grants.map((g) => `${g.space}\t${g.capabilities.join(',')}\t${g.principal}`);
    const upgrade = result['upgrade'] as string[];
    if (upgrade.length > 0) lines.push(`refused for want of a grant: ${upgrade.join(', ')}`);
    return `${lines.length === 0 ? 'no grants' : lines.join('\n')}\n`;
  });
}
