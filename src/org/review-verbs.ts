import { z } from 'zod';
import { inTransaction } from './org-database.js';
import type { OrgContext } from './org-context.js';
import { DecisionRefused, REFUSAL_CATEGORIES, decide, type Decided } from './org-decision.js';
import type { OrgCaller } from './org-members.js';

export class OrgVerbError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

const artifactId = z.string().regex(/^sha256:[0-9a-f]{64}$/);
const deploymentId = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

export const inboxParams = z.strictObject({ limit: z.number().int().min(1).max(100).default(10) });

export const reviewParams = z.strictObject({
  deployment_id: deploymentId,
  artifact_id: artifactId,
  decision: z.enum(['countersign', 'refuse']),
  category: z.enum(REFUSAL_CATEGORIES).optional(),
  reason: z.string().min(1).max(4000).optional(),
});

const identityOf = (caller: OrgCaller) => `key:${caller.key_id}`;

/**
 * gv.org_inbox: takes up to `limit` undecided submissions for the calling reviewer, each
 * held for [org].review_hold_s, and answers them whole (the org is the authority that reads
 * the content). Rows are taken with FOR UPDATE SKIP LOCKED, so two reviewers, on one org
 * process or two, never hold the same submission; a hold that ran out goes back to the pool.
 * The caller's own live holds come first, so asking again answers the same rows.
 */
export async function orgInbox(ctx: OrgContext, caller: OrgCaller, params: z.infer<typeof inboxParams>) {
  const me = identityOf(caller);
  return inTransaction(ctx.pool, async (client) => {
    const taken = await client.query<{ deployment_id: string; artifact_id: string; submission_id: string; trust_class: string; body: string; attempts: number; received_at: Date; held_until: Date }>(
      `WITH pick AS (
         SELECT deployment_id, artifact_id FROM submissions
          WHERE state = 'leased' OR (state = 'held' AND (held_by = $1 OR held_until < now()))
          ORDER BY (held_by = $1) DESC NULLS LAST, received_at
          LIMIT $2 FOR UPDATE SKIP LOCKED)
       UPDATE submissions s SET state = 'held', held_by = $1, held_until = now() + make_interval(secs => $3)
         FROM pick WHERE s.deployment_id = pick.deployment_id AND s.artifact_id = pick.artifact_id
       RETURNING s.deployment_id, s.artifact_id, s.submission_id, s.trust_class, s.body, s.attempts, s.received_at, s.held_until`,
      [me, params.limit, ctx.settings.review_hold_s],
    );
    const items = taken.rows
      .sort((a, b) => a.received_at.getTime() - b.received_at.getTime())
      .map((r) => {
        const { submission, id, sig } = JSON.parse(r.body) as { submission: Record<string, unknown>; id: string; sig: string };
        return {
          deployment_id: r.deployment_id,
          artifact_id: r.artifact_id,
          submission_id: r.submission_id,
          trust_class: r.trust_class,
          attempts: r.attempts,
          received_at: r.received_at.getTime(),
          held_until: r.held_until.getTime(),
          submission,
          id,
          sig,
        };
      });
    return { items, held_by: me };
  });
}

/**
 * gv.org_review: countersign or refuse one submission, as gv.review decides a local row
 * and gv.sign signs it: one decision, journaled in the org's log with its signer class
 * (human: an org reviewer) and, for a refusal, a category (one of the five a submitter is
 * told) and a reason, both kept in the org's log and never in the outcome. A submission
 * another reviewer holds is refused (-32010 held_by_other); deciding a decided row changes nothing.
 */
export async function orgReview(ctx: OrgContext, caller: OrgCaller, p: z.infer<typeof reviewParams>): Promise<Decided> {
  if (p.decision === 'refuse' && p.category === undefined) throw new OrgVerbError(-32602, 'gv.org_review: a refusal names a category', { field: 'category' });
  if (p.decision === 'countersign' && p.category !== undefined) throw new OrgVerbError(-32602, 'gv.org_review: a category belongs to a refusal', { field: 'category' });
  const me = identityOf(caller);
  return inTransaction(ctx.pool, async (client) => {
    const row = (
      await client.query<{ state: string; held_by: string | null; live: boolean }>(
        'SELECT state, held_by, held_until > now() AS live FROM submissions WHERE deployment_id = $1 AND artifact_id = $2 FOR UPDATE',
        [p.deployment_id, p.artifact_id],
      )
    ).rows[0];
    if (!row) throw new OrgVerbError(-32602, `unknown submission: ${p.artifact_id.slice(0, 16)}`, { reason: 'unknown_submission' });
    if (row.state === 'held' && row.held_by !== me && row.live) {
      throw new OrgVerbError(-32010, 'gv.org_review: another reviewer holds this submission', { reason: 'held_by_other' });
    }
    try {
      return await decide(client, ctx.key, {
        deployment_id: p.deployment_id,
        artifact_id: p.artifact_id,
        decision: p.decision,
        authority_class: 'human',
        by: me,
        ...(p.category === undefined ? {} : { category: p.category }),
        ...(p.reason === undefined ? {} : { reason: p.reason }),
      });
    } catch (error) {
      if (error instanceof DecisionRefused) throw new OrgVerbError(-32010, error.message, { reason: error.reason });
      throw error;
    }
  });
}
