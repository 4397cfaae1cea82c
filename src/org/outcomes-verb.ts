import { z } from 'zod';
import { defineOrgVerb } from './define-org-verb.js';
import { loggedDecision } from './logged-decision.js';

/**
 * gv.org_outcomes: the org's decisions, newest first, as its log holds them: what members
 * are sent (type, row, class of the decider) and what stays at the org (who decided, a
 * refusal's category and reason), each with the signed outcome line its member is sent.
 * `before` pages back by the log's seq.
 */
export const orgOutcomesVerb = defineOrgVerb({
  name: 'gv.org_outcomes',
  role: 'reviewer',
  summary: "The org's countersigns and refusals, newest first: who decided, as which class, and a refusal's category and reason.",
  params: z.strictObject({ before: z.number().int().min(1).optional(), limit: z.number().int().min(1).max(500).default(50) }),
  async handler(ctx, _caller, p) {
    const rows = await ctx.pool.query<{ body: string; line: string | null }>(
      `SELECT l.body, o.line FROM org_log l LEFT JOIN outcomes o ON o.seq = l.seq
        WHERE l.type IN ('countersign', 'refuse') AND ($1::bigint IS NULL OR l.seq < $1) ORDER BY l.seq DESC LIMIT $2`,
      [p.before ?? null, p.limit],
    );
    // Each with the signed line its member is sent, so a reader can check the org's signature.
    const items = rows.rows.map((r) => ({ ...loggedDecision(r.body), line: r.line === null ? null : (JSON.parse(r.line) as Record<string, unknown>) }));
    // The page after this one: below the oldest seq answered; null when this page is the last.
    return { items, before: items.length === p.limit ? items.at(-1)!.seq : null };
  },
});
