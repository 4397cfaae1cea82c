import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { producerParam, spaceParam, workareaParam } from '../param-types.js';
import { invalidParams } from '../../gate-error.js';
import { producerOf } from '../../projections/artifact-reads.js';
import { markedWith } from '../../projections/finding-marks.js';
import { planRecall, type RecallLevel, type RecallPlan } from '../../recall/recall-plan.js';
import { RECALL_MODES, type Candidate, type RecallMode, type SearchRequest } from '../../recall/ranked-search.js';
import { ChainFilter, HideFilter, type HideVerdict } from '../../recall/served-filter.js';
import { isNameSegment } from '../../domain/names.js';
import { isWeak } from '../../recall/weak-match.js';
import { rerankedHits } from '../../recall/rerank-hits.js';
import type { Caller } from '../../access/caller.js';
import type { House } from '../house.js';
import { producerAnswer, scannerFindingsAnswer, steeringItemAnswer } from '../answer-types.js';

export const RECALL_K_MAX = 100;
const STEERING_K_DEFAULT = 5;
/** How far a recall widens its lists when hides, pins or a work area filter rows out after ranking. */
const FETCH_CEILING = 1_000;

const params = z.strictObject({
  query: z.string().max(4000).optional(),
  scope: z.string().optional(),
  workarea: workareaParam.optional(),
  space: spaceParam.optional(),
  spaces: z.array(spaceParam).min(1).max(64).optional(),
  k: z.number().int().min(1).max(RECALL_K_MAX).optional(),
  mode: z.string().optional(),
  include_provisional: z.boolean().optional(),
  include_superseded: z.boolean().optional(),
  audience: z.string().refine(isNameSegment, 'an audience is a name in the space-name grammar').optional(),
  include_hidden: z.boolean().optional(),
  include_own_pending: z.boolean().optional(),
  // Checked in the handler, so a bad shape is refused with the sentence docs/protocol.md#gvrecall asks for.
  producer: z.unknown().optional(),
  steering_k: z.unknown().optional(),
  // Beyond the protocol (docs/recall.md): leave out hits no query word matched whose cosine is below this.
  min_similarity: z.number().min(0).max(1).optional(),
});
type Params = z.output<typeof params>;

interface Shown {
  candidate: Candidate;
  hidden: HideVerdict;
}

function hitOf(house: Pick<House, 'store'>, { candidate, hidden }: Shown, held: boolean, distance: number | null) {
  const r = candidate.row;
  return {
    artifact_id: r.artifact_id,
    score: candidate.score,
    body: house.store.artifacts.body(r.content_hash),
    space: r.space,
    workarea: r.workarea,
    producer: producerOf(r),
    held,
    distance,
    provisional: r.provisional === 1,
    weak: isWeak(candidate.signals),
    // A row promoted over the scanner's findings says so wherever it is served (kinds and severities, never the matched text).
    ...markedWith(house.store.artifacts.findingMarks(r)),
    provenance: {
      source_uri: r.source_uri,
      trust_class: r.trust_class,
      kind: r.kind,
      content_type: r.content_type,
      writer_kind: r.writer_kind,
      state: r.state,
      promoted_at: r.promoted_ts,
      ratified: !held,
      ...(held ? { unreviewed: true } : {}),
      ...(hidden === 'hidden' ? { hidden: true } : {}),
      ...(hidden === 'lowered' ? { lowered: true } : {}),
    },
    signals: candidate.signals,
  };
}

function checkedSteeringK(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 20) {
    throw invalidParams('steering_k must be an integer from 1 to 20', { field: 'steering_k' });
  }
  return value;
}

function checkedProducer(value: unknown) {
  if (value === undefined) return undefined;
  const parsed = producerParam.safeParse(value);
  if (!parsed.success) throw invalidParams('producer must be {name, kind} with kind agent, hook, person or tool', { field: 'producer' });
  return parsed.data;
}

/**
 * Ranks one level and applies what is served: supersession and pins, hides for the
 * audience, steering never among hits. Rows filtered out after ranking are made up by
 * widening the lists until k rows stand or the lists run dry.
 */
