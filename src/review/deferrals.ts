import { utcDay } from '../projections/review.js';

/**
 * gv.defer marks: an operator looked at a row and moved on. Not journal facts (docs/protocol.md#gvdefer:
 * no journal event), so they live in memory and start empty after a restart. Each
 * identity's marks move rows to the back of its own gv.review queue; the per-day counts
 * feed gv.engagement, a bulk defer counted apart from single ones.
 */
export class Deferrals {
  private readonly marks = new Map<string, Map<string, number>>();
  private readonly days = new Map<string, Map<string, { deferred: number; deferred_in_bulk: number }>>();

  defer(identity: string, artifactIds: readonly string[], bulk: boolean, now: number): void {
    const mine = this.marks.get(identity) ?? new Map<string, number>();
    for (const id of artifactIds) mine.set(id, now);
    this.marks.set(identity, mine);
    const perDay = this.days.get(identity) ?? new Map();
    const day = utcDay(now);
    const counts = perDay.get(day) ?? { deferred: 0, deferred_in_bulk: 0 };
    if (bulk) counts.deferred_in_bulk += artifactIds.length;
    else counts.deferred += artifactIds.length;
    perDay.set(day, counts);
    this.days.set(identity, perDay);
  }

  /** The identity's marks: row id to when it last deferred it. */
  marksOf(identity: string): ReadonlyMap<string, number> {
    return this.marks.get(identity) ?? new Map();
  }

  countsOn(identity: string, day: string): { deferred: number; deferred_in_bulk: number } {
    return this.days.get(identity)?.get(day) ?? { deferred: 0, deferred_in_bulk: 0 };
  }
}
