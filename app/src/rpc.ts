import { bearer, dropSession } from './session.js';
import type { VerbAnswer, VerbName, VerbParams } from '../../src/verbs/verb-types.js';

/** A verb's refusal, kept whole so a person can ask for the code and reason. */
export class RpcError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly data: Record<string, any> | undefined,
    readonly verb: string,
  ) {
    super(message);
  }
}

/** Called when the gate no longer knows the token (401): the shell shows the sign-in. */
let onSignedOut: () => void = () => {};
export const whenSignedOut = (f: () => void) => {
  onSignedOut = f;
};

let next = 1;

/**
 * One call of `method` over /rpc with the signed-in person's token. Its params and answer are
 * typed from the verb's own declaration (the gate's registry), so the page and the gate
 * cannot drift apart unseen: a field the page reads that the verb does not answer fails
 * the console's type check.
 */
export async function rpc<N extends VerbName>(method: N, params: VerbParams<N> = {} as VerbParams<N>): Promise<VerbAnswer<N>> {
  return (await rpcCall(method, params)) as VerbAnswer<N>;
}

/** The call itself, for a console that types its verbs from another registry (the organization's, org-rpc.ts). */
export async function rpcCall(method: string, params: unknown): Promise<unknown> {
  const res = await fetch('/rpc', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer()}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: next++, method, params }),
  });
  if (res.status === 401) {
    dropSession();
    onSignedOut();
    throw new RpcError('Your session ended; sign in again.', 401, undefined, method);
  }
  const body = await res.json().catch(() => null);
  if (body === null) throw new RpcError(`The gate answered ${res.status} with no JSON.`, res.status, undefined, method);
  if (body.error) throw new RpcError(body.error.message, body.error.code, body.error.data, method);
  return body.result;
}