async function rankLevel(
  base: Omit<SearchRequest, 'limit' | 'workarea'>,
  level: RecallLevel,
  k: number,
  filters: { chain: ChainFilter; hides: HideFilter; includeHidden: boolean; minSimilarity: number | undefined },
  search: (req: SearchRequest) => Promise<{ candidates: Candidate[]; exhausted: boolean }>,
): Promise<Shown[]> {
  for (let limit = k; ; limit = Math.min(limit * 4, FETCH_CEILING)) {
    const { candidates, exhausted } = await search({ ...base, workarea: level.workarea, limit });
    const shown: Shown[] = [];
    const lowered: Shown[] = [];
    for (const candidate of candidates) {
      if (candidate.row.kind === 'steering' || !filters.chain.served(candidate.row)) continue;
      if (filters.minSimilarity !== undefined && isWeak(candidate.signals, filters.minSimilarity)) continue;
      const hidden = filters.hides.verdict(candidate.row.artifact_id);
      if (hidden === 'hidden' && !filters.includeHidden) continue;
      (hidden === 'lowered' ? lowered : shown).push({ candidate, hidden });
    }
    const all = [...shown, ...lowered];
    if (all.length >= k || exhausted || limit >= FETCH_CEILING) return all.slice(0, k);
  }
}

async function answerHits(house: Pick<House, 'store' | 'recall'>, caller: Caller, p: Params, plan: RecallPlan, mode: RecallMode, k: number) {
  if (p.query === undefined) return { level: plan.levels[0]!, ranked: [] as Shown[], held: [] as Shown[] };
  const chain = new ChainFilter(house.store.relations, p.include_superseded ?? false);
  const hides = new HideFilter(house.store.relations, p.audience);
  const filters = { chain, hides, includeHidden: p.include_hidden ?? false, minSimilarity: p.min_similarity };
  const base = {
    mode,
    text: p.query,
    spaces: plan.spaces,
    includeProvisional: p.include_provisional ?? true,
    includeSuperseded: chain.searchSuperseded,
  };
  let level = plan.levels[plan.levels.length - 1]!;
  let ranked: Shown[] = [];
  // With a re-ranker, more hits are ranked than shown: it picks the k shown from them.
  const reranker = house.recall.reranker;
  const want = reranker === null ? k : Math.max(k, reranker.topN);
  for (const candidateLevel of plan.levels) {
    ranked = await rankLevel(base, candidateLevel, want, filters, (req) => house.recall.rankedSearch.promoted(req));
    level = candidateLevel;
    if (ranked.length > 0) break;
  }
  if (reranker !== null) ranked = (await rerankedHits(reranker, p.query, ranked, (c) => house.store.artifacts.body(c.row.content_hash) ?? '')).slice(0, k);
  // Own held rows come after the ranked hits, at most k of them (docs/protocol.md#gvrecall).
  const held =
    p.include_own_pending === false
      ? []
      : (await house.recall.rankedSearch.ownHeld({ ...base, includeSuperseded: false, workarea: level.workarea, limit: k }, caller.identity))
          .candidates.filter((c) => c.row.kind !== 'steering' && (p.min_similarity === undefined || !isWeak(c.signals, p.min_similarity)))
          .map((candidate) => ({ candidate, hidden: 'shown' as const }));
  return { level, ranked, held };
}

const signal = z.object({ rank: z.number().int().describe('1-based position in its list'), score: z.number() });

export const recallProvenanceAnswer = z.object({
  source_uri: z.string(),
  content_type: z.string(),
  state: z.string(),
  ratified: z.boolean(),
  trust_class: z.string(),
  kind: z.string().nullable(),
  writer_kind: z.string(),
  promoted_at: z.number().int().nullable(),
  unreviewed: z.boolean().optional().describe("true on the caller's own held row"),
  hidden: z.boolean().optional().describe('true: hidden from the audience asked for (include_hidden)'),
  lowered: z.boolean().optional().describe('true: a hide by someone other than a person lowers it rather than removing it'),
});

export const recallSignalsAnswer = z.object({
  lexical: signal.optional(),
  vector: signal.optional(),
  context: z.object({ score: z.number() }).optional().describe('the part of score lent by matched claims next to it from the same source'),
  rerank: signal.optional().describe("the re-ranker's place and score, when rerank.url is set and it answered"),
});

