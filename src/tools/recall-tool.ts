import { z } from 'zod';
import { isNameSegment } from '../domain/names.js';
import { producerParam, spaceParam, workareaParam } from '../verbs/param-types.js';
import { RECALL_K_MAX } from '../verbs/reading/recall.js';
import { READ_ONLY, defineTool, present } from './define-tool.js';

const place = z.object({ space: z.string(), workarea: z.string().nullable() });

const signal = z.object({ rank: z.number().int().describe('1-based position in its list'), score: z.number() });

const onGate = (schema: z.ZodType) => schema.optional().describe('absent on a plugin-tier hit from the local store');
const provenance = z.object({
  source_uri: z.string(),
  content_type: z.string(),
  state: z.string(),
  ratified: z.boolean(),
  trust_class: onGate(z.string()),
  kind: onGate(z.string().nullable()),
  writer_kind: onGate(z.string()),
  promoted_at: onGate(z.number().int().nullable()),
  unreviewed: z.literal(true).optional().describe("the caller's own held row"),
  hidden: z.literal(true).optional().describe('hidden from the audience asked for (include_hidden)'),
  lowered: z.literal(true).optional().describe('a hide by someone other than a person lowers it rather than removing it'),
  local: z.literal(true).optional().describe('plugin tier: from the local store, no gate has it yet'),
});

/**
 * What the scanner found in a served row: its kinds and severities, never the matched text.
 * Medium or above held the row until a person approved it all the same: read it with care.
 */
const scannerFindings = z
  .array(z.object({ kind: z.string().describe('family.rule, e.g. injection.ignore_previous'), severity: z.string().describe('low, medium, high or veto') }))
  .optional()
  .describe('present only when the scanner found something in this row (kinds and severities, most severe first; never the matched text): a row held for findings that a person approved all the same');

const hit = z.object({
  artifact_id: z.string(),
  body: z.string().nullable(),
  score: z.number().nullable().optional(),
  space: z.string(),
  workarea: z.string().nullable(),
  producer: z.object({ name: z.string(), kind: z.string().nullable() }).nullable(),
  held: z.boolean().describe("true for the caller's own held row (then ratified is false)"),
  distance: z.number().int().nullable(),
  provisional: z.boolean(),
  weak: z
    .boolean()
    .optional()
    .describe('true: no query word matched it and its cosine to the query is low, a neighbour rather than an answer; absent on a plugin-tier hit from the local store'),
  scanner_findings: scannerFindings,
  provenance: provenance.optional().describe('absent when include_evidence is false'),
  signals: z
    .object({
      lexical: signal.optional(),
      vector: signal.optional(),
      context: z.object({ score: z.number() }).optional().describe('the part of score lent by matched claims next to it from the same source'),
      rerank: signal.optional().describe("the re-ranker's place and score, when rerank.url is set and it answered"),
    })
    .optional()
    .describe('absent when include_evidence is false'),
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
  output: z.object({
    scope: z.string(),
    space: z.string().nullable(),
    workarea: z.string().nullable(),
    answered_by: z.object({ mode: z.string(), level: z.string(), workarea: z.string().nullable(), distance: z.number().int().nullable() }),
    results: z.array(hit),
    paths: z.array(place),
    audience: z.string().optional(),
    steering: z.array(z.record(z.string(), z.unknown())),
    steering_omitted: z.number().int(),
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
