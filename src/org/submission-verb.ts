import { z } from 'zod';
import { atLeast } from '../domain/roles.js';
import { invalidParams } from '../gate-error.js';
import { defineOrgVerb } from './define-org-verb.js';
import { inboxItem, ITEM_COLUMNS, storedBody, type ItemRow } from './inbox-item.js';
import { loggedDecision } from './logged-decision.js';
import { artifactId, memberDeploymentId } from './review-verbs.js';

/**
 * gv.org_submission: one submission as the org holds it, read without taking it: the item as
 * gv.org_inbox lists it (its state and hold, the decisions waiting for more people,
 * how the caller's decision would count), the decision the org's log holds for it once
 * decided (who, as which class, and a refusal's category and reason), a person's copy of its
 * content (decoded, secrets and personal data masked, findings placed; null when the content
 * is not text or was erased), and, for a member's erasure, its signed retraction.
 *
 * The content's raw bytes (`raw: true`) go only to who checks the member's signature with
 * them: a signed-in person, whose console verifies the submission in their browser and shows
 * only the person's copy, and an admin. A review key is a program's credential and reads the
 * person's copy, as a program at the gate never reads what a person's copy masks.
 */
export const orgSubmissionVerb = defineOrgVerb({
  name: 'gv.org_submission',
  role: 'reviewer',
  summary: "One member gate's submission, read without holding it: state, the org's decision, a person's copy of its content; raw: the signed body with its bytes (people and admins).",
  params: z.strictObject({ member_deployment_id: memberDeploymentId, artifact_id: artifactId, raw: z.boolean().default(false) }),
  async handler(ctx, caller, p) {
    if (p.raw && caller.kind !== 'person' && !atLeast(caller.role, 'admin')) {
      throw invalidParams("raw: a submission's bytes go to people (whose console checks the member's signature with them) and admins; a review key reads the person's copy", { field: 'raw', reason: 'people_and_admins' });
    }
    const row = (
      await ctx.pool.query<ItemRow & { decision: string | null }>(
        `SELECT ${ITEM_COLUMNS}, l.body AS decision
           FROM submissions s LEFT JOIN outcomes o ON o.deployment_id = s.deployment_id AND o.artifact_id = s.artifact_id
           LEFT JOIN org_log l ON l.seq = o.seq
          WHERE s.deployment_id = $1 AND s.artifact_id = $2`,
        [p.member_deployment_id, p.artifact_id],
      )
    ).rows[0];
    if (row === undefined) throw invalidParams(`unknown submission: ${p.artifact_id.slice(0, 16)}`, { reason: 'unknown_submission' });
    const [copy] = await ctx.copies.copies([storedBody(row).submission]);
    return {
      ...inboxItem(row, caller, p.raw),
      decision: row.decision === null ? null : loggedDecision(row.decision),
      copy: copy ?? null,
    };
  },
});
