import { z } from 'zod';
import type { Caller } from '../../access/caller.js';
import type { BanRow, RefusalCount } from '../../projections/ban-reads.js';
import type { House } from '../house.js';

/** A ban as gv.bans and gv.graph serve it. */
export const banAnswer = z.object({
  kind: z.enum(['source', 'writer']),
  subject: z.string(),
  reason: z.string().nullable(),
  until: z.number().int().nullable(),
  by: z.string().nullable(),
  ts: z.number().int(),
  event_id: z.string(),
});

const served = (b: BanRow) => ({
  kind: b.kind,
  subject: b.subject,
  reason: b.reason,
  until: b.until,
  by: b.by,
  ts: b.ts,
  event_id: b.event_id,
});

/**
 * The active bans a caller may see, newest first: every one from reviewer up; below
 * reviewer only a writer ban on the caller's own identity (docs/protocol.md#gvbans). gv.bans and
 * gv.graph serve this one list.
 */
export function visibleBans(house: Pick<House, 'store' | 'access' | 'clock'>, caller: Caller, limit: number): { bans: ReturnType<typeof served>[]; truncated: boolean } {
  const reads = house.store.bans;
  const now = house.clock.now();
  if (!house.access.visibility.seesEverything(caller)) {
    const own = reads.one('writer', caller.identity);
    return { bans: own !== undefined && (own.until === null || own.until > now) ? [served(own)] : [], truncated: false };
  }
  return { bans: reads.standing(now, limit).map(served), truncated: reads.standingCount(now) > limit };
}

/** Writes bans turned away, counted per writer; below reviewer only the caller's own. */
export function visibleRefusals(house: Pick<House, 'store' | 'access' | 'clock'>, caller: Caller, limit: number) {
  const reads = house.store.bans;
  const now = house.clock.now();
  const shown = (r: RefusalCount) => ({
    writer_identity: r.writer,
    refused: r.refused,
    refused_last_7_days: reads.refusedLast7Days(r.writer, now),
    last_ts: r.last_ts,
  });
  if (!house.access.visibility.seesEverything(caller)) {
    const own = reads.refusalsOf(caller.identity);
    return { refused: own === undefined ? [] : [shown(own)], truncated: false };
  }
  return { refused: reads.refusals(limit).map(shown), truncated: reads.refusalsCount() > limit };
}
