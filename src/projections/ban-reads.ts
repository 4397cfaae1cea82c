import type Database from 'better-sqlite3';

/** Refusals are counted per UTC day, so "the last 7 days" is a sum over at most eight rows per writer. */
export const DAY_MS = 86_400_000;

export interface BanRow {
  kind: 'writer' | 'source';
  subject: string;
  reason: string | null;
  until: number | null;
  by: string | null;
  seq: number;
  ts: number;
  event_id: string;
}

export interface RefusalCount {
  writer: string;
  refused: number;
  last_ts: number;
}

export interface BanAct {
  seq: number;
  kind: string;
  subject: string;
  lift: number;
  until: number | null;
  by: string | null;
}

/** Prepared reads of the bans view. Whether a ban is active is the caller's to judge against its clock. */
export class BanReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      one: p('SELECT * FROM bans WHERE kind = ? AND subject = ?'),
      standing: p('SELECT * FROM bans WHERE (until IS NULL OR until > ?) ORDER BY seq DESC LIMIT ?'),
      standingSources: p(`SELECT * FROM bans WHERE kind = 'source' AND (until IS NULL OR until > ?) ORDER BY length(subject) DESC, subject`),
      standingCount: p('SELECT count(*) FROM bans WHERE (until IS NULL OR until > ?)').pluck(),
      refusals: p('SELECT * FROM ban_refusals ORDER BY last_ts DESC, writer LIMIT ?'),
      refusalsCount: p('SELECT count(*) FROM ban_refusals').pluck(),
      refusalsOf: p('SELECT * FROM ban_refusals WHERE writer = ?'),
      since: p('SELECT coalesce(sum(refused), 0) FROM ban_refusal_days WHERE writer = ? AND day >= ?').pluck(),
      acts: p('SELECT * FROM ban_acts WHERE seq > ? AND seq <= ? ORDER BY seq'),
    };
  }

  /** The ban on this subject, active or run out, if one was ever stood and not lifted. */
  one(kind: string, subject: string): BanRow | undefined {
    return this.s.one!.get(kind, subject) as BanRow | undefined;
  }

  /** Active bans at `now`, newest first, at most `limit`. */
  standing(now: number, limit: number): BanRow[] {
    return this.s.standing!.all(now, limit) as BanRow[];
  }

  standingCount(now: number): number {
    return this.s.standingCount!.get(now) as number;
  }

  /** Active source bans at `now`, the longest prefix first. */
  standingSources(now: number): BanRow[] {
    return this.s.standingSources!.all(now) as BanRow[];
  }

  refusals(limit: number): RefusalCount[] {
    return this.s.refusals!.all(limit) as RefusalCount[];
  }

  refusalsCount(): number {
    return this.s.refusalsCount!.get() as number;
  }

  refusalsOf(writer: string): RefusalCount | undefined {
    return this.s.refusalsOf!.get(writer) as RefusalCount | undefined;
  }

  /** Refusals on the current UTC day and the six before it. */
  refusedLast7Days(writer: string, now: number): number {
    return this.s.since!.get(writer, Math.floor(now / DAY_MS) - 6) as number;
  }

  /** Ban and lift acts journaled in (after, last], for the log. */
  acts(after: number, last: number): BanAct[] {
    return this.s.acts!.all(after, last) as BanAct[];
  }
}
