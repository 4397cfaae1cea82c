import type { OrgContext } from './org-context.js';
import type { DoorAnswer } from './submission-door.js';

export const OUTCOMES_DEFAULT_LIMIT = 500;
export const OUTCOMES_MAX_LIMIT = 5000;

const integer = (text: string | null, fallback: number) => (text === null ? fallback : /^\d{1,15}$/.test(text) ? Number(text) : NaN);

/**
 * GET /outcomes?since=&limit= for a member's key: its own outcome lines after the cursor,
 * oldest first. The cursor is the org log seq: decisions commit in seq order (org-log.ts),
 * so a page never skips a line that commits later, on the primary or a replica (OutcomesReader).
 */
export async function getOutcomes(ctx: OrgContext, member: string, query: URLSearchParams): Promise<DoorAnswer> {
  const since = integer(query.get('since'), 0);
  const limit = integer(query.get('limit'), OUTCOMES_DEFAULT_LIMIT);
  if (!Number.isSafeInteger(since)) return { status: 400, body: { error: 'since is a cursor: an integer from a previous page (0: from the start)' } };
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > OUTCOMES_MAX_LIMIT) {
    return { status: 400, body: { error: `limit is an integer from 1 to ${OUTCOMES_MAX_LIMIT}` } };
  }
  const rows = await ctx.outcomesReader.page(member, since, limit);
  const events = rows.map((r) => JSON.parse(r.line) as Record<string, unknown>);
  const next = rows.length === 0 ? since : Number(rows[rows.length - 1]!.seq);
  // member_deployment_id: which member the key is (a joining gate checks it is its own).
  return { status: 200, body: { events, next, deployment_id: ctx.key.deploymentId, member_deployment_id: member } };
}
