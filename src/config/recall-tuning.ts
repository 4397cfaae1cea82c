/**
 * The constants of recall's ranking that were chosen by measuring (docs/recall.md, "Recall
 * quality"), as one value the gate reads from its [recall] settings. Their defaults are the
 * chosen values; a setting changes how a gate ranks, not what it stores, so the public bench
 * can run the real gate with other values and choose each one by cross-validation
 * (bench/recall-quality-public.js --cv).
 */
export interface RecallTuning {
  /** Hybrid fusion: how the lexical and vector lists are weighed (fusion.ts). */
  fusion: FusionRule;
  /** The lexical list's weight in hybrid fusion; the vector list's is 1 minus it. */
  lexicalWeight: number;
  /** The share of a lending row's score each neighbour gets (neighbour-context.ts). */
  contextShare: number;
  /** The share the row right after a lending question gets. */
  answerShare: number;
  /** Neighbours each side, counted among the source's rows. */
  contextReach: number;
  /** How many of the best ranked rows lend. */
  contextFrom: number;
}

/**
 * `scaled`: each list's scaled scores at fixed weights. `agreement`: the vector list's weight
 * is scaled by how many of the lexical list's best AGREEMENT_DEPTH rows are among the vector
 * list's best AGREEMENT_DEPTH, so a vector list that finds other rows than the words did
 * counts for little (fusion.ts).
 */
export const FUSION_RULES = ['scaled', 'agreement'] as const;
export type FusionRule = (typeof FUSION_RULES)[number];

/**
 * The chosen values, here below recall so that the configuration's defaults can name them;
 * why each was chosen is said where recall uses it (src/recall/fusion.ts LEXICAL_WEIGHT,
 * src/recall/neighbour-context.ts CONTEXT_SHARE, ANSWER_SHARE, CONTEXT_REACH, CONTEXT_FROM).
 */
export const DEFAULT_RECALL_TUNING: Readonly<RecallTuning> = Object.freeze({
  fusion: 'scaled',
  lexicalWeight: 0.7,
  contextShare: 0.35,
  answerShare: 1,
  contextReach: 2,
  contextFrom: 30,
});

/** The [recall] settings as the tuning recall ranks by. */
export function recallTuning(settings: {
  fusion: FusionRule;
  lexical_weight: number;
  context_share: number;
  answer_share: number;
  context_reach: number;
  context_lenders: number;
}): RecallTuning {
  return {
    fusion: settings.fusion,
    lexicalWeight: settings.lexical_weight,
    contextShare: settings.context_share,
    answerShare: settings.answer_share,
    contextReach: settings.context_reach,
    contextFrom: settings.context_lenders,
  };
}
