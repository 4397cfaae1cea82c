import { z } from 'zod';
import { isNameSegment } from '../domain/names.js';
import { producerParam, spaceParam, workareaParam } from '../verbs/param-types.js';
import { RECALL_K_MAX, recallAnswer, recallHitAnswer, recallProvenanceAnswer, recallSignalsAnswer } from '../verbs/reading/recall.js';
import { READ_ONLY, defineTool, present } from './define-tool.js';

const onGate = <S extends z.ZodType>(schema: S) => schema.optional().describe('absent on a plugin-tier hit from the local store');

/**
 * A hit as the tool serves it: gv.recall's hit, its evidence left out when include_evidence is
 * false, and on the plugin tier a hit from the local store, which no gate has classed yet.
 */
const hit = recallHitAnswer.extend({
  score: z.number().nullable().optional(),
  weak: onGate(recallHitAnswer.shape.weak),
  provenance: recallProvenanceAnswer
    .extend({
      trust_class: onGate(z.string()),
      kind: onGate(z.string().nullable()),
      writer_kind: onGate(z.string()),
      promoted_at: onGate(z.number().int().nullable()),
      local: z.literal(true).optional().describe('plugin tier: from the local store, no gate has it yet'),
    })
    .optional()
    .describe('absent when include_evidence is false'),
  signals: recallSignalsAnswer.optional().describe('absent when include_evidence is false'),
});

export const recallTool = defineTool({
  name: 'gate.recall',
  tiers: ['client', 'plugin'],
  description:
    'Search promoted claims, plus your own scanned held claims (held true, ratified false). With a work area, also the steering in force there. Hits are in `results`.',
  annotations: READ_ONLY,
  verb: 'gv.recall',
  nullable: ['audience'],
  input: z.strictObject({
    query: z.string().max(4000).optional().describe('optional when a work area is named'),
    scope: z.enum(['closest', 'workarea', 'space', 'all']).optional().describe('default closest with a work area, space without'),
    workarea: workareaParam.optional().describe('required by closest and workarea; refused under space and all'),
    space: spaceParam.optional().describe('default main; refused under all'),
    k: z.number().int().min(1).max(RECALL_K_MAX).optional().describe('default 10'),
    include_evidence: z.boolean().optional().describe("default true: each hit's provenance and ranking signals; false leaves them out"),
    include_provisional: z.boolean().optional().describe('default true'),
    include_superseded: z.boolean().optional().describe('default false'),
    audience: z.string().refine(isNameSegment, 'an audience is a name in the space-name grammar').nullable().optional().describe('default null'),
    include_hidden: z.boolean().optional().describe('default false'),
    include_own_pending: z.boolean().optional().describe('default true'),
    producer: producerParam.optional().describe('narrows steering'),
    steering_k: z.number().int().min(1).max(20).optional().describe('1 to 20, default 5'),
    min_similarity: z.number().min(0).max(1).optional().describe('leave out hits no query word matched whose cosine to the query is below this'),
  }),
  // gv.recall's answer with the ranked hits in `results`, as the client library reads them (docs/protocol.md#the-tool-endpoint).
  // On the plugin tier with no gate, the local store answers: scope and level `local`.
  output: recallAnswer.omit({ hits: true }).extend({
    scope: z.enum([...recallAnswer.shape.scope.options, 'local']),
    answered_by: recallAnswer.shape.answered_by.extend({ level: z.enum([...recallAnswer.shape.answered_by.shape.level.options, 'local']) }),
    results: z.array(hit),
  }),
  params: (a) =>
    present({
      query: a.query,
      scope: a.scope,
      workarea: a.workarea,
      space: a.space,
      k: a.k,
      include_provisional: a.include_provisional,
      include_superseded: a.include_superseded,
      audience: a.audience ?? undefined,
      include_hidden: a.include_hidden,
      include_own_pending: a.include_own_pending,
      producer: a.producer,
      steering_k: a.steering_k,
      min_similarity: a.min_similarity,
    }),
  answer: (r, a) => {
    const { hits, ...rest } = r as { hits: Record<string, unknown>[] };
    const results = a.include_evidence === false ? hits.map(({ provenance: _p, signals: _s, ...h }) => h) : hits;
    return { ...rest, results };
  },
});
