import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { sep } from 'node:path';
import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam, limitParam } from '../param-types.js';
import { invalidParams, lifecycle, semanticRefusal } from '../../gate-error.js';
import { GRADABLE_STATES } from '../../review/grading.js';
import { gradePending, reviewPending } from '../../review/pending-grading.js';
import { settleRow } from '../../review/settlement.js';
import { RUBRIC_VERSION } from '../../../workers/grade/rubric.js';
import type { House } from '../house.js';
import { stanceRunAnswer } from '../answer-types.js';

/**
 * A test home lives under the system's temporary directory. Only there may a socket peer
 * start model calls: elsewhere grading is asked for by an accountable credential.
 */
export function isTestHome(house: Pick<House, 'deployment'>): boolean {
  try {
    const tmp = realpathSync(tmpdir());
    return realpathSync(house.deployment.paths.home).startsWith(tmp + sep);
  } catch {
    return false;
  }
}

const gradeAnswer = z.object({
  artifact_id: z.string(),
  content_hash: z.string(),
  rubric: z.string(),
  state: z.string(),
  stances: z.array(stanceRunAnswer),
  cost_tokens: z.number(),
});

export const gradeVerb = defineVerb({
  name: 'gv.grade',
  role: 'reviewer',
  summary: 'Grade one row: one model call per configured stance, unless the decision record already answers (fresh: true forces a call).',
  params: z.strictObject({ artifact_id: artifactIdParam, fresh: z.boolean().optional() }),
  answer: gradeAnswer,
  uses: ['store', 'access', 'review', 'crews', 'deployment', 'config'],
  async handler({ caller, store, access, review, crews, deployment, config }, p) {
    if (caller.surface === 'socket' && !isTestHome({ deployment })) {
      throw invalidParams('gv.grade is refused to a socket peer outside a test home; grade with a reviewer key or as a signed-in person', {
        reason: 'socket_peer',
      });
    }
    const row = access.readableArtifact(caller, p.artifact_id);
    if (row.state === 'RECORDED') throw lifecycle('gv.grade: a recorded row is evidence and is never graded', 'recorded');
    if (row.erased_seq !== null) throw lifecycle('gv.grade: the content of this row was erased; there is nothing left to grade', 'erased');
    if (row.writer_identity === caller.identity && review.board.reads.signatures(row.artifact_id).some((s) => s.type === 'verdict')) {
      throw invalidParams('gv.grade: the author of a row holding a verdict may not grade it', { reason: 'self_authored' });
    }
    if (row.state === 'L1B_FLAGGED') {
      throw semanticRefusal('gv.grade: a scanner finding holds the row; no score clears it, a person disposes of it', { blocker: 'hard_constraint' });
    }
    if (!GRADABLE_STATES.has(row.state)) throw lifecycle(`gv.grade: a row in ${row.state} is not graded`, 'wrong_state');
    if (review.board.runs.holds(row.artifact_id)) throw lifecycle('gv.grade: the row is being graded now', 'in_flight');
    const runs = await review.grading.gradeRow(row, review.board.settings.stances, { fresh: p.fresh === true, by: caller.identity });
    if (runs.every((r) => r.state === 'blocked')) {
      throw semanticRefusal(`gv.grade: no reviewer could run: ${runs[0]!.detail}`, { blocker: 'reviewer_unavailable', code: runs[0]!.failure, runs });
    }
    if (review.board.modeOf(row.space) === 'auto') await store.writer.write(() => settleRow({ store, review, crews, config }, row.artifact_id));
    const after = store.artifacts.byId(row.artifact_id)!;
    return {
      artifact_id: row.artifact_id,
      content_hash: row.content_hash,
      rubric: RUBRIC_VERSION,
      state: after.state,
      stances: runs,
      cost_tokens: runs.reduce((n, r) => n + r.cost_tokens, 0),
    };
  },
});

const gradePendingAnswer = z.object({
  why_paused: z.string().optional(),
  graded: z.number(),
  failed: z.number(),
  blocked: z.number(),
  cost_tokens: z.number(),
  budget_remaining: z.number(),
  paused: z.boolean(),
});

export const gradePendingVerb = defineVerb({
  name: 'gv.grade_pending',
  role: 'reviewer',
  summary: "Grade held L1 rows, oldest first, within the day's token budget; stops (fail-closed) when it is spent.",
  params: z.strictObject({ limit: limitParam(10_000).optional() }),
  answer: gradePendingAnswer,
  uses: ['store', 'review', 'crews', 'config'],
  handler({ caller, store, review, crews, config }, p) {
    return gradePending({ store, review, crews, config }, p.limit ?? 50, caller.identity);
  },
});

const reviewPendingAnswer = z.object({ reviewed: z.number(), cost_tokens: z.number(), paused: z.boolean(), budget_remaining: z.number() });

export const reviewPendingVerb = defineVerb({
  name: 'gv.review_pending',
  role: 'reviewer',
  summary: 'Second-opinion verdicts on graded rows of model and auto spaces (nothing in human spaces; never L1B).',
  params: z.strictObject({ limit: limitParam(10_000).optional() }),
  answer: reviewPendingAnswer,
  uses: ['store', 'review', 'crews', 'config'],
  handler({ caller, store, review, crews, config }, p) {
    return reviewPending({ store, review, crews, config }, p.limit ?? 50, caller.identity);
  },
});
