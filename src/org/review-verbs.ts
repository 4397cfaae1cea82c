import { z } from 'zod';
import { invalidParams, lifecycle } from '../gate-error.js';
import { defineOrgVerb } from './define-org-verb.js';
import type { OrgStaffCaller } from './org-bearer.js';
import { inTransaction } from './org-database.js';
import { DecisionRefused, REFUSAL_CATEGORIES } from './org-decision.js';
import type { AuthorityClass } from '../forms/outcome-line.js';

export const artifactId = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'an artifact id is sha256:<64 hex>');
export const memberDeploymentId = z.string().regex(/^[A-Za-z0-9_-]{43}$/, "a member gate's deployment id is 43 base64url characters");

/**
 * The signer class an org decision is journaled with, by the gate's rule: a signed-in person
 * decides as `human`; a key's holder is a program (FACTS "Operator proof": a sign without a
 * person behind it never counts as a human's), so a review key decides as `agent`.
 */
const authorityClassOf = (caller: OrgStaffCaller): AuthorityClass => (caller.kind === 'person' ? 'human' : 'agent');

/**
 * gv.org_inbox: takes up to `limit` undecided submissions for the calling reviewer, each
 * held for [org].review_hold_s, and answers them whole (the org is the authority that reads
 * the content). Rows are taken with FOR UPDATE SKIP LOCKED, so two reviewers, on one org
 * process or two, never hold the same submission; a hold that ran out goes back to the pool.
 * The caller's own live holds come first, so asking again answers the same rows.
 * With `decoded`, each item also carries `copy`: its content as a person reads it at the
 * gate (decoded, secrets and personal data masked, every finding placed), or null when the
 * content is not text.
 */
export const orgInboxVerb = defineOrgVerb({
  name: 'gv.org_inbox',
  role: 'reviewer',
  summary: 'Take undecided submissions for review (held for [org].review_hold_s): metadata, envelope, content, local verdicts and signatures; decoded: a person\'s copy of each content too.',
  params: z.strictObject({ limit: z.number().int().min(1).max(100).default(10), decoded: z.boolean().default(false) }),
  async handler(ctx, caller, params) {
    const me = caller.identity;
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
            member_deployment_id: r.deployment_id,
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
    }).then(async (taken) => {
      // Copies are made after the hold's transaction: a scan never holds a row lock.
      const copies = params.decoded ? await ctx.copies.copies(taken.items.map((i) => i.submission)) : null;
      return { ...taken, items: taken.items.map((item, n) => (copies === null ? item : { ...item, copy: copies[n] ?? null })) };
    });
  },
});

/**
 * gv.org_review: countersign or refuse one submission, as gv.review decides a local row
 * and gv.sign signs it: one decision, journaled in the org's log with its signer class
 * (authorityClassOf) and, for a refusal, a category (one of the five a submitter is told)
 * and a reason, both kept in the org's log and never in the outcome. A submission another
 * reviewer holds is refused (-32010 held_by_other); deciding a decided row changes nothing.
 * Decisions arriving together share one transaction (DecisionBatch).
 */
export const orgReviewVerb = defineOrgVerb({
  name: 'gv.org_review',
  role: 'reviewer',
  summary: "Countersign or refuse one member gate's submission; a refusal names a category (its reason stays in the org's log).",
  params: z.strictObject({
    member_deployment_id: memberDeploymentId,
    artifact_id: artifactId,
    decision: z.enum(['countersign', 'refuse']),
    category: z.enum(REFUSAL_CATEGORIES).optional(),
    reason: z.string().min(1).max(4000).optional(),
  }),
  async handler(ctx, caller, p) {
    if (p.decision === 'refuse' && p.category === undefined) throw invalidParams('missing field: category (a refusal names one)', { field: 'category' });
    if (p.decision === 'countersign' && p.category !== undefined) throw invalidParams('field category: a category belongs to a refusal', { field: 'category' });
    const decided = await ctx.decisions.take({
      deployment_id: p.member_deployment_id,
      artifact_id: p.artifact_id,
      decision: p.decision,
      authority_class: authorityClassOf(caller),
      by: caller.identity,
      reviewer: caller.identity,
      ...(p.category === undefined ? {} : { category: p.category }),
      ...(p.reason === undefined ? {} : { reason: p.reason }),
    });
    if (!(decided instanceof DecisionRefused)) return decided;
    if (decided.reason === 'unknown_submission') throw invalidParams(`unknown submission: ${p.artifact_id.slice(0, 16)}`, { reason: 'unknown_submission' });
    throw lifecycle(`gv.org_review: ${decided.message}`, decided.reason);
  },
});
