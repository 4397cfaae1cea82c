import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { invalidParams } from '../../gate-error.js';

const DAY_MS = 86_400_000;
const days = (ms: number) => Math.round((ms / DAY_MS) * 100) / 100;

const awayAnswer = z.object({
  note: z.string().optional(),
  until: z.number().optional(),
  away: z.boolean(),
  declared: z.boolean(),
  since: z.number(),
  days: z.number(),
});

export const awayVerb = defineVerb({
  name: 'gv.away',
  role: 'admin',
  summary: 'The operator is away (until a time, or until gv.back): human-review clocks stop and nothing is promoted.',
  params: z.strictObject({ until: z.number().int().min(0).optional(), note: z.string().min(1).max(500).optional() }),
  answer: awayAnswer,
  uses: ['store', 'review', 'clock'],
  handler({ caller, store, review, clock }, p) {
    return store.writer.write(() => {
      const now = clock.now();
      if (p.until !== undefined && p.until <= now) throw invalidParams('until must be in the future (ms since epoch)', { field: 'until' });
      const data: Record<string, unknown> = {};
      if (p.until !== undefined) data['until'] = p.until;
      if (p.note !== undefined) data['note'] = p.note;
      // The period is read at the event's own time: the journal reads the clock again when it
      // stamps the event, and a period that starts after `now` is not yet in force at `now` (under
      // load a millisecond passed between the two reads, and the answer failed).
      const event = store.journal.append('away', caller.identity, data);
      const at = Math.max(now, event.ts);
      // A period whose `until` fell between the two reads has already ended: what was declared is answered.
      const period = review.board.away.current(at) ?? { since: event.ts, until: p.until ?? null, note: p.note ?? null };
      return {
        away: true,
        declared: true,
        since: period.since,
        days: days(at - period.since),
        ...(period.until === null ? {} : { until: period.until }),
        ...(period.note === null ? {} : { note: period.note }),
      };
    });
  },
});

const backAnswer = z.object({ away: z.boolean(), held_d: z.number(), declared: z.boolean() });

export const backVerb = defineVerb({
  name: 'gv.back',
  role: 'admin',
  summary: 'The operator is back: human-review clocks restart with the time away subtracted.',
  params: z.strictObject({}),
  answer: backAnswer,
  uses: ['store', 'review', 'clock'],
  handler({ caller, store, review, clock }) {
    return store.writer.write(() => {
      const now = clock.now();
      const period = review.board.away.current(now);
      if (period === undefined) return { away: false, held_d: 0, declared: false };
      store.journal.append('back', caller.identity, {});
      return { away: false, held_d: days(now - period.since), declared: true };
    });
  },
});
