import { personMustDecide, type QuorumCount, type QuorumRule, type ReviewMode } from './quorum.js';
import type { StanceStanding } from './stance-standing.js';
import { AGENT_STEERING_WORDS } from './agent-steering.js';

/** Why a row waits: a closed list (gv.review waits_for, gv.approval reason). */
export const BLOCKERS = [
  'hard_constraint',
  'semantic_review',
  'needs_evidence',
  'quorum',
  'reviewer_unavailable',
  'human_required',
  'human_directive',
  'authority_conflict',
  'retry_exhausted',
] as const;
export type Blocker = (typeof BLOCKERS)[number];

export interface WaitsFor {
  blocker: Blocker;
  /** A finer machine word within the blocker. */
  code: string;
  words: string;
  rubric?: string;
  missing?: { signatures: number; people: number };
  /** The configured stance a reviewer_unavailable or retry_exhausted row waits on, and how its last run failed. */
  stance?: string;
  failure?: string;
}

/** Consecutive failed runs after which scheduled grading leaves a row to a person (or a fresh gv.grade). */
export const RETRIES_BEFORE_EXHAUSTED = 3;

export interface WaitFacts {
  state: string;
  mode: ReviewMode;
  rule: QuorumRule;
  count: QuorumCount;
  veto: boolean;
  /** A promoted row a later scan took from its readers (HELD_ON_RESCAN). */
  heldOnRescan: boolean;
  /** A person confirmed the finding that holds it, in this epoch: it stays held (gv.sign decision confirm). */
  findingConfirmed: boolean;
  /** Each configured stance's standing in this epoch (stance-standing.ts). */
  stances: readonly StanceStanding[];
  away: boolean;
  operatorObjections: number;
  /** The row contradicts an ACTIVE row (a `contradicts` relation). */
  contradictsPromoted: boolean;
  /** Why the row waits for the injection detector's verdict (detection.ts), or null. */
  detection: WaitsFor | null;
  /** A steering row an agent wrote that no reviewer has approved: never settled by the deployment (agent-steering.ts). */
  agentSteering: boolean;
  /** Why grading cannot run now (budget spent, circuit open), or null. */
  gradingUnavailable: string | null;
  rubric: string;
}

const wait = (blocker: Blocker, code: string, words: string, extra: Partial<WaitsFor> = {}): WaitsFor => ({ blocker, code, words, ...extra });

/** The first thing a row in quarantine waits for, in the order a reviewer would clear them. */
export function waitsFor(f: WaitFacts): WaitsFor {
  const missing = {
    signatures: Math.max(0, f.count.k_required - f.count.k_have),
    people: Math.max(0, f.count.people_required - f.count.people_have),
  };
  switch (f.state) {
    case 'L0_RAW':
      return wait('semantic_review', 'scanning', 'the scanner has not finished with it');
    case 'L1B_FLAGGED':
      if (f.veto) return wait('hard_constraint', 'veto_finding', 'a veto-severity finding stands (a live credential); no signature clears it');
      if (f.findingConfirmed) return wait('hard_constraint', 'finding_confirmed', 'a person confirmed the scanner finding: it stays held until a rejection or its expiry, or until a person clears it after all');
      return f.heldOnRescan
        ? wait('hard_constraint', 'rescan_finding', "it was promoted, and a later scanner found in it a finding of high severity: it left its readers until a person's disposition returns it or rejects it")
        : wait('hard_constraint', 'finding', "a scanner finding holds it until a person's disposition clears or rejects it");
    case 'NEEDS_EVIDENCE':
      return wait('needs_evidence', 'evidence', "a reviewer asked its writer for evidence; the writer's gv.add_evidence returns it to review");
    case 'L3_RATIFIED':
      return wait('quorum', 'countersign', 'quorum is met; a second authority must countersign before it is promoted');
  }
  // The detector is part of the scan: nothing leaves quarantine in an auto or model space before its verdict.
  if (f.detection !== null) return f.detection;
  if (f.contradictsPromoted) {
    return wait('authority_conflict', 'contradicts', 'it contradicts a promoted row; a person decides which stands');
  }
  if (f.operatorObjections > 0) {
    return wait('human_directive', 'objection', "the operator's open objection holds it until a resolution replies or it is retracted");
  }
  if (f.away) return wait('human_directive', 'away', 'the operator is away; nothing is promoted until they are back');
  // Outside human review, models' approvals count only once every configured stance approved:
  // a stance that failed, was blocked or never ran is what the row waits for (fail closed).
  const open = f.stances.find((s) => s.decision === null);
  if (f.mode !== 'human' && f.count.people_have === 0 && f.count.model_rejects.length === 0 && open !== undefined) {
    const failure = open.last_run?.failure ?? open.last_run?.state;
    const named = { stance: open.stance, ...(failure === undefined ? {} : { failure }) };
    if (open.failed_in_a_row >= RETRIES_BEFORE_EXHAUSTED) {
      return wait('retry_exhausted', 'runs_failed', `the last ${open.failed_in_a_row} runs of the ${open.stance} stance (${open.backend}) failed (${failure}); a fresh gv.grade or a person settles it`, named);
    }
    if (open.last_run !== null) {
      const how = open.last_run.state === 'blocked' ? `was not asked: ${open.last_run.detail ?? failure}` : `did not answer: ${failure}`;
      return wait('reviewer_unavailable', 'stance_failed', `the ${open.stance} stance (${open.backend}) ${how}; it is graded again at the next run`, named);
    }
    if (f.gradingUnavailable !== null) return wait('reviewer_unavailable', 'unavailable', f.gradingUnavailable, { stance: open.stance });
    return wait('semantic_review', 'not_graded', `waiting for the model reviewers (the ${open.stance} stance)`, { rubric: f.rubric, stance: open.stance });
  }
  // Only a person's approval answers a model's rejection: a key's approval meets k but clears nothing (quorum.ts).
  if (personMustDecide(f.count)) {
    return wait('human_required', 'model_rejected', `rejected by ${f.count.model_rejects.join(', ')}; a person decides (a reviewer key's approval does not clear it)`, { missing });
  }
  // In human review the rule asks every one of the k from people (quorum.ts), so an unmet count is people missing.
  if (missing.people > 0) {
    return wait('human_required', 'people', `needs ${missing.people} more signature(s) from people`, { missing });
  }
  if (!f.count.met) {
    return wait('quorum', 'k', `needs ${missing.signatures} more signature(s) toward k = ${f.count.k_required}`, { missing });
  }
  if (f.rule.countersign) {
    return wait('quorum', 'ratify', 'quorum is met; it is ratified next and then waits for a second authority to countersign');
  }
  if (f.mode === 'auto') {
    if (f.agentSteering) return wait('quorum', 'agent_steering', `quorum is met; ${AGENT_STEERING_WORDS}`);
    return wait('quorum', 'settle', 'quorum is met; the deployment promotes it at the next settle');
  }
  return wait('human_required', 'settle', `quorum is met; in a ${f.mode}-reviewed space a person promotes it`);
}
