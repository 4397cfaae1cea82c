import type { Agent } from 'undici';
import { GateClientError, kindOfStatus, retryAfterMs } from './client-error.js';
import { checkedUrl, exchange, newAgent } from './http-exchange.js';
import { limitsOf, type RawReply, type Transport, type TransportLimits } from './transport-limits.js';

export type Bearer = string | (() => Promise<string>);

export interface HttpTransportOptions extends Partial<TransportLimits> {
  /** The gate's base URL, e.g. https://gate.example or http://127.0.0.1:8480. */
  baseUrl: string;
  path: '/rpc' | '/mcp';
  /**
   * `Authorization: Bearer <token>`: an API key or an access token, or a function giving
   * one per request (an agent's own assertion, AgentAssertions.bearer, minted as it expires).
   */
  bearer?: Bearer;
  /** Plain http is refused unless this is set and the host is loopback. */
  allowPlainHttpLoopback?: boolean;
}

/** Statuses that carry no JSON-RPC answer: rule 4 maps them by status. */
const BY_STATUS = [401, 403, 405, 413, 429, 503];

/** One JSON-RPC message per call to {base_url}/rpc or /mcp with a bearer header (docs/protocol.md#client-transport-rules, rule 1). */
export class HttpTransport implements Transport {
  private readonly url: URL;
  private readonly limits: TransportLimits;
  private readonly agent: Agent;

  constructor(private readonly options: HttpTransportOptions) {
    this.url = checkedUrl(options.baseUrl, options.path, options.allowPlainHttpLoopback);
    this.limits = limitsOf(options);
    this.agent = newAgent(this.limits);
  }

  async roundTrip(message: Record<string, unknown>, write: boolean): Promise<RawReply> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    const bearer = typeof this.options.bearer === 'function' ? await this.options.bearer() : this.options.bearer;
    if (bearer) headers['authorization'] = `Bearer ${bearer}`;
    const res = await exchange(this.agent, this.limits, this.url, { method: 'POST', headers, body: JSON.stringify(message) }, write);
    if (BY_STATUS.includes(res.status)) {
      const said = typeof (res.json as { error?: unknown })?.error === 'string' ? (res.json as { error: string }).error : `HTTP ${res.status}`;
      const retry = retryAfterMs(res.headers['retry-after'] as string | undefined);
      throw new GateClientError(kindOfStatus(res.status, this.options.path), said, { status: res.status, ...(retry !== undefined ? { retry_after_ms: retry } : {}) });
    }
    if (res.json === undefined) {
      throw new GateClientError('invalid_response', `the reply is not JSON (HTTP ${res.status}, content type ${String(res.headers['content-type'] ?? 'none')})`, {
        status: res.status,
        outcome_unknown: write,
      });
    }
    return { value: res.json, status: res.status };
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
