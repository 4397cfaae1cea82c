import type { Clock } from '../clock.js';
import type { AwayPeriod, AwayReads } from '../projections/away-reads.js';

export type { AwayPeriod };


/** When a period ended: at `back`, else at its declared `until`, else not yet. */
const endOf = (p: AwayPeriod): number | null => p.back_ts ?? p.until;

/**
 * The operator's away time, which stops the human-review clocks: a row's time-to-live
 * counts only time the operator was not away, and nothing is promoted while away.
 */
export class AwayClock {
  constructor(
    private readonly reads: AwayReads,
    private readonly clock: Clock,
  ) {}

  /** The period in force now, if the operator is away. */
  current(now = this.clock.now()): AwayPeriod | undefined {
    const p = this.reads.latest();
    if (p === undefined || p.since > now) return undefined;
    const end = endOf(p);
    return end === null || end > now ? p : undefined;
  }

  /** Milliseconds of [from, to) the operator was away. */
  awayBetween(from: number, to: number): number {
    if (to <= from) return 0;
    let total = 0;
    for (const p of this.reads.overlapping(to, from)) {
      const end = Math.min(endOf(p) ?? to, to);
      total += Math.max(0, end - Math.max(p.since, from));
    }
    return total;
  }
}
