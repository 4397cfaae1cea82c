import { HttpTransport } from './http-transport.js';
import { resultOf } from './json-rpc-reply.js';
import type { TransportLimits } from './transport-limits.js';

/** The organization gate's /rpc verbs (src/org/org-registry.ts), and whether each one writes. */
export const ORG_VERB_WRITES = {
  'gv.describe': false,
  'gv.org_inbox': false,
  'gv.org_submission': false,
  // Taking holds a submission for the caller: a write, so a lost reply is outcome_unknown.
  'gv.org_take': true,
  'gv.org_review': true,
} as const;

export type OrgVerbName = keyof typeof ORG_VERB_WRITES;

export interface OrgRpcClientOptions extends Partial<TransportLimits> {
  baseUrl: string;
  /** A person's access token from an issuer the org trusts, or an org key. */
  bearer: string;
  allowPlainHttpLoopback?: boolean;
}

/**
 * The organization gate's /rpc with the client transport rules (docs/protocol.md#client-transport-rules: one message a call, one
 * deadline, caps, no redirects, no retries, duplicate keys refused), as GateClient is the
 * gate's: the org serves other verbs than the gate, so it has its own short table.
 */
export class OrgRpcClient {
  private readonly transport: HttpTransport;
  private nextId = 1;

  constructor(options: OrgRpcClientOptions) {
    this.transport = new HttpTransport({ ...options, path: '/rpc' });
  }

  async call(method: OrgVerbName, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const write = ORG_VERB_WRITES[method];
    const id = this.nextId++;
    const reply = await this.transport.roundTrip({ jsonrpc: '2.0', id, method, params }, write);
    return resultOf(reply.value, id, write, reply.status);
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}
