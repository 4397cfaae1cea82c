import { rpcCall } from '../rpc.js';
import type { OrgVerbAnswer, OrgVerbName, OrgVerbParams } from '../../../src/org/org-verb-types.js';

/**
 * One call of an organization verb over the org's /rpc with the signed-in person's token
 * (the gate console's rpc call: its 401 handling and its refusals), typed from the org's own
 * verb declarations (src/org/org-registry.ts).
 */
export async function orgRpc<N extends OrgVerbName>(method: N, params: OrgVerbParams<N> = {} as OrgVerbParams<N>): Promise<OrgVerbAnswer<N>> {
  return (await rpcCall(method, params)) as OrgVerbAnswer<N>;
}

export type { OrgVerbAnswer };
