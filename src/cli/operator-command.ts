import { generateKeyPairSync } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { resolveHome } from '../config/home.js';
import { socketCall } from './socket-call.js';
import { socketFailureExit, unknownVerb } from './call-command.js';
import { EXIT, exitAfterWriting } from './exit-codes.js';
import { operatorProof, readOperatorKey } from './operator-key.js';
import { isJsonObject } from '../domain/json-object.js';

/** A new operator key: the private half to a file of the operator's (0600), the public half printed for the config. */
export function operatorKeygenCommand(options: { out: string }): void {
  if (existsSync(options.out)) {
    process.stderr.write(`gate operator keygen: ${options.out} exists; not overwriting a key\n`);
    process.exit(1);
  }
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  writeFileSync(options.out, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
  const x = publicKey.export({ format: 'jwk' }).x!;
  process.stdout.write(`${x}\n`);
  process.stderr.write(`private key written to ${options.out}; add the line above to [auth].operator_keys in gate.toml\n`);
}

/**
 * Calls an operator-signed verb: asks gv.challenge for a nonce, signs it with the operator's
 * key (which never leaves this process) and sends the verb with proof {nonce, sig}.
 */
export async function operatorCallCommand(method: string, paramsText: string | undefined, options: { key: string; home?: string; timeout?: number }): Promise<void> {
  const unknown = unknownVerb(method);
  if (unknown !== undefined) return exitAfterWriting(process.stderr, `gate operator call: ${unknown}\n`, EXIT.badArgument);
  let params: Record<string, unknown> = {};
  try {
    params = paramsText === undefined ? {} : (JSON.parse(paramsText) as Record<string, unknown>);
    if (!isJsonObject(params)) throw new Error('not an object');
  } catch {
    return exitAfterWriting(process.stderr, 'gate operator call: params must be a JSON object\n', EXIT.badArgument);
  }
  let key;
  try {
    key = readOperatorKey(options.key);
  } catch (error) {
    return exitAfterWriting(process.stderr, `gate operator call: ${options.key}: ${error instanceof Error ? error.message : String(error)}\n`, EXIT.badArgument);
  }
  const socket = resolveHome(options.home).socket;
  try {
    const challenge = await socketCall(socket, 'gv.challenge', {}, options.timeout);
    if ('error' in challenge) return exitAfterWriting(process.stdout, `${JSON.stringify(challenge, null, 2)}\n`, EXIT.errorObject);
    const nonce = (challenge['result'] as { nonce: string }).nonce;
    const answer = await socketCall(socket, method, { ...params, proof: operatorProof(key, nonce) }, options.timeout);
    exitAfterWriting(process.stdout, `${JSON.stringify(answer, null, 2)}\n`, 'error' in answer ? EXIT.errorObject : EXIT.result);
  } catch (error) {
    exitAfterWriting(process.stderr, `gate operator call: ${error instanceof Error ? error.message : String(error)}\n`, socketFailureExit(error));
  }
}

