import { GateClientError } from './client-error.js';
import { HttpTransport, type Bearer } from './http-transport.js';
import { resultOf } from './json-rpc-reply.js';
import { requireScope, type ClientScope } from './scopes.js';
import { SocketTransport } from './socket-transport.js';
import type { Transport, TransportLimits } from './transport-limits.js';
import { VERB_ROLES, type VerbAnswer, type VerbName, type VerbParams } from './verb-table.js';

export type GateClientOptions = Partial<TransportLimits> & { scope?: ClientScope } & (
    | { transport: 'socket'; socketPath: string }
    | { transport: 'rpc'; baseUrl: string; bearer?: Bearer; allowPlainHttpLoopback?: boolean }
  );

/**
 * The gate's verbs from TypeScript, over the local socket or POST /rpc, following every
 * client transport rule (docs/protocol.md#client-transport-rules): one message per call, one deadline, capped request and
 * reply, no redirect, no retry, duplicate keys refused, scopes enforced before any I/O,
 * errors by kind, outcome_unknown on a write whose reply was lost.
 */
export class GateClient {
  private readonly transport: Transport;
  private readonly scope: ClientScope;
  private nextId = 1;

  constructor(options: GateClientOptions) {
    this.scope = options.scope ?? 'read';
    this.transport =
      options.transport === 'socket'
        ? new SocketTransport(options)
        : new HttpTransport({ ...options, path: '/rpc' });
  }

  /**
   * Calls one verb and resolves with its answer, typed as the gate declares it (VerbAnswer: the
   * answer schema beside each verb, which the gate's tests hold every answer to). The client
   * checks the envelope (JSON-RPC 2.0, this call's id, an object result), not each field.
   */
  async call<M extends VerbName>(method: M, ...[params]: {} extends VerbParams<M> ? [VerbParams<M>?] : [VerbParams<M>]): Promise<VerbAnswer<M>> {
    const role = VERB_ROLES[method];
    if (role === undefined) throw new GateClientError('unsupported_operation', `${method} is not a verb this client knows`);
    requireScope(this.scope, method, role, this.decides());
    const write = role !== 'reader';
    const id = this.nextId++;
    const reply = await this.transport.roundTrip({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }, write);
    return resultOf(reply.value, id, write, reply.status) as VerbAnswer<M>;
  }

  /** Whether this client may send the deciding verbs: only ReviewerClient says yes. */
  protected decides(): boolean {
    return false;
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}
