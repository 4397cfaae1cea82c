import type { Agent } from 'undici';
import { GateClientError, retryAfterMs } from './client-error.js';
import { checkedUrl, exchange, newAgent } from './http-exchange.js';
import { limitsOf, type TransportLimits } from './transport-limits.js';
import { isJsonObject } from './json-object.js';

export interface OrgDoorClientOptions extends Partial<TransportLimits> {
  /** The organization gate's base URL. */
  baseUrl: string;
  bearer: string;
  allowPlainHttpLoopback?: boolean;
}

/** How PUT /submissions/{id} answered (docs/protocol.md#organization-doors). */
export type SubmitOutcome =
  | { outcome: 'accepted'; status: number; answer: Record<string, unknown> }
  | { outcome: 'retry'; status: number; retry_after_ms: number | null }
  | { outcome: 'stopped'; status: number; error: string }
  | { outcome: 'refused'; status: number; error: string };

export interface OutcomesPage {
  events: Record<string, unknown>[];
  next: string | number | null;
  deployment_id: string | null;
  /** The member the key was issued to, when the door says (an organization gate does). */
  member_deployment_id: string | null;
}

/** GET /health of an organization gate: its key and the issuers its people sign in at. */
export interface OrgHealth {
  deployment_id: string;
  trusted_issuers: string[];
}


/** The 4xx answers that say "later", not "never": a timeout, too early, too fast. */
const RETRIED = new Set([408, 425, 429]);

const errorText = (json: unknown, text: string, status: number) =>
  isJsonObject(json) && typeof json['error'] === 'string' ? json['error'] : text.trim().slice(0, 200) || `HTTP ${status}`;

/**
 * The client of an organization gate's doors. A submission's answer is classified, never
 * retried here: accepted (200, 202), retry (408, 425, 429, and 5xx, with the door's
 * Retry-After), stopped (401, 403: a key problem, stop sending), refused (every other 4xx:
 * 400, 413 and 422 among them, an answer that will not change however often the same body
 * is sent). Outcomes are paged by cursor.
 */
export class OrgDoorClient {
  private readonly limits: TransportLimits;
  private readonly agent: Agent;
  private readonly base: string;

  constructor(private readonly options: OrgDoorClientOptions) {
    this.limits = limitsOf(options);
    this.agent = newAgent(this.limits);
    this.base = checkedUrl(options.baseUrl, '/', options.allowPlainHttpLoopback).href;
  }

  private headers(json: boolean): Record<string, string> {
    return {
      authorization: `Bearer ${this.options.bearer}`,
      accept: 'application/json',
      ...(json ? { 'content-type': 'application/json' } : {}),
    };
  }

  async submit(artifactId: string, body: Record<string, unknown>): Promise<SubmitOutcome> {
    const url = new URL(`submissions/${encodeURIComponent(artifactId)}`, this.base);
    const res = await exchange(this.agent, this.limits, url, { method: 'PUT', headers: this.headers(true), body: JSON.stringify(body) }, true);
    return this.classified(res);
  }

  /** A PUT's answer classified (see the class comment); an answer that says nothing sure is outcome_unknown. */
  private classified(res: Awaited<ReturnType<typeof exchange>>): SubmitOutcome {
    const { status } = res;
    if (status === 200 || status === 202) {
      if (!isJsonObject(res.json)) throw new GateClientError('invalid_response', `the door accepted (${status}) with no JSON object`, { status, outcome_unknown: true });
      return { outcome: 'accepted', status, answer: res.json };
    }
    if (RETRIED.has(status) || status >= 500) {
      return { outcome: 'retry', status, retry_after_ms: retryAfterMs(res.headers['retry-after'] as string | undefined) ?? null };
    }
    if (status === 401 || status === 403) return { outcome: 'stopped', status, error: errorText(res.json, res.text, status) };
    // Any other 4xx is about this request, and the same PUT will get the same answer: a drain that retried it would send it forever.
    if (status >= 400 && status < 500) return { outcome: 'refused', status, error: errorText(res.json, res.text, status) };
    throw new GateClientError('remote_error', `the door answered ${status}: ${errorText(res.json, res.text, status)}`, { status, outcome_unknown: true });
  }

