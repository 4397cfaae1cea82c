import type { ReviewRow } from '../projections/review-reads.js';

/** States a person's approving signature may land on: scored or waiting, or flagged without a veto finding (a disposition). */
export function approvalSignable(state: string, review: ReviewRow | undefined): boolean {
  if (state === 'L1B_FLAGGED') return review?.veto !== 1;
  return state === 'L1_SCANNED' || state === 'L2_SCORED' || state === 'NEEDS_EVIDENCE';
}

/** States a person's rejecting signature (a veto) or an archive may land on: anything in review. */
export function vetoSignable(state: string): boolean {
  return ['L1_SCANNED', 'L1B_FLAGGED', 'L2_SCORED', 'NEEDS_EVIDENCE', 'L3_RATIFIED'].includes(state);
}
