import type { Grading } from './grading.js';
import type { ReviewBoard } from './review-board.js';
import type { ReviewSchedule } from './review-schedule.js';

/** The review part: model grading, quorum, signatures and the human-review clocks. */
export interface ReviewPart {
  readonly board: ReviewBoard;
  readonly grading: Grading;
  /** gate serve's grading schedule, once it runs (gv.review_runs reports it). */
  schedule: ReviewSchedule | null;
}
