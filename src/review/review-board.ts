import type { SpaceReads } from '../projections/space-reads.js';
import type { AwayReads } from '../projections/away-reads.js';
import type { Clock } from '../clock.js';
import type { ArtifactRow } from '../projections/artifact-reads.js';
import type { RelationReads } from '../projections/relation-reads.js';
import type { ReviewReads, ReviewRow, SignatureRow } from '../projections/review-reads.js';
import { openObjections, type CommentReads, type CommentRow } from '../projections/comment-reads.js';
import { HELD_ON_RESCAN, QUARANTINE_STATES, type ArtifactState } from '../domain/states.js';
import type { GradeStage } from '../../pipeline/grade-stage.js';
import { RUBRIC_VERSION } from '../../workers/grade/rubric.js';
import { AwayClock, type AwayPeriod } from './away-clock.js';
import { approvalStatus, type ApprovalStatus } from './approval-status.js';
import { waitsFor, type WaitsFor } from './blockers.js';
import { Circuit } from '../circuit.js';
import { Deferrals } from './deferrals.js';
import { countQuorum, personMustDecide, quorumRule, settlerProblem, type QuorumCount, type QuorumRule, type ReviewMode, type Signature } from './quorum.js';
import type { ReviewSettings } from './review-settings.js';
import { RunBoard } from './run-board.js';
import { stanceStandings, unansweredStances, type StanceStanding } from './stance-standing.js';
import type { SignerClass } from '../domain/signer-class.js';
import { TokenBudget } from './token-budget.js';
import { AGENT_STEERING_WORDS, waitsForReviewer } from './agent-steering.js';
import type { DetectionPart } from './detection-gate.js';

export interface ReviewPicture {
  row: ArtifactRow;
  mode: ReviewMode;
  rule: QuorumRule;
  review: ReviewRow | undefined;
  /** Every signature on the row, all epochs, oldest first. */
  signatures: SignatureRow[];
  /** The signatures since the last reopen: the ones that count. */
  current: SignatureRow[];
  count: QuorumCount;
  /** Each configured stance's standing in this epoch: models count only once all approved. */
  stances: StanceStanding[];
  objections: CommentRow[];
  operatorObjections: number;
  away: AwayPeriod | undefined;
  contradictsPromoted: boolean;
  /** Why the row waits for the injection detector's verdict; null when it does not (or is out of quarantine). */
  detection: WaitsFor | null;
  /** What the row waits for; null once it is out of quarantine. */
  waitsFor: WaitsFor | null;
  status: ApprovalStatus;
  /** When the human-review time-to-live ends (null for a row not waiting on people). */
  expires: { at: number; in_s: number; paused: boolean } | null;
}

/** States whose human-review clock runs: rows waiting on people's review. */
export const EXPIRING_STATES: ReadonlySet<string> = new Set(['L1_SCANNED', 'L1B_FLAGGED', 'L2_SCORED', 'NEEDS_EVIDENCE']);

export const toSignature = (s: SignatureRow): Signature => ({
  signer: s.signer,
  class: s.class as SignerClass,
  type: s.type,
  decision: s.decision,
  stance: s.stance,
  seq: s.seq,
});

/**
 * Everything review decides from: the settings, the review views, the away clock, the
 * day's budget, each backend's circuit, the runs in flight, defer marks and the grade
 * stage. `picture` answers, for one row, who counts, what is missing and what it waits for.
 */
export class ReviewBoard {
  readonly away: AwayClock;
  readonly budget: TokenBudget;
  readonly runs = new RunBoard();
  readonly deferrals = new Deferrals();
  private readonly circuits = new Map<string, Circuit>();

  constructor(
    /** The spaces' review policies and the operator's away periods, read through the store. */
    private readonly views: { readonly spaces: SpaceReads; readonly away: AwayReads },
    readonly settings: ReviewSettings,
    private readonly relations: RelationReads,
    readonly reads: ReviewReads,
    readonly comments: CommentReads,
    private readonly byId: (id: string) => ArtifactRow | undefined,
    /** Why the identity's approval does not count yet for what it was not served whole, or null (read-before-signing.ts). */
    private readonly unread: (identity: string, cls: SignerClass, row: ArtifactRow) => string | null,
    readonly clock: Clock,
    /** The grade pool reviewer calls go to: the root builds it and closes it (src/parts/review-parts.ts). */
    readonly stage: GradeStage,
    /** The injection detector whose verdict rows of auto and model spaces wait for, when one is configured. */
    private readonly detection: Pick<DetectionPart, 'waitOf'> | null = null,
  ) {
    this.away = new AwayClock(views.away, clock);
    this.budget = new TokenBudget(this.reads, settings.budgetPerDay, clock);
    for (const [name, b] of settings.backends) if (b.circuit) this.circuits.set(name, new Circuit(b.circuit.failures, b.circuit.openMs, clock));
  }

  modeOf(space: string): ReviewMode {
    return (this.views.spaces.policyOf(space) ?? 'human') as ReviewMode;
  }

  circuit(backend: string): Circuit | undefined {
    return this.circuits.get(backend);
  }

  /** Why the configured stances cannot be graded now (budget spent, a circuit open), or null. */
  gradingUnavailable(): string | null {
    for (const { stance, backend } of this.settings.stances) {
      if (backend.backend.kind === 'local') continue;
      const blocked = this.circuits.get(backend.backend.name)?.blocked;
      if (blocked) return `backend ${backend.backend.name} (stance ${stance}): ${blocked}`;
      if (!this.budget.affords(backend)) return `the day's token budget of ${this.budget.perDay} is spent`;
    }
    return null;
  }

