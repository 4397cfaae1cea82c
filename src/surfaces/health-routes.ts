import type { ServerResponse } from 'node:http';
import { degradations } from '../review/degraded.js';
import type { House } from '../verbs/house.js';
import { sendJson } from '../http-rpc/http-replies.js';
import { errorBody, jsonContent, type Route } from './route.js';

/** Why the gate cannot serve now: what /readyz answers 503 with. */
export interface NotReady {
  reason: 'stopping' | 'journal_unreadable' | 'journal_not_durable';
  detail: string;
}

/** What the health routes read: whether the gate can serve, and its metrics' text (null when it keeps none). */
export interface HealthSources {
  /** Empty when the gate can serve. */
  notReady(): NotReady[];
  metrics: { text(): Promise<string>; readonly contentType: string } | null;
}

const NO_STORE = { 'cache-control': 'no-store' };

export function answerLivez(res: ServerResponse): void {
  sendJson(res, 200, { live: true }, NO_STORE);
}

/**
 * 200 while the gate can serve, 503 with the reasons while it cannot (stopping, the journal
 * unreadable, a WAL sync failed). Degradations (grading unavailable, review paused, the
 * quarantine near its cap, embedding failing) are in the body and never a 503 by
 * themselves: an operator away must not take the gate out of its load balancer. Served
 * with no credential, so details name no count of held rows (as gv.ping below reviewer).
 */
export function answerReadyz(house: Pick<House, 'store' | 'review' | 'pipeline' | 'config'>, sources: HealthSources, res: ServerResponse): void {
  const reasons = sources.notReady();
  const degraded = reasons.length > 0 ? [] : degradations(house, false);
  const body = { ready: reasons.length === 0, ...(reasons.length > 0 ? { reasons } : {}), degraded: degraded.length > 0, degraded_reasons: degraded };
  sendJson(res, reasons.length === 0 ? 200 : 503, body, { ...NO_STORE, ...(reasons.length === 0 ? {} : { 'retry-after': '5' }) });
}

export async function answerMetrics(sources: HealthSources, res: ServerResponse): Promise<void> {
  if (sources.metrics === null) return sendJson(res, 404, { error: 'this gate keeps no metrics' });
  const text = await sources.metrics.text();
  res.writeHead(200, { 'content-type': sources.metrics.contentType, 'content-length': Buffer.byteLength(text), ...NO_STORE });
  res.end(text);
}

const readyBody = {
  type: 'object',
  properties: {
    ready: { type: 'boolean' },
    reasons: { type: 'array', items: { type: 'object', properties: { reason: { type: 'string' }, detail: { type: 'string' } } } },
    degraded: { type: 'boolean' },
    degraded_reasons: { type: 'array', items: { type: 'object', properties: { reason: { type: 'string' }, detail: { type: 'string' } } } },
  },
  required: ['ready', 'degraded', 'degraded_reasons'],
};

/**
 * GET /livez, GET /readyz (no credential; answered while the gate drains and past
 * server.max_in_flight, so a probe sees the truth under load) and GET /metrics (a key with
 * scope metrics; see docs/operations.md, "Monitoring").
 */
export function healthRoutes(house: House, sources: HealthSources): Route[] {
  return [
    {
      method: 'GET',
      path: '/livez',
      guard: 'none',
      probe: true,
      summary: 'Liveness: 200 while the process answers.',
      doc: () => ({ responses: { 200: { description: 'the process answers', content: jsonContent({ type: 'object', properties: { live: { const: true } } }) } } }),
      handler: ({ res }) => answerLivez(res),
    },
    {
      method: 'GET',
      path: '/readyz',
      guard: 'none',
      probe: true,
      summary: 'Readiness: 200 while the gate can serve (degradations named in the body), 503 with the reasons while it cannot.',
      doc: () => ({
        responses: {
          200: { description: 'ready; degraded and its reasons in the body', content: jsonContent(readyBody) },
          503: { description: 'not ready: stopping, the journal unreadable, or a WAL sync failed', content: jsonContent(readyBody) },
        },
      }),
      handler: ({ res }) => answerReadyz(house, sources, res),
    },
    {
      method: 'GET',
      path: '/metrics',
      guard: 'bearer',
      summary: 'The Prometheus text format of the gate\'s metrics, to a key with scope metrics.',
      doc: () => ({
        responses: {
          200: { description: 'the metrics', content: { 'text/plain': { schema: { type: 'string' } } } },
          401: { description: 'a credential error', content: jsonContent(errorBody) },
          403: { description: 'a credential without scope metrics', content: jsonContent(errorBody) },
        },
      }),
      handler: async ({ res, caller }) => {
        if (caller?.scope !== 'metrics') {
          return sendJson(res, 403, { error: 'scope: GET /metrics is served to a key with scope metrics (gv.keys issue ... scope: "metrics")', kind: 'scope' });
        }
        await answerMetrics(sources, res);
      },
    },
  ];
}
