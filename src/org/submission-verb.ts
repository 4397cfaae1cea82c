import { z } from 'zod';
import { invalidParams } from '../gate-error.js';
import { defineOrgVerb } from './define-org-verb.js';
import { loggedDecision } from './logged-decision.js';
import { artifactId, memberDeploymentId } from './review-verbs.js';

/**
 * gv.org_submission: one submission as the org holds it, read without taking it: its state
 * and hold, the decision the org's log holds for it once decided (who, as which class, and a
 * refusal's category and reason), the whole submission as the member signed it, and a
 * person's copy of its content (decoded, secrets and personal data masked, findings placed;
 * null when the content is not text). The org's console opens a submission with it.
 */
export const orgSubmissionVerb = defineOrgVerb({
  name: 'gv.org_submission',
  role: 'reviewer',
  summary: "One member gate's submission, read without holding it: state, the org's decision, the signed body and a person's copy of its content.",
  params: z.strictObject({ member_deployment_id: memberDeploymentId, artifact_id: artifactId }),
  async handler(ctx, _caller, p) {
    const row = (
      await ctx.pool.query<{ submission_id: string; trust_class: string; body: string; state: string; attempts: number; received_at: Date; held_by: string | null; held_until: Date | null; live: boolean | null; decision: string | null }>(
        `SELECT s.submission_id, s.trust_class, s.body, s.state, s.attempts, s.received_at, s.held_by, s.held_until, s.held_until > now() AS live, l.body AS decision
           FROM submissions s LEFT JOIN outcomes o ON o.deployment_id = s.deployment_id AND o.artifact_id = s.artifact_id
           LEFT JOIN org_log l ON l.seq = o.seq
          WHERE s.deployment_id = $1 AND s.artifact_id = $2`,
        [p.member_deployment_id, p.artifact_id],
      )
    ).rows[0];
    if (row === undefined) throw invalidParams(`unknown submission: ${p.artifact_id.slice(0, 16)}`, { reason: 'unknown_submission' });
    const { submission, id, sig } = JSON.parse(row.body) as { submission: Record<string, unknown>; id: string; sig: string };
    const [copy] = await ctx.copies.copies([submission]);
    return {
      member_deployment_id: p.member_deployment_id,
      artifact_id: p.artifact_id,
      submission_id: row.submission_id,
      trust_class: row.trust_class,
      state: row.state,
      attempts: row.attempts,
      received_at: row.received_at.getTime(),
      // A hold that ran out holds nothing: the row is back in the pool (the database's clock, as the inbox reads holds).
      held_by: row.state === 'held' && row.live === true ? row.held_by : null,
      held_until: row.state === 'held' ? (row.held_until?.getTime() ?? null) : null,
      decision: row.decision === null ? null : loggedDecision(row.decision),
      submission,
      id,
      sig,
      copy: copy ?? null,
    };
  },
});