  /**
   * PUT /retractions/{id}: the member erased the row and asks the organization to erase its
   * copy. Classified as a submission is, with one more final answer: 404 (the organization
   * never held the row) is `accepted`, since nothing of it is left there.
   */
  async retract(artifactId: string, body: Record<string, unknown>): Promise<SubmitOutcome> {
    const url = new URL(`retractions/${encodeURIComponent(artifactId)}`, this.base);
    const res = await exchange(this.agent, this.limits, url, { method: 'PUT', headers: this.headers(true), body: JSON.stringify(body) }, true);
    if (res.status === 404) return { outcome: 'accepted', status: 404, answer: { artifact_id: artifactId, state: 'unknown', erased: true, changed: false } };
    return this.classified(res);
  }

  /** One page of GET /outcomes from a cursor (none: from the start). */
  async outcomes(since?: string | number, limit?: number): Promise<OutcomesPage> {
    const url = new URL('outcomes', this.base);
    if (since !== undefined) url.searchParams.set('since', String(since));
    if (limit !== undefined) url.searchParams.set('limit', String(limit));
    const res = await exchange(this.agent, this.limits, url, { method: 'GET', headers: this.headers(false) }, false);
    if (res.status === 401) throw new GateClientError('auth', errorText(res.json, res.text, 401), { status: 401 });
    if (res.status === 403) throw new GateClientError('scope', errorText(res.json, res.text, 403), { status: 403 });
    if (res.status === 429 || res.status === 503) {
      const retry = retryAfterMs(res.headers['retry-after'] as string | undefined);
      throw new GateClientError('busy', `the door is busy (${res.status})`, { status: res.status, ...(retry !== undefined ? { retry_after_ms: retry } : {}) });
    }
    if (res.status !== 200) throw new GateClientError('remote_error', `the door answered ${res.status}`, { status: res.status });
    const page = res.json;
    if (!isJsonObject(page) || !Array.isArray(page['events']) || !page['events'].every(isJsonObject)) {
      throw new GateClientError('invalid_response', 'an outcomes page is {events[], next, deployment_id}', { status: 200 });
    }
    const next = page['next'];
    return {
      events: page['events'] as Record<string, unknown>[],
      next: typeof next === 'string' || typeof next === 'number' ? next : null,
      deployment_id: typeof page['deployment_id'] === 'string' ? page['deployment_id'] : null,
      member_deployment_id: typeof page['member_deployment_id'] === 'string' ? page['member_deployment_id'] : null,
    };
  }

  /**
   * GET /health, sent without the key (it needs none): whether this address answers as an
   * organization gate, `{ok: true, deployment_id, trusted_issuers}`. Anything else is
   * invalid_response, saying what came back.
   */
  async health(): Promise<OrgHealth> {
    const url = new URL('health', this.base);
    const res = await exchange(this.agent, this.limits, url, { method: 'GET', headers: { accept: 'application/json' } }, false);
    const body = res.json;
    if (res.status !== 200 || !isJsonObject(body) || body['ok'] !== true || typeof body['deployment_id'] !== 'string' || !Array.isArray(body['trusted_issuers'])) {
      throw new GateClientError('invalid_response', `GET /health answered ${res.status}${isJsonObject(body) ? '' : ' with no JSON object'}, not as an organization gate does ({ok, deployment_id, trusted_issuers})`, { status: res.status });
    }
    return { deployment_id: body['deployment_id'], trusted_issuers: body['trusted_issuers'].filter((i): i is string => typeof i === 'string') };
  }

  /** Every outcome from a cursor on, page by page, until a page comes back empty or names no next cursor. */
  async *allOutcomes(since?: string | number, limit?: number): AsyncGenerator<Record<string, unknown>> {
    let cursor = since;
    for (;;) {
      const page = await this.outcomes(cursor, limit);
      yield* page.events;
      if (page.events.length === 0 || page.next === null || page.next === cursor) return;
      cursor = page.next;
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
