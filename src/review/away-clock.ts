import type Database from 'better-sqlite3';
import type { Clock } from '../clock.js';

export interface AwayPeriod {
  seq: number;
  since: number;
  until: number | null;
  note: string | null;
  by: string | null;
  back_ts: number | null;
}

/** When a period ended: at `back`, else at its declared `until`, else not yet. */
const endOf = (p: AwayPeriod): number | null => p.back_ts ?? p.until;

/**
 * The operator's away time, which stops the human-review clocks: a row's time-to-live
 * counts only time the operator was not away, and nothing is promoted while away.
 */
export class AwayClock {
  private readonly s: Record<string, Database.Statement>;

  constructor(
    db: Database.Database,
    private readonly clock: Clock,
  ) {
    this.s = {
      latest: db.prepare('SELECT * FROM away_periods ORDER BY seq DESC LIMIT 1'),
      overlapping: db.prepare('SELECT * FROM away_periods WHERE since < ? AND (coalesce(back_ts, until) IS NULL OR coalesce(back_ts, until) > ?)'),
    };
  }

  /** The period in force now, if the operator is away. */
  current(now = this.clock.now()): AwayPeriod | undefined {
    const p = this.s.latest!.get() as AwayPeriod | undefined;
    if (p === undefined || p.since > now) return undefined;
    const end = endOf(p);
    return end === null || end > now ? p : undefined;
  }

  /** Milliseconds of [from, to) the operator was away. */
  awayBetween(from: number, to: number): number {
    if (to <= from) return 0;
    let total = 0;
    for (const p of this.s.overlapping!.all(to, from) as AwayPeriod[]) {
      const end = Math.min(endOf(p) ?? to, to);
      total += Math.max(0, end - Math.max(p.since, from));
    }
    return total;
  }
}
