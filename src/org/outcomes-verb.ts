import { z } from 'zod';
import { defineOrgVerb } from './define-org-verb.js';

interface DecisionLogged {
  seq: number;
  type: 'countersign' | 'refuse';
  by: string;
  ts: number;
  data: { artifact_id: string; member_deployment_id: string; submission_id: string; trust_class: string; authority_class: string; category?: string; reason?: string };
}

/**
 * gv.org_outcomes: the org's decisions, newest first, as its log holds them: what members
 * are sent (type, row, class of the decider) and what stays at the org (who decided, a
 * refusal's category and reason). `before` pages back by the log's seq.
 */
export const orgOutcomesVerb = defineOrgVerb({
  name: 'gv.org_outcomes',
  role: 'reviewer',
  summary: "The org's countersigns and refusals, newest first: who decided, as which class, and a refusal's category and reason.",
  params: z.strictObject({ before: z.number().int().min(1).optional(), limit: z.number().int().min(1).max(500).default(50) }),
  async handler(ctx, _caller, p) {
    const rows = await ctx.pool.query<{ body: string }>(
      `SELECT body FROM org_log WHERE type IN ('countersign', 'refuse') AND ($1::bigint IS NULL OR seq < $1) ORDER BY seq DESC LIMIT $2`,
      [p.before ?? null, p.limit],
    );
    const items = rows.rows.map((r) => {
      const e = JSON.parse(r.body) as DecisionLogged;
      return {
        seq: e.seq,
        type: e.type,
        artifact_id: e.data.artifact_id,
        member_deployment_id: e.data.member_deployment_id,
        submission_id: e.data.submission_id,
        trust_class: e.data.trust_class,
        authority_class: e.data.authority_class,
        by: e.by,
        ts: e.ts,
        ...(e.data.category === undefined ? {} : { category: e.data.category }),
        ...(e.data.reason === undefined ? {} : { reason: e.data.reason }),
      };
    });
    // The page after this one: below the oldest seq answered; null when this page is the last.
    return { items, before: items.length === p.limit ? items.at(-1)!.seq : null };
  },
});