  /** Each configured stance's standing on a row, from its current epoch's signatures and the runs since it began waiting. */
  stancesOf(artifactId: string, review: ReviewRow | undefined, current: readonly SignatureRow[]): StanceStanding[] {
    return stanceStandings(this.settings, current, review === undefined ? [] : this.reads.runsOfRow(artifactId, review.review_since));
  }

  /**
   * The row's review as it stands, optionally with one more prospective signature (the
   * one a gv.promote or gv.sign would add) counted as if it were recorded.
   */
  picture(row: ArtifactRow, extra?: Signature): ReviewPicture {
    const mode = this.modeOf(row.space);
    const rule = quorumRule(this.settings.profile, row.trust_class, mode);
    const review = this.reads.row(row.artifact_id);
    const epoch = review?.epoch ?? 0;
    const signatures = this.reads.signatures(row.artifact_id);
    const current = signatures.filter((s) => s.epoch === epoch);
    const stances = this.stancesOf(row.artifact_id, review, current);
    const stancesOpen = unansweredStances(stances);
    // A signature counts only from an identity served the whole masked body and every attachment to its end
    // (docs/protocol.md#gvattachment); a model grades the masked body whole and is served no attachment, so on a row
    // with attachments it never counts.
    const count = countQuorum(rule, mode, row.writer_identity, [...current.map(toSignature), ...(extra ? [extra] : [])], (signer, cls) => {
      if (cls === 'model' && stancesOpen !== null) return stancesOpen;
      return this.unread(signer, cls, row);
    });
    const objections = openObjections(this.comments.ofRow(row.artifact_id));
    const operatorObjections = objections.filter((c) => c.author_class === 'operator').length;
    const now = this.clock.now();
    const away = this.away.current(now);
    const contradictsPromoted = this.relations
      .edgesOf(row.artifact_id)
      .some((e) => e.kind === 'contradicts' && e.child === row.artifact_id && this.byId(e.parent)?.state === 'ACTIVE');
    const inQuarantine = QUARANTINE_STATES.has(row.state as ArtifactState);
    const detection = inQuarantine ? (this.detection?.waitOf(row, mode) ?? null) : null;
    const waiting = inQuarantine
      ? waitsFor({
          state: row.state,
          mode,
          rule,
          count,
          veto: review?.veto === 1,
          heldOnRescan: row.reason === HELD_ON_RESCAN,
          findingConfirmed: current.some((s) => s.type === 'disposition' && s.class === 'human' && s.decision === 'confirm'),
          stances,
          away: away !== undefined,
          operatorObjections,
          contradictsPromoted,
          detection,
          agentSteering: waitsForReviewer(row, count),
          gradingUnavailable: this.gradingUnavailable(),
          rubric: RUBRIC_VERSION,
        })
      : null;
    let expires: ReviewPicture['expires'] = null;
    // A promoted row a later scan held waits for a person, never for the clock (expiry passes it by).
    if (review !== undefined && EXPIRING_STATES.has(row.state) && row.reason !== HELD_ON_RESCAN) {
      const at = review.review_since + this.settings.ttlMs + this.away.awayBetween(review.review_since, now);
      expires = { at, in_s: Math.max(0, Math.round((at - now) / 1000)), paused: away !== undefined };
    }
    return {
      row,
      mode,
      rule,
      review,
      signatures,
      current,
      count,
      stances,
      objections,
      operatorObjections,
      away,
      contradictsPromoted,
      detection,
      waitsFor: waiting,
      status: approvalStatus(row.state, signatures, count),
      expires,
    };
  }

  /**
   * Why the settler may not promote the row now, or null: the operator away, a model's
   * rejection no person has answered, quorum not met, a person needed to settle, an agent's
   * steering row no reviewer approved.
   */
  promotionProblem(p: ReviewPicture, settler: SignerClass): { reason: string; words: string } | null {
    if (p.row.erased_seq !== null) return { reason: 'erased', words: 'the content of this row was erased; an erased row is never promoted' };
    if (p.away !== undefined) return { reason: 'away', words: 'the operator is away; nothing is promoted until they are back' };
    // Fail closed: without the detector's verdict nobody promotes a row of an auto or model space, a person included.
    if (p.detection !== null) return { reason: 'detector', words: p.detection.words };
    if (p.contradictsPromoted && settler !== 'human') {
      return { reason: 'authority_conflict', words: 'it contradicts a promoted row; a person decides which stands' };
    }
    // A model's rejection is a person's to answer, whoever else approves (docs/review.md, "a person decides").
    if (personMustDecide(p.count)) {
      return { reason: 'human_required', words: `rejected by ${p.count.model_rejects.join(', ')}; only a person's approval (or the operator's with a proof) answers a model's rejection` };
    }
    if (!p.count.met) return { reason: 'quorum', words: p.waitsFor?.words ?? 'quorum is not met' };
    const settle = settlerProblem(p.mode, settler);
    if (settle !== null) return { reason: 'human_required', words: settle };
    // A reviewer promoting it counts their own approval, so only the deployment meets this.
    if (waitsForReviewer(p.row, p.count)) return { reason: 'agent_steering', words: AGENT_STEERING_WORDS };
    return null;
  }
}
