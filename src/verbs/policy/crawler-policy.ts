import { z } from 'zod';
import { defineVerb, type VerbContext } from '../define-verb.js';
import { invalidParams, roleTooLow } from '../../gate-error.js';
import { atLeast } from '../../domain/roles.js';
import { eventFromRow } from '../../forms/event.js';
import { proofParam, provenBy, requireOperatorProof } from '../operator-proof.js';
import type { House } from '../house.js';
import { robotsExceptionAnswer } from '../answer-types.js';

const ISSUED = 'crawler-exception-issued';
const REVOKED = 'crawler-exception-revoked';

/** An origin as the crawler meets it: scheme, host and port, nothing else. */
const originParam = z
  .string()
  .max(300)
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'https:' || u.protocol === 'http:') && u.origin === s;
    } catch {
      return false;
    }
  }, 'an origin is scheme://host[:port], with no path, e.g. https://example.org');
const pathPrefixParam = z.string().min(1).max(1024).regex(/^\/[^\s?#]*$/, 'a path prefix starts with / and has no query or fragment');

export interface RobotsException {
  origin: string;
  path_prefix: string;
  reason: string;
  issued_by: string | null;
  issued_at: number;
  until?: number;
  event_id: string;
}

/** The exceptions standing now, folded from the journal's issue and revoke events in append order (they are few). */
function standingExceptions(house: Pick<House, 'store' | 'clock'>): RobotsException[] {
  const rows = house.store.journalReads.crawlerExceptionEvents();
  const standing = new Map<string, RobotsException>();
  for (const event of rows.map(eventFromRow)) {
    const d = event.data as { origin: string; path_prefix: string; reason?: string; until?: number };
    const key = `${d.origin} ${d.path_prefix}`;
    if (event.type === REVOKED) standing.delete(key);
    else standing.set(key, { origin: d.origin, path_prefix: d.path_prefix, reason: d.reason ?? '', issued_by: event.by, issued_at: event.ts, ...(d.until === undefined ? {} : { until: d.until }), event_id: event.event_id });
  }
  const now = house.clock.now();
  return [...standing.values()].filter((e) => e.until === undefined || e.until > now);
}

/** The exception covering a URL: same origin, the longest path prefix its path starts with. */
function exceptionFor(exceptions: readonly RobotsException[], url: URL): RobotsException | undefined {
  return exceptions
    .filter((e) => e.origin === url.origin && url.pathname.startsWith(e.path_prefix))
    .sort((a, b) => b.path_prefix.length - a.path_prefix.length)[0];
}

function requireAdmin(ctx: Pick<VerbContext, 'caller'>, action: string): void {
  if (!atLeast(ctx.caller.role, 'admin')) throw roleTooLow(`gv.crawler_policy ${action}`, 'admin', ctx.caller.role);
}

/**
 * The crawler policy of the agents that fetch what they propose: robots.txt is respected,
 * except where the operator recorded an exception for an origin and path prefix (a source
 * the owner agreed to, say). The gate fetches nothing itself (docs/protocol.md#events: it opens no
 * connection); an agent asks `get` before it fetches, and its claims name the URL in
 * source_uri as ever. Issuing and revoking are the operator's (admin, with an operator
 * proof when operator keys are configured), journaled.
 */
const crawlerPolicyAnswer = z.union([
  z.object({ action: z.literal('revoke'), origin: z.string(), path_prefix: z.string(), changed: z.boolean() }),
  z.object({
    until: z.number().optional(),
    action: z.enum(['issue', 'revoke']),
    origin: z.string(),
    path_prefix: z.string(),
    changed: z.boolean(),
    event_id: z.string(),
  }),
  z.object({ default: z.string(), exceptions: z.array(robotsExceptionAnswer) }),
  z.object({ url: z.string(), origin: z.string(), robots: z.string() }),
  z.object({ url: z.string(), origin: z.string(), robots: z.string(), exception: robotsExceptionAnswer }),
]);

export const crawlerPolicyVerb = defineVerb({
  name: 'gv.crawler_policy',
  role: 'agent',
  summary: "The crawlers' robots.txt policy: get whether a URL (or which origins) may be fetched despite robots.txt; the operator issues and revokes those exceptions.",
  params: z.strictObject({
    action: z.enum(['get', 'issue', 'revoke']).optional(),
    url: z.url({ protocol: /^https?$/ }).max(4096).optional(),
    origin: originParam.optional(),
    path_prefix: pathPrefixParam.optional(),
    reason: z.string().min(1).max(500).optional(),
    until: z.number().int().min(0).optional(),
    proof: proofParam.optional(),
  }),
  answer: crawlerPolicyAnswer,
  uses: ['store', 'auth', 'clock'],
  async handler(ctx, p) {
    const { caller, store, clock } = ctx;
    const action = p.action ?? 'get';
    if (action === 'get') {
      for (const field of ['origin', 'path_prefix', 'reason', 'until', 'proof'] as const) {
        if (p[field] !== undefined) throw invalidParams(`${field} is for issue and revoke; get takes url`, { field });
      }
      const exceptions = standingExceptions({ store, clock });
      if (p.url === undefined) return { default: 'respect_robots', exceptions };
      const url = new URL(p.url);
      const exception = exceptionFor(exceptions, url);
      return exception === undefined
        ? { url: p.url, origin: url.origin, robots: 'respect' }
        : { url: p.url, origin: url.origin, robots: 'exception', exception };
    }
    requireAdmin(ctx, action);
    if (p.url !== undefined) throw invalidParams(`url is for get; ${action} takes origin and path_prefix`, { field: 'url' });
    if (p.origin === undefined) throw invalidParams(`missing field: origin`, { field: 'origin' });
    const origin = p.origin;
    const pathPrefix = p.path_prefix ?? '/';
    if (action === 'issue' && p.reason === undefined) throw invalidParams('missing field: reason (why the owner allows it)', { field: 'reason' });
    if (action === 'revoke' && p.until !== undefined) throw invalidParams('until is for issue', { field: 'until' });
    if (p.until !== undefined && p.until <= clock.now()) throw invalidParams('until is already past', { field: 'until' });
    const operatorKey = requireOperatorProof(ctx, p.proof, `gv.crawler_policy ${action}`);
    return store.writer.write(() => {
      const standing = standingExceptions({ store, clock }).find((e) => e.origin === origin && e.path_prefix === pathPrefix);
      if (action === 'revoke' && standing === undefined) return { action, origin, path_prefix: pathPrefix, changed: false };
      const event = store.journal.append(action === 'issue' ? ISSUED : REVOKED, caller.identity, {
        origin,
        path_prefix: pathPrefix,
        ...(p.reason === undefined ? {} : { reason: p.reason }),
        ...(p.until === undefined ? {} : { until: p.until }),
        ...provenBy(operatorKey),
      });
      return { action, origin, path_prefix: pathPrefix, changed: true, event_id: event.event_id, ...(p.until === undefined ? {} : { until: p.until }) };
    });
  },
});
