import type { PoolClient } from 'pg';
import { inTransaction } from './org-database.js';
import type { OrgContext } from './org-context.js';
import { DecisionRefused, decideAll, type Decided } from './org-decision.js';
import { logDecision } from './decision-log-line.js';
import type { CheckedSubmission } from '../../workers/submission-check/submission-check.js';
import { forkRefusal } from './member-chains.js';

export interface DoorAnswer {
  status: number;
  /** null: no content (a JSON-RPC notification at /rpc). */
  body: Record<string, unknown> | null;
  headers?: Record<string, string>;
}

const answer = (status: number, row: { artifact_id: string; state: string; attempts: number }, org: string): DoorAnswer => ({
  status,
  body: { artifact_id: row.artifact_id, state: row.state, attempts: row.attempts, deployment_id: org },
});

/**
 * PUT /submissions/{artifact_id} for a member's submit key, `bytes` the body as sent. New:
 * 202 leased (taken into the inbox). Seen before: 200 with its state; the same submission
 * again changes nothing, a new submission id for an undecided row replaces the body (the
 * member's newer state) and counts one more attempt; a decided row never reopens.
 *
 * The body is checked first, in the check pool's workers (SubmissionChecks); then the request is counted against the member's
 * rate and, when new and no policy decides it, inserted, in one statement shared with every
 * request of its batch (SubmissionIntake). A 429 is answered before the body's own refusal,
 * so a member sending bad bodies fast is slowed too. A repeat, or one a policy countersigns,
 * takes the locking path.
 */
export async function putSubmission(ctx: OrgContext, member: string, pathId: string, bytes: Buffer): Promise<DoorAnswer> {
  const { verdict, personSigned } = await ctx.checks.check(pathId, member, bytes);
  // A well-formed submission whose signed events contradict what this member showed before: two chains under one deployment (409).
  const fork = 'status' in verdict ? null : await ctx.chains.offer(member, verdict.shown);
  const checked = fork === null ? verdict : { status: 409 as const, error: forkRefusal(fork) };
  const valid = 'status' in checked ? null : checked;
  // Checked as UTF-8 with no lone surrogate and no repeated key: the text stored reads as the value checked.
  const text = valid === null ? '' : bytes.toString('utf8');
  const policy = valid !== null && autoCountersigns(ctx, valid, personSigned);
  // A full inbox still answers a repeat 200: that is the locking path's to tell apart.
  const insertNow = valid !== null && !policy && !(await ctx.inbox.full());
  const taken = await ctx.intake.take({
    member,
    row: valid === null ? null : { artifact_id: valid.artifact_id, submission_id: valid.submission_id, trust_class: valid.trust_class, body: text },
    insertNow,
  });
  if (taken.overRate) return { status: 429, body: { error: 'this member sends too fast' }, headers: { 'retry-after': '1' } };
  if ('status' in checked) return { status: checked.status, body: { error: checked.error } };
  const org = ctx.key.deploymentId;
  if (taken.inserted !== null) {
    ctx.inbox.admitted();
    return answer(202, { artifact_id: checked.artifact_id, state: 'leased', attempts: taken.inserted.attempts }, org);
  }
  // Seen before, or another request (on this process or another) took it a moment earlier: a repeat.
  const byPolicy: { decided: Decided | null } = { decided: null };
  const repeat = await inTransaction(ctx.pool, async (client) => {
    const seen = await existing(client, checked);
    if (seen) {
      // A decided row never reopens, and a row whose content its member erased never takes bytes again.
      if (seen.state !== 'leased' && seen.state !== 'held') return answer(200, seen, org);
      if (seen.erased || seen.submission_id === checked.submission_id) return answer(200, seen, org);
      // The member's newer state: decisions waiting for more people were about the old one.
      const updated = await client.query<{ artifact_id: string; state: string; attempts: number }>(
        `UPDATE submissions SET submission_id = $3, body = $4, trust_class = $5, attempts = attempts + 1, waiting_decisions = NULL
          WHERE deployment_id = $1 AND artifact_id = $2 RETURNING artifact_id, state, attempts`,
        [member, checked.artifact_id, checked.submission_id, text, checked.trust_class],
      );
      return answer(200, updated.rows[0]!, org);
    }
    if (await ctx.inbox.full()) return { status: 503, body: { error: 'the inbox is full' }, headers: { 'retry-after': '60' } };
    const inserted = await client.query<{ artifact_id: string; state: string; attempts: number }>(
      `INSERT INTO submissions (deployment_id, artifact_id, submission_id, trust_class, body, state)
       VALUES ($1, $2, $3, $4, $5, 'leased') ON CONFLICT DO NOTHING RETURNING artifact_id, state, attempts`,
      [member, checked.artifact_id, checked.submission_id, checked.trust_class, text],
    );
    if (inserted.rowCount === 0) return answer(200, (await existing(client, checked))!, org);
    ctx.inbox.admitted();
    let state = inserted.rows[0]!.state;
    if (policy) {
      const [decided] = await decideAll(client, ctx.key, [
        {
          deployment_id: member,
          artifact_id: checked.artifact_id,
          decision: 'countersign',
          authority_class: 'deployment',
          by: `policy:${ctx.settings.auto_countersign.join(',')}`,
        },
      ]);
      if (!(decided instanceof DecisionRefused)) {
        state = decided!.state;
        byPolicy.decided = decided!;
      }
    }
    return answer(202, { ...inserted.rows[0]!, state }, org);
  });
  if (byPolicy.decided !== null) logDecision(ctx.log, byPolicy.decided, { by: `policy:${ctx.settings.auto_countersign.join(',')}`, authority_class: 'deployment', decision: 'countersign' });
  return repeat;
}

async function existing(client: PoolClient, s: CheckedSubmission) {
  return (
    await client.query<{ artifact_id: string; state: string; attempts: number; submission_id: string; erased: boolean }>(
      'SELECT artifact_id, state, attempts, submission_id, erased_at IS NOT NULL AS erased FROM submissions WHERE deployment_id = $1 AND artifact_id = $2 FOR UPDATE',
      [s.deployment_id, s.artifact_id],
    )
  ).rows[0];
}

/** The org's policies (config [org].auto_countersign); T-3 and T-5 are never countersigned by policy. */
function autoCountersigns(ctx: OrgContext, s: CheckedSubmission, personSigned: boolean): boolean {
  return ctx.settings.auto_countersign.includes('t1_person_signed') && s.trust_class === 'T-1' && personSigned;
}
