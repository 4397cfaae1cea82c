import type { ArtifactRow } from '../projections/artifact-reads.js';
import { rowsToGrade } from './grading.js';
import type { StancePlan } from './stance-run.js';
import { settleRow } from './settlement.js';
import type { ReviewPart } from './review-part.js';
import type { Store } from '../store/store.js';
import type { CrewsPart } from '../crews/crews-part.js';
import type { GateConfig } from '../config/keys.js';

/**
 * Fail-closed: with the day's budget spent, grading that would spend tokens does not start,
 * and one blocked run says so.
 */
async function budgetSpent(house: { readonly review: ReviewPart }, plans: readonly StancePlan[], by: string | null): Promise<string | null> {
  const plan = plans.find((p) => p.backend.backend.kind !== 'local' && !house.review.board.budget.affords(p.backend));
  if (plan === undefined) return null;
  const run = await house.review.grading.blocked(null, plan, `the day's token budget of ${house.review.board.budget.perDay} is spent`, 'budget_spent', by);
  return run.detail!;
}

/** After a row's verdicts land in an auto space, the row is settled at once if it can be. */
async function settleAfterGrading(house: { readonly store: Store; readonly review: ReviewPart; readonly crews: CrewsPart; readonly config: GateConfig }, row: ArtifactRow): Promise<void> {
  if (house.review.board.modeOf(row.space) === 'auto') await house.store.writer.write(() => settleRow(house, row.artifact_id));
}

/** gv.grade_pending and the schedule: held L1 rows, oldest first, within the day's budget. */
export async function gradePending(house: { readonly store: Store; readonly review: ReviewPart; readonly crews: CrewsPart; readonly config: GateConfig }, limit: number, by: string | null) {
  const plans = house.review.board.settings.stances;
  const spent = await budgetSpent(house, plans, by);
  if (spent !== null) {
    return { graded: 0, failed: 0, blocked: 0, cost_tokens: 0, budget_remaining: house.review.board.budget.remaining(), paused: true, why_paused: spent };
  }
  const summary = await house.review.grading.gradeMany((after, n) => rowsToGrade(house, after, n), limit, plans, by, (row) => settleAfterGrading(house, row));
  return {
    graded: summary.graded,
    failed: summary.failed,
    blocked: summary.blocked,
    cost_tokens: summary.cost_tokens,
    budget_remaining: house.review.board.budget.remaining(),
    paused: summary.paused !== null,
    ...(summary.paused === null ? {} : { why_paused: summary.paused }),
  };
}

/** Scored rows of model and auto spaces without a second opinion in this epoch; L1B and human spaces never. */
function rowsForSecondOpinion(house: { readonly store: Store }, afterRowid: number, limit: number): ArtifactRow[] {
  return house.store.reviews.secondOpinionCandidates(afterRowid, limit);
}

/** gv.review_pending: second-opinion verdicts from review.second_opinion's backend. */
export async function reviewPending(house: { readonly store: Store; readonly review: ReviewPart; readonly crews: CrewsPart; readonly config: GateConfig }, limit: number, by: string | null) {
  const backend = house.review.board.settings.secondOpinion;
  if (backend === null) return { reviewed: 0, cost_tokens: 0, paused: false, budget_remaining: house.review.board.budget.remaining() };
  const plans: StancePlan[] = [{ stance: 'second-opinion', backend }];
  if ((await budgetSpent(house, plans, by)) !== null) return { reviewed: 0, cost_tokens: 0, paused: true, budget_remaining: house.review.board.budget.remaining() };
  const summary = await house.review.grading.gradeMany((after, n) => rowsForSecondOpinion(house, after, n), limit, plans, by, (row) => settleAfterGrading(house, row));
  return {
    reviewed: summary.graded + summary.failed,
    cost_tokens: summary.cost_tokens,
    paused: summary.paused !== null,
    budget_remaining: house.review.board.budget.remaining(),
  };
}
