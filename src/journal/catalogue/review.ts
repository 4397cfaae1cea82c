import { z } from 'zod';
import { aboutRow, rowMove, signing } from './fields.js';
import { declare } from './declare.js';

/** A reviewer run as journaled (src/review/grading.ts runData): its backend, stance, state, cost and time. */
const run = {
  artifact_id: z.string().optional(),
  space: z.string().optional(),
  workarea: z.string().optional(),
  run_id: z.string().nullable(),
  backend: z.string(),
  model_label: z.string(),
  stance: z.string(),
  rubric: z.string(),
  state: z.string(),
  cost_tokens: z.number(),
  from_record: z.boolean(),
  ms: z.number(),
  failure: z.string().optional(),
  detail: z.string().optional(),
};

/** A met quorum's move (src/review/promotion.ts), or a promotion a replacement group makes. */
const promotion = {
  ...rowMove,
  ...signing,
  signer_class: z.string().optional(),
  quorum_profile: z.string().optional(),
  k_required: z.number().optional(),
  k_have: z.number().optional(),
  group_id: z.string().optional(),
};

/** A person's (or a reviewer key's) signature on a row: its decision, and its reason and category when it rejects. */
const sign = z.strictObject({ ...rowMove, ...signing, decision: z.string(), reason: z.string().optional(), category: z.string().optional() });

/** Review: grading, the quorum's moves, people's signatures and decisions, asks, comments, the operator's away periods. */
export const REVIEW_EVENTS = {
  assessment: declare({
    owner: ['src/review/'],
    data: z.strictObject({
      ...run,
      content_hash: z.string(),
      score: z.number(),
      rationale: z.string(),
      evidence: z.array(z.string()),
      counterevidence: z.array(z.string()),
    }),
    folds: ['review'],
    // Served as that it happened; its score, rationale and evidence stay inside.
    served: { object: 'row', fields: [] },
  }),
  'review-run': declare({
    owner: ['src/review/'],
    data: z.strictObject(run),
    folds: ['review'],
  }),
  verdict: declare({
    owner: ['src/review/'],
    data: z.strictObject({
      ...rowMove,
      model_label: z.string(),
      stance: z.string(),
      rubric: z.string(),
      content_hash: z.string(),
      decision: z.string(),
      assessment: z.string().optional(),
      run_id: z.string(),
      backend: z.string(),
      /** The verdict event whose decision this one repeats (the same bytes, model, stance and rubric). */
      from_record: z.string().optional(),
    }),
    folds: ['artifacts', 'review'],
    served: { object: 'row', fields: ['decision', 'stance', 'model_label', 'rubric'] },
  }),
  'manual-sign': declare({
    owner: ['src/verbs/review/'],
    data: sign,
    folds: ['artifacts', 'review'],
    served: { object: 'row', fields: ['decision', 'signer_class'] },
  }),
  disposition: declare({
    owner: ['src/verbs/review/'],
    data: sign,
    folds: ['artifacts', 'review'],
    served: { object: 'row', fields: ['decision', 'signer_class'] },
  }),
  ratify: declare({
    owner: ['src/review/', 'src/verbs/review/'],
    // A quorum's ratification, or a reviewer's request for evidence (NEEDS_EVIDENCE) with what it asks.
    // It enters L3_RATIFIED or NEEDS_EVIDENCE and nothing else: a rejection is a reject,
    // manual-sign, disposition, cancel or expire (docs/spec-choices.md, gv.node's `refusal`).
    data: z.strictObject({ ...promotion, enters: z.enum(['L3_RATIFIED', 'NEEDS_EVIDENCE']), asks: z.string().optional() }),
    folds: ['artifacts', 'review'],
    served: { object: 'row', fields: ['signer_class'] },
  }),
  promote: declare({
    owner: ['src/review/', 'src/verbs/curation/'],
    data: z.strictObject({ ...promotion, provisional: z.boolean() }),
    folds: ['artifacts', 'review'],
    served: { object: 'row', fields: ['group_id', 'signer_class'] },
  }),
  reject: declare({
    owner: ['src/verbs/review/'],
    data: z.strictObject({ ...rowMove, ...signing, reason: z.string(), category: z.string().optional(), in_favour_of: z.string().optional() }),
    folds: ['artifacts', 'review'],
    served: { object: 'row', fields: ['category'] },
  }),
  demote: declare({
    owner: ['src/verbs/review/'],
    data: z.strictObject({ ...rowMove, ...signing }),
    folds: ['artifacts', 'review'],
    served: { object: 'row', fields: [] },
  }),
  expire: declare({
    owner: ['src/review/'],
    data: z.strictObject({ ...rowMove, ...signing, reason: z.string() }),
    folds: ['artifacts', 'review'],
    served: { object: 'row', fields: [] },
  }),
  cancel: declare({
    owner: ['src/verbs/review/'],
    data: z.strictObject({ ...rowMove, ...signing, reason: z.string() }),
    folds: ['artifacts', 'review'],
    served: { object: 'row', fields: [] },
  }),
  reopen: declare({
    owner: ['src/verbs/review/'],
    data: z.strictObject({ ...rowMove, ...signing, reopens: z.number() }),
    folds: ['artifacts', 'review'],
    served: { object: 'row', fields: ['reopens'] },
  }),
  'sign-asked': declare({
    owner: ['src/verbs/review/'],
    data: z.strictObject({ ...aboutRow, to: z.array(z.string()) }),
    folds: ['review'],
    served: { object: 'row', fields: [], counted: { to: 'asked' } },
  }),
  comment: declare({
    owner: ['src/verbs/review/'],
    data: z.strictObject({
      ...aboutRow,
      kind: z.string(),
      body: z.string(),
      findings: z.array(z.unknown()),
      audience: z.string(),
      author_class: z.string(),
      /** The comment's own scan: what was found in its words, whether that holds it. */
      scan: z.strictObject({ findings: z.array(z.unknown()), held: z.boolean(), scanner: z.string() }),
      reply_to: z.string().optional(),
    }),
    folds: ['comments'],
    served: { object: 'row', fields: ['kind', 'audience'] },
  }),
  'comment-retract': declare({
    owner: ['src/verbs/review/'],
    data: z.strictObject({ ...aboutRow, comment: z.string(), reason: z.string().optional() }),
    folds: ['comments'],
    served: { object: 'row', fields: ['comment'] },
  }),
  away: declare({
    owner: ['src/verbs/review/'],
    data: z.strictObject({ until: z.number().optional(), note: z.string().optional() }),
    folds: ['away'],
  }),
  back: declare({
    owner: ['src/verbs/review/'],
    data: z.strictObject({}),
    folds: ['away'],
  }),
};