export const recallHitAnswer = z.object({
  artifact_id: z.string(),
  score: z.number(),
  body: z.string().nullable(),
  space: z.string(),
  workarea: z.string().nullable(),
  producer: producerAnswer,
  held: z.boolean().describe("true for the caller's own held row (then ratified is false)"),
  distance: z.number().int().nullable(),
  provisional: z.boolean(),
  weak: z.boolean().describe('true: no query word matched it and its cosine to the query is low, a neighbour rather than an answer'),
  scanner_findings: scannerFindingsAnswer,
  provenance: recallProvenanceAnswer,
  signals: recallSignalsAnswer,
});

export const recallAnswer = z.object({
  steering: z.array(steeringItemAnswer),
  steering_omitted: z.number().int(),
  audience: z.string().optional(),
  scope: z.enum(['spaces', 'workarea', 'space', 'closest', 'all']),
  space: z.string().nullable(),
  workarea: z.string().nullable(),
  answered_by: z.object({
    mode: z.enum(['hybrid', 'lexical', 'vector']),
    level: z.enum(['spaces', 'workarea', 'space', 'all']),
    workarea: z.string().nullable(),
    distance: z.number().int().nullable(),
  }),
  hits: z.array(recallHitAnswer),
  paths: z.array(z.object({ space: z.string(), workarea: z.string().nullable() })),
});

export const recallVerb = defineVerb({
  name: 'gv.recall',
  role: 'reader',
  summary: 'Search promoted claims (hybrid, lexical or vector), plus your own scanned held claims; with a work area, the steering in force.',
  params,
  answer: recallAnswer,
  uses: ['store', 'access', 'recall'],
  async handler({ caller, store, access, recall }, p) {
    const producer = checkedProducer(p.producer);
    const steeringK = checkedSteeringK(p.steering_k);
    if (p.query === undefined && p.workarea === undefined) {
      throw invalidParams('give a query or a work area', { field: 'query' });
    }
    const mode = (p.mode ?? 'hybrid') as RecallMode;
    if (!(RECALL_MODES as readonly string[]).includes(mode)) {
      throw invalidParams(`unknown mode ${JSON.stringify(p.mode)}; the modes are ${RECALL_MODES.join(', ')}`, { field: 'mode' });
    }
    const plan = planRecall({ store, access }, caller, {
      ...(p.scope !== undefined ? { scope: p.scope } : {}),
      ...(p.workarea !== undefined ? { workarea: p.workarea } : {}),
      ...(p.space !== undefined ? { space: p.space } : {}),
      ...(p.spaces !== undefined ? { spaces: p.spaces } : {}),
      ...(producer !== undefined ? { producer } : {}),
      ...(steeringK !== undefined ? { steering_k: steeringK } : {}),
    });
    const k = p.k ?? 10;
    const { level, ranked, held } = await answerHits({ store, recall }, caller, p, plan, mode, k);
    const steering =
      plan.workarea === null
        ? { steering: [], steering_omitted: 0 }
        : recall.steering.inForce({
            space: plan.space!,
            workarea: plan.workarea,
            k: steeringK ?? STEERING_K_DEFAULT,
            includeProvisional: p.include_provisional ?? true,
            hides: new HideFilter(store.relations, p.audience),
            ...(producer !== undefined ? { producer } : {}),
          });
    return {
      scope: plan.scope,
      space: plan.space,
      workarea: plan.workarea,
      answered_by: {
        mode,
        level: level.workarea === null ? (plan.scope === 'closest' ? 'space' : plan.scope) : 'workarea',
        workarea: level.workarea,
        distance: level.distance,
      },
      hits: [
        ...ranked.map((s) => hitOf({ store }, s, false, level.distance)),
        ...held.map((s) => hitOf({ store }, s, true, level.distance)),
      ],
      paths: plan.spaces.map((space) => ({ space, workarea: level.workarea })),
      ...(p.audience !== undefined ? { audience: p.audience } : {}),
      ...steering,
    };
  },
});
