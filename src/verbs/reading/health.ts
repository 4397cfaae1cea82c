import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { spaceParam } from '../param-types.js';
import { requireSpace } from '../../store/require-space.js';
import { checkAnswer } from '../../health/check-finding.js';
import { checkedRows } from '../../health/checked-rows.js';
import { citesRetired } from '../../health/cites-retired.js';
import { notReviewed } from '../../health/not-reviewed.js';
import { notServed } from '../../health/not-served.js';
import { sameWords } from '../../health/same-words.js';
import { similar } from '../../health/similar.js';
import { unrelated } from '../../health/unrelated.js';

const DAY_MS = 86_400_000;

const healthAnswer = z.object({
  checked_at: z.number().int(),
  rows_checked: z.number(),
  truncated: z.boolean(),
  checks: z.record(z.string(), z.object({
    why_not: z.string().optional(),
    count: z.number().int(),
    at_least: z.boolean(),
    artifact_ids: z.array(z.string()),
    computed: z.boolean(),
  })),
});

export const healthVerb = defineVerb({
  name: 'gv.health',
  role: 'reviewer',
  summary: 'Checks over the newest 2,000 promoted rows: same words, similar, citing retired rows, not served, unrelated, not reviewed.',
  params: z.strictObject({
    spaces: z.array(spaceParam).min(1).max(64).optional(),
    stale_days: z.number().int().min(1).max(365).optional(),
    limit: z.number().int().min(1).max(100).optional(),
  }),
  answer: healthAnswer,
  uses: ['store', 'recall', 'pipeline', 'clock'],
  async handler({ store, recall, pipeline, clock }, p) {
    const spaces = p.spaces === undefined ? store.spaceNames() : [...new Set(p.spaces)].map((s) => requireSpace({ store }, s));
    const limit = p.limit ?? 20;
    const checkedAt = clock.now();
    const staleBefore = checkedAt - (p.stale_days ?? 30) * DAY_MS;
    const { rows, truncated } = checkedRows({ store }, spaces);
    // similar yields the event loop between its searches, so the other checks are taken first, on the same rows.
    const same_words = sameWords(rows);
    const cites_retired = citesRetired({ store }, rows);
    const not_served = notServed({ store }, rows);
    const not_reviewed = notReviewed({ store }, rows, staleBefore);
    const stale = unrelated({ store }, rows, staleBefore);
    const findings = { same_words, similar: await similar({ store, recall, pipeline }, rows), cites_retired, not_served, unrelated: stale, not_reviewed };
    return {
      checked_at: checkedAt,
      rows_checked: rows.length,
      truncated,
      checks: Object.fromEntries(Object.entries(findings).map(([name, f]) => [name, checkAnswer(f, limit, truncated)])),
    };
  },
});
