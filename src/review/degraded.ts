import type { GateConfig } from '../config/keys.js';
import type { PipelinePart } from '../../pipeline/pipeline-part.js';
import type { Store } from '../store/store.js';
import type { ReviewPart } from './review-part.js';

/** Share of `quarantine.max_depth` past which the gate says it is near its cap, before it refuses ingests. */
export const QUARANTINE_NEAR = 0.9;

/** Every reason the gate may name for serving less than it should (gv.ping's answer declares these). */
export const DEGRADATION_REASONS = ['grading_unavailable', 'review_paused', 'quarantine_near_cap', 'embedding_failing', 'detector_unavailable'] as const;

/** One reason the gate serves less than it should: what, and in words a monitor can log. */
export interface Degradation {
  reason: (typeof DEGRADATION_REASONS)[number];
  detail: string;
}

/**
 * Why the gate is degraded now, each reason named (gv.ping's `degraded` is true while any
 * stands): grading cannot run (a model backend's circuit open, the day's token budget
 * spent), review is paused (the operator is away: nothing is promoted), quarantine is near
 * its cap (ingests are about to be refused), the embedding backend is failing (rows wait for
 * a retry, so recall misses them), the injection detector is failing (rows of auto and
 * model spaces wait for its verdict: nothing of theirs is promoted). Cheap enough for a
 * liveness probe: counters and a loop over the configured stances, no query beyond a
 * memoised count.
 */
export function degradations(
  house: { readonly store: Store; readonly review: ReviewPart; readonly pipeline: PipelinePart; readonly config: GateConfig },
  /** Reviewer and up: counts of held rows are named only to those who read every held row (-32006, docs/protocol.md#error-codes). */
  countsShown: boolean,
): Degradation[] {
  const found: Degradation[] = [];
  const grading = house.review.board.gradingUnavailable();
  if (grading !== null) found.push({ reason: 'grading_unavailable', detail: grading });
  const away = house.review.board.away.current();
  if (away !== undefined) found.push({ reason: 'review_paused', detail: `the operator is away${away.until === null ? '' : ` until ${new Date(away.until).toISOString()}`}: nothing is promoted` });
  const held = house.store.artifacts.countHeld();
  const cap = house.config.quarantine.max_depth;
  if (held >= cap * QUARANTINE_NEAR) {
    found.push({ reason: 'quarantine_near_cap', detail: countsShown ? `${held} held rows of quarantine.max_depth ${cap}` : 'quarantine is near its cap: ingests may soon be refused' });
  }
  const failing = house.pipeline.embed.failing;
  if (failing > 0) found.push({ reason: 'embedding_failing', detail: countsShown ? `${failing} rows wait for their embedding to be retried` : 'rows wait for their embedding to be retried' });
  const detection = house.review.detection;
  const detector = detection?.failing;
  if (detection && detector) {
    const since = new Date(detector.since).toISOString();
    const waiting = countsShown ? `; ${detection.owed} rows wait for its verdict` : '; rows of auto and model spaces wait for its verdict';
    found.push({ reason: 'detector_unavailable', detail: `the injection detector (${detection.detector}) fails since ${since}: ${detector.failure} (${detector.detail})${waiting}` });
  }
  return found;
}
