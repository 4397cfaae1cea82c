import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import { invalidParams, lifecycle, semanticRefusal } from '../../gate-error.js';
import { GRADABLE_STATES } from '../../review/grading.js';
import type { StanceRun } from '../../review/stance-run.js';
import { settleRow } from '../../review/settlement.js';
import { isTestHome } from './grade.js';
import { stanceRunAnswer, waitsForAnswer } from '../answer-types.js';

/** What a refusal names of each stance: closed words, never a rationale. */
const stanceWords = (runs: readonly StanceRun[]) =>
  runs.map((r) => ({ stance: r.stance, model_label: r.model_label, state: r.state, ...(r.decision ? { decision: r.decision } : {}), ...(r.failure ? { failure: r.failure } : {}) }));

/**
 * The semantic reviewer: every configured stance reads the row (a stance that already
 * judged these bytes answers from the decision record), and the row passes only when each
 * approves. Anything else is refused -32014, a workflow blocker that says what the row now
 * waits for; it is never an approval, and an approval here is not a promotion either: the
 * verdicts count toward quorum like any other, and only `settle` asks the deployment to
 * promote a row of an auto space whose quorum is met.
 */
const semanticReviewAnswer = z.object({
  artifact_id: z.string(),
  state: z.string(),
  approved: z.boolean(),
  settled: z.boolean(),
  stances: z.array(stanceRunAnswer),
  waits_for: waitsForAnswer.nullable(),
  cost_tokens: z.number(),
});

export const semanticReviewVerb = defineVerb({
  name: 'gv.semantic_review',
  role: 'reviewer',
  summary: "The semantic reviewer's pass on one row: every stance must approve, else -32014 names the blocker; settle promotes an auto space's row whose quorum is met.",
  params: z.strictObject({ artifact_id: artifactIdParam, settle: z.boolean().optional() }),
  answer: semanticReviewAnswer,
  uses: ['store', 'access', 'review', 'crews', 'deployment', 'config'],
  async handler({ caller, store, access, review, crews, deployment, config }, p) {
    if (caller.surface === 'socket' && !isTestHome({ deployment })) {
      throw invalidParams('gv.semantic_review is refused to a socket peer outside a test home; ask with a reviewer key or as a signed-in person', {
        reason: 'socket_peer',
      });
    }
    const row = access.readableArtifact(caller, p.artifact_id);
    if (row.state === 'RECORDED') throw lifecycle('gv.semantic_review: a recorded row is evidence and is never reviewed', 'recorded');
    if (row.writer_identity === caller.identity && review.board.reads.signatures(row.artifact_id).some((s) => s.type === 'verdict')) {
      throw invalidParams('gv.semantic_review: the author of a row holding a verdict may not ask for its review', { reason: 'self_authored' });
    }
    if (row.state === 'L1B_FLAGGED') {
      throw semanticRefusal('gv.semantic_review: a scanner finding holds the row; no review clears it, a person disposes of it', {
        blocker: 'hard_constraint',
        code: 'finding',
      });
    }
    if (!GRADABLE_STATES.has(row.state)) throw lifecycle(`gv.semantic_review: a row in ${row.state} is not reviewed`, 'wrong_state');
    if (review.board.runs.holds(row.artifact_id)) throw lifecycle('gv.semantic_review: the row is being graded now', 'in_flight');
    const runs = await review.grading.gradeRow(row, review.board.settings.stances, { fresh: false, by: caller.identity });
    const unanswered = runs.find((r) => r.state !== 'completed');
    if (unanswered !== undefined) {
      throw semanticRefusal(`gv.semantic_review: the ${unanswered.stance} stance could not review the row: ${unanswered.detail ?? unanswered.failure}`, {
        blocker: 'reviewer_unavailable',
        code: runs.every((r) => r.state === 'blocked') ? 'unavailable' : 'stance_failed',
        stance: unanswered.stance,
        ...(unanswered.failure ? { failure: unanswered.failure } : {}),
        stances: stanceWords(runs),
      });
    }
    const rejecting = runs.filter((r) => r.decision === 'reject');
    if (rejecting.length > 0) {
      throw semanticRefusal(`gv.semantic_review: rejected by the ${rejecting.map((r) => r.stance).join(' and ')} stance; a person decides`, {
        blocker: 'semantic_review',
        code: 'rejected',
        stances: stanceWords(runs),
      });
    }
    const settled = p.settle === true ? (await store.writer.write(() => settleRow({ store, review, crews, config }, row.artifact_id))) !== null : false;
    const after = store.artifacts.byId(row.artifact_id)!;
    return {
      artifact_id: after.artifact_id,
      state: after.state,
      approved: true,
      settled,
      stances: runs,
      waits_for: review.board.picture(after).waitsFor,
      cost_tokens: runs.reduce((n, r) => n + r.cost_tokens, 0),
    };
  },
});
