import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { visibleRowsClause } from '../../access/visible-rows.js';
import type { RunFilter, RunRow } from '../../projections/review-reads.js';
import { liveRunAnswer, scheduleStatusAnswer } from '../answer-types.js';

const RUN_STATES = ['queued', 'running', 'completed', 'failed', 'blocked'] as const;

const served = (r: RunRow) => ({
  run_id: r.run_id,
  artifact_id: r.artifact_id,
  space: r.space,
  backend: r.backend,
  model_label: r.model_label,
  stance: r.stance,
  state: r.state,
  failure: r.failure,
  detail: r.detail,
  cost_tokens: r.cost_tokens,
  from_record: r.from_record === 1,
  ms: r.ms,
  ts: r.ts,
});

const reviewRunsAnswer = z.object({
  detail: z.object({
    schedule: scheduleStatusAnswer,
    budget: z.object({ per_day: z.number(), spent_today: z.number(), remaining: z.number() }),
  }).optional(),
  reported: z.boolean(),
  runs: z.array(z.union([
    z.object({
      cost_tokens: z.number(),
      ts: z.number().int(),
      run_id: z.string(),
      artifact_id: z.string(),
      space: z.string(),
      backend: z.string(),
      model_label: z.string(),
      stance: z.string(),
      state: z.enum(['queued', 'running']),
      since: z.number(),
    }),
    z.object({
      run_id: z.string(),
      artifact_id: z.string().nullable(),
      space: z.string().nullable(),
      backend: z.string(),
      model_label: z.string(),
      stance: z.string().nullable(),
      state: z.string(),
      failure: z.string().nullable(),
      detail: z.string().nullable(),
      cost_tokens: z.number(),
      from_record: z.boolean(),
      ms: z.number(),
      ts: z.number().int(),
    }),
  ])),
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
  counts: z.record(z.string(), z.number().int()),
  in_flight: z.array(liveRunAnswer),
  last_failure: z.object({
    run_id: z.string(),
    artifact_id: z.string().nullable(),
    space: z.string().nullable(),
    backend: z.string(),
    model_label: z.string(),
    stance: z.string().nullable(),
    state: z.string(),
    failure: z.string().nullable(),
    detail: z.string().nullable(),
    cost_tokens: z.number(),
    from_record: z.boolean(),
    ms: z.number(),
    ts: z.number().int(),
  }).nullable(),
});

export const reviewRunsVerb = defineVerb({
  name: 'gv.review_runs',
  role: 'reader',
  summary: 'Reviewer runs: queued and running ones in flight, completed, failed and blocked ones from the journal, with counts.',
  params: z.strictObject({
    state: z.enum([...RUN_STATES, 'all']).optional(),
    q: z.string().max(200).optional(),
    offset: z.number().int().min(0).optional(),
    limit: z.number().int().min(1).max(500).optional(),
  }),
  answer: reviewRunsAnswer,
  uses: ['store', 'access', 'review'],
  handler({ caller, store, access, review }, p) {
    const offset = p.offset ?? 0;
    const limit = p.limit ?? 25;
    const state = p.state ?? 'all';
    const everything = access.visibility.seesEverything(caller);
    const visible = visibleRowsClause({ store, access }, caller);
    // Below reviewer, only runs on rows the caller may read (runs on no row are the gate's own business).
    const filter: RunFilter = { visible: everything ? null : visible, ...(p.q === undefined ? {} : { q: p.q }) };
    const live = review.board.runs
      .list()
      .filter((r) => {
        const row = store.artifacts.byId(r.artifact_id);
        return everything || (row !== undefined && access.visibility.canRead(caller, row));
      })
      .filter((r) => p.q === undefined || p.q === '' || [r.artifact_id, r.backend, r.model_label].some((f) => f.includes(p.q!)));
    const counts: Record<string, number> = { queued: 0, running: 0, completed: 0, failed: 0, blocked: 0 };
    for (const r of live) counts[r.state]! += 1;
    for (const c of store.reviews.runCounts(filter)) {
      counts[c.state] = c.n;
    }
    const liveShown = state === 'all' || state === 'queued' || state === 'running' ? live.filter((r) => state === 'all' || r.state === state) : [];
    const journaled =
      state === 'queued' || state === 'running'
        ? []
        : store.reviews.journaledRuns(filter, state, limit + offset);
    const all = [...liveShown.map((r) => ({ ...r, cost_tokens: 0, ts: r.since })), ...journaled.map(served)];
    const total = state === 'all' ? Object.values(counts).reduce((a, b) => a + b, 0) : counts[state]!;
    const lastFailure = store.reviews.lastFailedRun(filter);
    return {
      reported: true,
      runs: all.slice(offset, offset + limit),
      total,
      offset,
      limit,
      counts,
      in_flight: live,
      last_failure: lastFailure === undefined ? null : served(lastFailure),
      ...(everything && review.schedule !== null ? { detail: { schedule: review.schedule.status, budget: { per_day: review.board.budget.perDay, spent_today: review.board.budget.spentToday(), remaining: review.board.budget.remaining() } } } : {}),
    };
  },
});
