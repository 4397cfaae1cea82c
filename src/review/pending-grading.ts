import type { Gate } from '../gate.js';
import type { ArtifactRow } from '../projections/artifact-reads.js';
import { rowsToGrade, type StancePlan } from './grading.js';
import { settleRow } from './settlement.js';

/**
 * Fail-closed: with the day's budget spent, grading that would spend tokens does not start,
 * and one blocked run says so.
 */
async function budgetSpent(gate: Gate, plans: readonly StancePlan[], by: string | null): Promise<string | null> {
  const plan = plans.find((p) => p.backend.backend.kind !== 'local' && !gate.review.board.budget.affords(p.backend));
  if (plan === undefined) return null;
  const run = await gate.review.grading.blocked(null, plan, `the day's token budget of ${gate.review.board.budget.perDay} is spent`, 'budget_spent', by);
  return run.detail!;
}

/** After a row's verdicts land in an auto space, the row is settled at once if it can be. */
async function settleAfterGrading(gate: Gate, row: ArtifactRow): Promise<void> {
  if (gate.review.board.modeOf(row.space) === 'auto') await gate.store.writer.write(() => settleRow(gate, row.artifact_id));
}

/** gv.grade_pending and the schedule: held L1 rows, oldest first, within the day's budget. */
export async function gradePending(gate: Gate, limit: number, by: string | null) {
  const plans = gate.review.board.settings.stances;
  const spent = await budgetSpent(gate, plans, by);
  if (spent !== null) {
    return { graded: 0, failed: 0, blocked: 0, cost_tokens: 0, budget_remaining: gate.review.board.budget.remaining(), paused: true, why_paused: spent };
  }
  const summary = await gate.review.grading.gradeMany((after, n) => rowsToGrade(gate, after, n), limit, plans, by, (row) => settleAfterGrading(gate, row));
  return {
    graded: summary.graded,
    failed: summary.failed,
    blocked: summary.blocked,
    cost_tokens: summary.cost_tokens,
    budget_remaining: gate.review.board.budget.remaining(),
    paused: summary.paused !== null,
    ...(summary.paused === null ? {} : { why_paused: summary.paused }),
  };
}

/** Scored rows of model and auto spaces without a second opinion in this epoch; L1B and human spaces never. */
function rowsForSecondOpinion(gate: Gate, afterRowid: number, limit: number): ArtifactRow[] {
  return gate.store.reviews.secondOpinionCandidates(afterRowid, limit);
}

/** gv.review_pending: second-opinion verdicts from review.second_opinion's backend. */
export async function reviewPending(gate: Gate, limit: number, by: string | null) {
  const backend = gate.review.board.settings.secondOpinion;
  if (backend === null) return { reviewed: 0, cost_tokens: 0, paused: false, budget_remaining: gate.review.board.budget.remaining() };
  const plans: StancePlan[] = [{ stance: 'second-opinion', backend }];
  if ((await budgetSpent(gate, plans, by)) !== null) return { reviewed: 0, cost_tokens: 0, paused: true, budget_remaining: gate.review.board.budget.remaining() };
  const summary = await gate.review.grading.gradeMany((after, n) => rowsForSecondOpinion(gate, after, n), limit, plans, by, (row) => settleAfterGrading(gate, row));
  return {
    reviewed: summary.graded + summary.failed,
    cost_tokens: summary.cost_tokens,
    paused: summary.paused !== null,
    budget_remaining: gate.review.board.budget.remaining(),
  };
}
