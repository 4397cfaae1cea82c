import type { Clock } from '../clock.js';
import { utcDay } from '../projections/review.js';
import type { ReviewReads } from '../projections/review-reads.js';
import { estimateTokens } from './grading.js';
import type { ReviewBackend } from './review-settings.js';

/**
 * The day's token budget, fail-closed: the journaled spend of the UTC day plus what calls
 * in flight may still spend. A call is let through only when its estimate fits.
 */
export class TokenBudget {
  private reserved = 0;

  constructor(
    private readonly reads: ReviewReads,
    readonly perDay: number,
    private readonly clock: Clock,
  ) {}

  spentToday(): number {
    return this.reads.spentOn(utcDay(this.clock.now()));
  }

  remaining(): number {
    return Math.max(0, this.perDay - this.spentToday() - this.reserved);
  }

  /** Whether even the shortest call to the backend fits in what is left today. */
  affords(backend: ReviewBackend): boolean {
    return estimateTokens(0, backend) <= this.remaining();
  }

  /** Reserves `estimate` tokens for a call; false when they do not fit (the budget is spent). */
  reserve(estimate: number): boolean {
    if (estimate > this.remaining()) return false;
    this.reserved += estimate;
    return true;
  }

  release(estimate: number): void {
    this.reserved = Math.max(0, this.reserved - estimate);
  }
}
