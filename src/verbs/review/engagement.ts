import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import { invalidParams } from '../../gate-error.js';
import { atLeast } from '../../domain/roles.js';
import { NEEDS_EVIDENCE_DECISION } from '../../domain/states.js';
import { utcDay } from '../../projections/review.js';

const DAY_MS = 86_400_000;
const MAX_BULK = 100;

const deferAnswer = z.union([
  z.object({ artifact_id: z.string(), deferred: z.boolean() }),
  z.object({ artifact_ids: z.array(z.string()), deferred: z.number() }),
]);

export const deferVerb = defineVerb({
  name: 'gv.defer',
  role: 'agent',
  summary: 'Record that you looked at a row (or up to 100, reviewer and up) and moved on; no journal event.',
  params: z.strictObject({ artifact_id: artifactIdParam.optional(), artifact_ids: z.array(artifactIdParam).optional() }),
  answer: deferAnswer,
  uses: ['access', 'review', 'clock'],
  handler({ caller, access, review, clock }, p) {
    if ((p.artifact_id === undefined) === (p.artifact_ids === undefined)) {
      throw invalidParams('give exactly one of artifact_id and artifact_ids', { field: p.artifact_id === undefined ? 'artifact_id' : 'artifact_ids' });
    }
    const now = clock.now();
    if (p.artifact_id !== undefined) {
      const row = access.readableArtifact(caller, p.artifact_id);
      review.board.deferrals.defer(caller.identity, [row.artifact_id], false, now);
      return { artifact_id: row.artifact_id, deferred: true };
    }
    const ids = p.artifact_ids!;
    if (!atLeast(caller.role, 'reviewer')) throw invalidParams(`artifact_ids needs role reviewer; the caller has role ${caller.role}`, { field: 'artifact_ids' });
    if (ids.length === 0 || ids.length > MAX_BULK) throw invalidParams(`artifact_ids holds 1 to ${MAX_BULK} ids`, { field: 'artifact_ids' });
    if (new Set(ids).size !== ids.length) throw invalidParams('artifact_ids repeats an id', { field: 'artifact_ids' });
    // Every id is checked readable before anything is marked.
    const rows = ids.map((id) => access.readableArtifact(caller, id));
    review.board.deferrals.defer(caller.identity, rows.map((r) => r.artifact_id), true, now);
    return { artifact_ids: rows.map((r) => r.artifact_id), deferred: rows.length };
  },
});

const SIGNED = new Set(['manual-sign', 'disposition']);

/** One day's counts of a person's review work. */
interface DayCounts {
  signed: number;
  promoted: number;
  rejected: number;
  demoted: number;
  comments: number;
  deferred: number;
  deferred_in_bulk: number;
}

const engagementAnswer = z.object({
  days: z.number(),
  since: z.number(),
  signed: z.number(),
  promoted: z.number(),
  rejected: z.number(),
  demoted: z.number(),
  comments: z.number(),
  deferred: z.number(),
  items_deferred_in_bulk: z.number(),
  per_day: z.array(z.object({
    signed: z.number(),
    promoted: z.number(),
    rejected: z.number(),
    demoted: z.number(),
    comments: z.number(),
    deferred: z.number(),
    deferred_in_bulk: z.number(),
    day: z.string(),
  })),
});

export const engagementVerb = defineVerb({
  name: 'gv.engagement',
  role: 'reader',
  summary: 'Your review work over a window of days: signatures, promotions, rejections, comments, defers (single and bulk), per day.',
  params: z.strictObject({ days: z.number().int().min(1).max(365).optional() }),
  answer: engagementAnswer,
  uses: ['store', 'review', 'clock'],
  handler({ caller, store, review, clock }, p) {
    const days = p.days ?? 14;
    const now = clock.now();
    const firstDay = utcDay(now - (days - 1) * DAY_MS);
    const since = Date.parse(`${firstDay}T00:00:00Z`);
    const perDay = new Map<string, DayCounts>();
    for (let i = 0; i < days; i++) {
      const day = utcDay(since + i * DAY_MS);
      perDay.set(day, { signed: 0, promoted: 0, rejected: 0, demoted: 0, comments: 0, ...review.board.deferrals.countsOn(caller.identity, day) });
    }
    const bump = (ts: number, field: keyof DayCounts) => {
      const counts = perDay.get(utcDay(ts));
      if (counts !== undefined) counts[field] += 1;
    };
    const signatures = store.reviews.signedSince(caller.identity, since);
    for (const s of signatures) {
      if (SIGNED.has(s.type)) {
        bump(s.ts, 'signed');
        // A reject signature is a rejection too: the operator screen counted 0 right after one.
        if (s.decision === 'reject') bump(s.ts, 'rejected');
      } else if (s.type === 'promote' || (s.type === 'ratify' && s.decision !== NEEDS_EVIDENCE_DECISION)) bump(s.ts, 'promoted');
      else if (s.type === 'reject') bump(s.ts, 'rejected');
      else if (s.type === 'demote') bump(s.ts, 'demoted');
    }
    for (const ts of store.comments.timesSince(caller.identity, since)) bump(ts, 'comments');
    const rows = [...perDay.entries()].map(([day, counts]) => ({ day, ...counts }));
    const sum = (field: keyof DayCounts) => rows.reduce((n, r) => n + r[field], 0);
    return {
      days,
      since,
      signed: sum('signed'),
      promoted: sum('promoted'),
      rejected: sum('rejected'),
      demoted: sum('demoted'),
      comments: sum('comments'),
      deferred: sum('deferred'),
      items_deferred_in_bulk: sum('deferred_in_bulk'),
      per_day: rows,
    };
  },
});
