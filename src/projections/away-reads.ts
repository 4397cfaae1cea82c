import type Database from 'better-sqlite3';

/** A period the operator declared away (gv.away), ended by gv.back or its own `until`. */
export interface AwayPeriod {
  seq: number;
  since: number;
  until: number | null;
  note: string | null;
  by: string | null;
  back_ts: number | null;
}

/** Prepared reads of the away periods view (the human-review clocks stop while the operator is away). */
export class AwayReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      latest: p('SELECT * FROM away_periods ORDER BY seq DESC LIMIT 1'),
      overlapping: p('SELECT * FROM away_periods WHERE since < ? AND (coalesce(back_ts, until) IS NULL OR coalesce(back_ts, until) > ?)'),
    };
  }

  /** The newest period declared, ended or not. */
  latest(): AwayPeriod | undefined {
    return this.s.latest!.get() as AwayPeriod | undefined;
  }

  /** The periods that overlap the span (from, to). */
  overlapping(to: number, from: number): AwayPeriod[] {
    return this.s.overlapping!.all(to, from) as AwayPeriod[];
  }
}
