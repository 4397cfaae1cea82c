import type { SignerClass } from '../domain/signer-class.js';
import { COUNTERSIGN_CLASSES } from '../domain/countersign-classes.js';

/** A space's review policy (docs/protocol.md#review-modes-and-blockers): who counts toward k and who may settle a promotion. */
export const REVIEW_MODES = ['human', 'model', 'auto'] as const;
export type ReviewMode = (typeof REVIEW_MODES)[number];

/** What a trust class needs under the quorum profile in force. */
export interface QuorumRule {
  k: number;
  /** How many of the k must be signed-in people. */
  people: number;
  /** T-3 and T-5 are held until a second authority countersigns (docs/protocol.md#states). */
  countersign: boolean;
}

export interface QuorumProfile {
  k: Partial<Record<string, number>>;
  people: Partial<Record<string, number>>;
}

/**
 * What a trust class needs in a space of the given mode. A class the profile does not name
 * needs one signature and no person; in a human-reviewed space only people's signatures
 * count, so every one of the k must be a person's (gv.approval's people_required says so).
 */
export function quorumRule(profile: QuorumProfile, trustClass: string, mode: ReviewMode): QuorumRule {
  const k = profile.k[trustClass] ?? 1;
  const people = profile.people[trustClass] ?? 0;
  return {
    k,
    people: mode === 'human' ? Math.max(k, people) : people,
    countersign: COUNTERSIGN_CLASSES.has(trustClass),
  };
}

/** One signature of the current epoch, as the signatures view holds it. */
export interface Signature {
  signer: string;
  class: SignerClass;
  type: string;
  decision: string;
  stance: string | null;
  seq: number;
}

export interface CountedSigner {
  signer: string;
  class: SignerClass;
  decision: string;
  counts: boolean;
  /** Why it does not count, when it does not. */
  why?: string;
}

export interface QuorumCount {
  k_required: number;
  k_have: number;
  people_required: number;
  people_have: number;
  met: boolean;
  /** Model labels whose verdict, over every stance, is a rejection. */
  model_rejects: string[];
  signers: CountedSigner[];
}

/**
 * Why one signer's approval may not count beyond the class and mode rules, or null. The
 * place for per-signer conditions (such as having been served every attachment).
 */
export type SignerCondition = (signer: string, cls: SignerClass) => string | null;

const APPROVING = new Set(['approve', 'promote']);

/** Whether a class counts toward k in a mode: people always; models and agents outside human mode; the rest never. */
export function classCounts(cls: SignerClass, mode: ReviewMode): string | null {
  if (cls === 'human') return null;
  if (cls === 'deployment') return 'the deployment signs a promotion, it does not vote for one';
  if (cls === 'authority') return "an authority's countersign is counted apart from k";
  return mode === 'human' ? `only people's signatures count in a human-reviewed space` : null;
}

/**
 * Counts the signatures of one epoch toward the rule: distinct signers, the writer never;
 * a model counts once per label, and approves only when its newest verdict for every
 * stance approves (one stance's rejection is the model's rejection).
 */
export function countQuorum(
  rule: QuorumRule,
  mode: ReviewMode,
  writer: string,
  signatures: readonly Signature[],
  condition: SignerCondition = () => null,
): QuorumCount {
  const bySigner = new Map<string, Signature[]>();
  for (const s of signatures) bySigner.set(s.signer, [...(bySigner.get(s.signer) ?? []), s]);
  const signers: CountedSigner[] = [];
  const modelRejects: string[] = [];
  for (const [signer, own] of bySigner) {
    // A signer stands on its newest signature, and signs as that one's class (a proof can make an operator's sign a human's).
    const cls = own[own.length - 1]!.class;
    let decision: string;
    if (cls === 'model') {
      const newestPerStance = new Map<string, Signature>();
      for (const s of own) newestPerStance.set(s.stance ?? '', s);
      decision = [...newestPerStance.values()].every((s) => s.decision === 'approve') ? 'approve' : 'reject';
      if (decision === 'reject') modelRejects.push(signer);
    } else {
      decision = own[own.length - 1]!.decision;
    }
    let why: string | null = null;
    if (!APPROVING.has(decision)) why = `a ${decision}, not an approval`;
    else if (signer === writer) why = 'the writer never counts toward its own row';
    else why = classCounts(cls, mode) ?? condition(signer, cls);
    signers.push({ signer, class: cls, decision, counts: why === null, ...(why === null ? {} : { why }) });
  }
  const counted = signers.filter((s) => s.counts);
  const k_have = counted.length;
  const people_have = counted.filter((s) => s.class === 'human').length;
  return {
    k_required: rule.k,
    k_have,
    people_required: rule.people,
    people_have,
    met: k_have >= rule.k && people_have >= rule.people,
    model_rejects: modelRejects,
    signers,
  };
}

/**
 * A row a model rejected waits for a person (`human_required`, code `model_rejected`) until an
 * approval of class human counts on it: a signed-in person's, or the operator's with a proof
 * (docs/review.md). No key clears it, however many approve: a reviewer key's approval is
 * recorded and counts toward k, but the model's rejection is a question for a person.
 */
export function personMustDecide(count: Pick<QuorumCount, 'model_rejects' | 'people_have'>): boolean {
  return count.model_rejects.length > 0 && count.people_have === 0;
}

/**
 * Who may perform the promotion once quorum is met: in human and model spaces a person
 * settles; in auto spaces any reviewer, or the deployment (settle_pending), may.
 */
export function settlerProblem(mode: ReviewMode, cls: SignerClass): string | null {
  if (cls === 'human') return null;
  if (mode === 'auto') return null;
  return `in a ${mode}-reviewed space a signed-in person settles the promotion`;
}
