import type { Clock } from '../clock.js';
import { utcDay } from '../projections/review.js';
import type { ReviewReads } from '../projections/review-reads.js';
import type { ReviewBackend } from './review-settings.js';

/** Tokens a call may spend: its prompt (the rubric and facts, about 2,000 characters, and the text; about four characters a token) and the answer it may write. */
export const estimateTokens = (textChars: number, b: ReviewBackend) =>
  b.backend.kind === 'local' ? 0 : Math.ceil((textChars + 2_000) / 4) + b.backend.maxTokens;

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
