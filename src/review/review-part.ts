import type { ArtifactRow } from '../projections/artifact-reads.js';
import type { ReviewBoard } from './review-board.js';
import type { GradeSummary, StancePlan, StanceRun } from './stance-run.js';
import type { DetectionPart } from './detection-gate.js';

/** Model grading as the house uses it (src/review/grading.ts implements it). */
export interface GradingPart {
  gradeRow(row: ArtifactRow, plans: readonly StancePlan[], options: { fresh: boolean; by: string | null }): Promise<StanceRun[]>;
  gradeMany(
    source: (afterRowid: number, limit: number) => ArtifactRow[],
    limit: number,
    plans: readonly StancePlan[],
    by: string | null,
    after: (row: ArtifactRow, runs: StanceRun[]) => Promise<void>,
  ): Promise<GradeSummary>;
  /** Journals a stance's run as blocked (a spent budget, an open circuit) without calling its backend. */
  blocked(row: ArtifactRow | null, plan: StancePlan, why: string, failure: string, by: string | null): Promise<StanceRun>;
  /** Shutdown: grading in progress takes no further rows. */
  halt(): void;
  /** Waits for the runs already sent. */
  drain(): Promise<void>;
}

export interface ScheduleStatus {
  every_ms: number;
  running: boolean;
  runs: number;
  overlaps_skipped: number;
  last_started: number | null;
  last_finished: number | null;
  last_result: Record<string, unknown> | null;
  last_error: string | null;
}

/** gate serve's schedule as the house sees it (src/review/review-schedule.ts implements it). */
export interface SchedulePart {
  readonly status: ScheduleStatus;
  start(): void;
  stop(): Promise<void>;
}

/** The review part: model grading, quorum, signatures and the human-review clocks. */
export interface ReviewPart {
  readonly board: ReviewBoard;
  readonly grading: GradingPart;
  /** gate serve's grading schedule, once it runs (gv.review_runs reports it). */
  schedule: SchedulePart | null;
  /** The model-backed injection detector, when `detector.url` is set (src/review/detection.ts). */
  readonly detection: DetectionPart | null;
}
