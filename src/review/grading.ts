import { randomBytes } from 'node:crypto';
import PQueue from 'p-queue';
import { derivesFromOf, type ArtifactRow } from '../projections/artifact-reads.js';
import { maskedField } from '../scanning/row-fields.js';
import { rowEventData } from '../projections/row-event.js';
import type { EventData } from '../journal/catalogue/catalogue.js';
import { modelLabel } from '../../workers/grade/backend.js';
import { RUBRIC_VERSION } from '../../workers/grade/rubric.js';
import type { GradeInput, GradeOutcome } from '../../workers/grade/grade-task.js';
import { RETRIES_BEFORE_EXHAUSTED } from './blockers.js';
import { estimateTokens } from './token-budget.js';
import type { Store } from '../store/store.js';
import type { RecallPart } from '../recall/recall-part.js';
import type { GradingPart, ReviewPart } from './review-part.js';
import type { ReviewBoard } from './review-board.js';
import type { GradeSummary, StancePlan, StanceRun } from './stance-run.js';
import type { GateConfig } from '../config/keys.js';
import type { Log } from '../log.js';
import type { Clock } from '../clock.js';

/**
 * States a verdict may land on: scanned and unflagged, or already scored. A row sent back for
 * evidence is not graded: a verdict would take it to L2_SCORED without the evidence; it is
 * graded again once its writer's evidence returns it to L1_SCANNED.
 */
export const GRADABLE_STATES: ReadonlySet<string> = new Set(['L1_SCANNED', 'L2_SCORED']);

const newRunId = () => `run:${randomBytes(12).toString('hex')}`;

/** What the grader is shown of a row: the masked body and facts, never the raw bytes of a finding. */
export async function gradeInput(house: { readonly store: Store; readonly recall: RecallPart }, row: ArtifactRow): Promise<GradeInput> {
  const findings = house.store.artifacts.findings(row.artifact_id);
  return {
    artifact_id: row.artifact_id,
    text: house.store.artifacts.servedBody(row, 'masked') ?? '',
    kind: row.kind,
    content_type: row.content_type,
    trust_class: row.trust_class,
    // Masked as the body is: an injection placed in the source must not reach the model either.
    source_uri: maskedField(row.source_uri, 'source_uri', findings),
    findings: findings.map((f) => ({ kind: f.kind, severity: f.severity })),
    parents: derivesFromOf(row).map((id) => house.store.artifacts.byId(id)?.state ?? null),
    nearest_promoted: await house.recall.vector.nearestPromoted(row.rowid, row.space),
  };
}

/** The journaled record of one run: completed, failed or blocked, with what it cost. */
function runData(row: ArtifactRow | null, plan: StancePlan, run: Omit<StanceRun, 'stance' | 'backend' | 'model_label'> & { ms?: number }): EventData<'review-run'> {
  return {
    run_id: run.run_id,
    backend: plan.backend.backend.name,
    model_label: modelLabel(plan.backend.backend),
    stance: plan.stance,
    rubric: RUBRIC_VERSION,
    state: run.state,
    cost_tokens: run.cost_tokens,
    from_record: run.from_record,
    ms: run.ms ?? 0,
    ...(row === null ? {} : { artifact_id: row.artifact_id, space: row.space, ...(row.workarea === null ? {} : { workarea: row.workarea }) }),
    ...(run.failure === undefined ? {} : { failure: run.failure }),
    ...(run.detail === undefined ? {} : { detail: run.detail }),
  };
}

/**
 * Grading: one reviewer call per stance. A completed call is journaled as an assessment
 * (the run, and the 0-100 score against the rubric with rationale, evidence and
 * counterevidence, bound to the content hash) and a verdict (the approve or reject
 * decision, no score) moving the row to L2_SCORED; any other run as a review-run.
 */
/** How long finished calls wait to be journaled together: one commit (one fsync) carries them all. */
const RECORD_EVERY_MS = 20;
const RECORD_BATCH_MAX = 32;

export class Grading implements GradingPart {
  private halted = false;
  private toRecord: Array<{ record: () => StanceRun; resolve: (r: StanceRun) => void; reject: (e: unknown) => void }> = [];
  private recordTimer: NodeJS.Timeout | null = null;
  private recording: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly house: { readonly store: Store; readonly recall: RecallPart; readonly config: GateConfig; readonly clock: Clock; readonly log: Log },
    private readonly board: ReviewBoard,
  ) {}

  /** Shutdown: grading in progress takes no further rows; calls already made finish and are journaled. */
  halt(): void {
    this.halted = true;
  }

  /**
   * Journals a finished call with the others that finish within RECORD_EVERY_MS, in one
   * write: a backend answering hundreds of calls a second would otherwise cost a commit
   * each, and every commit an fsync on the thread that answers the gate's callers.
   */
  private recordSoon(record: () => StanceRun): Promise<StanceRun> {
    return new Promise((resolve, reject) => {
      this.toRecord.push({ record, resolve, reject });
      if (this.toRecord.length >= RECORD_BATCH_MAX) this.flushRecords();
      else this.recordTimer ??= setTimeout(() => this.flushRecords(), RECORD_EVERY_MS);
    });
  }

  private flushRecords(): void {
    if (this.recordTimer !== null) clearTimeout(this.recordTimer);
    this.recordTimer = null;
    const batch = this.toRecord.splice(0);
    if (batch.length === 0) return;
    const written = this.house.store.writer.write(() => batch.map((b) => b.record())).then(
      (runs) => batch.forEach((b, i) => b.resolve(runs[i]!)),
      (error: unknown) => batch.forEach((b) => b.reject(error)),
    );
    this.recording = Promise.all([this.recording, written]);
  }

  /**
   * Before the journal closes (after the grade pool has answered every call): each call
   * still on the board is journaled, including those whose answer is still on its way here.
   */
  async drain(): Promise<void> {
    while (this.toRecord.length > 0 || this.board.runs.list().length > 0) {
      this.flushRecords();
      await this.recording;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }


  /** A blocked run is journaled too, so operators see in gv.review_runs why grading stopped. */
  async blocked(row: ArtifactRow | null, plan: StancePlan, why: string, failure: string, by: string | null): Promise<StanceRun> {
    const runId = newRunId();
    const run: StanceRun = {
      stance: plan.stance,
      backend: plan.backend.backend.name,
      model_label: modelLabel(plan.backend.backend),
      state: 'blocked',
      from_record: false,
      run_id: runId,
      cost_tokens: 0,
      failure,
      detail: why,
    };
    this.house.log.warn('grading blocked', { backend: run.backend, stance: run.stance, failure, artifact_id: row?.artifact_id });
    await this.house.store.writer.write(() => this.house.store.journal.append('review-run', by, runData(row, plan, run)));
    return run;
  }

  /** Grades one row with each planned stance, concurrently; the writer journals each run as it ends. */
  async gradeRow(row: ArtifactRow, plans: readonly StancePlan[], options: { fresh: boolean; by: string | null }): Promise<StanceRun[]> {
    const input = await gradeInput(this.house, row);
    return Promise.all(plans.map((plan) => this.stance(row, input, plan, options)));
  }

  private async stance(row: ArtifactRow, input: GradeInput, plan: StancePlan, options: { fresh: boolean; by: string | null }): Promise<StanceRun> {
    const { board } = this;
    const { clock, log } = this.house;
    const b = plan.backend.backend;
    const label = modelLabel(b);
    if (!options.fresh) {
      if (board.reads.recordedVerdict(row.content_hash, label, plan.stance, RUBRIC_VERSION) !== undefined) return this.fromRecord(row, plan, options.by);
    }
    const admitted = board.circuit(b.name)?.admit() ?? null;
    if (admitted !== null) return this.blocked(row, plan, `backend ${b.name}: ${admitted}`, 'circuit_open', options.by);
    const estimate = estimateTokens(input.text.length, plan.backend);
    if (!board.budget.reserve(estimate)) {
      board.circuit(b.name)?.abandon();
      return this.blocked(row, plan, `the day's token budget of ${board.budget.perDay} is spent`, 'budget_spent', options.by);
    }
    const runId = newRunId();
    board.runs.add({ run_id: runId, artifact_id: row.artifact_id, space: row.space, backend: b.name, model_label: label, stance: plan.stance, state: 'queued', since: clock.now() });
    let outcome: GradeOutcome;
    try {
      outcome = await board.stage.run({ backend: b, stance: plan.stance, input }, () => board.runs.running(runId, clock.now()));
    } catch (error) {
      outcome = { ok: false, failure: 'malformed', detail: `the grade pool failed: ${String(error).slice(0, 160)}`, cost_tokens: 0, ms: 0 };
    } finally {
      board.budget.release(estimate);
    }
    const circuit = board.circuit(b.name);
    if (outcome.ok) circuit?.succeeded();
    else {
      circuit?.failed();
      // The failure's kind, not its detail: a detail may quote what the backend answered.
      log.warn('grading backend failed', { backend: b.name, stance: plan.stance, failure: outcome.failure, artifact_id: row.artifact_id, run_id: runId, ms: outcome.ms });
    }
    try {
      return await this.recordSoon(() => this.record(row.artifact_id, plan, runId, outcome, options.by));
    } finally {
      board.runs.end(runId);
    }
  }

  /** Inside the writer's transaction: the run, and for a good answer on a row still gradable its assessment and verdict. */
  private record(id: string, plan: StancePlan, runId: string, outcome: GradeOutcome, by: string | null): StanceRun {
    const { store } = this.house;
    const row = store.artifacts.byId(id)!;
    const label = modelLabel(plan.backend.backend);
    const base = { stance: plan.stance, backend: plan.backend.backend.name, model_label: label, run_id: runId, from_record: false, cost_tokens: outcome.cost_tokens };
    if (!outcome.ok) {
      const run: StanceRun = { ...base, state: 'failed', failure: outcome.failure, detail: outcome.detail };
      store.journal.append('review-run', by, runData(row, plan, { ...run, ms: outcome.ms }));
      return run;
    }
    const a = outcome.answer;
    if (!GRADABLE_STATES.has(row.state)) {
      const run: StanceRun = { ...base, state: 'completed', detail: `the row moved to ${row.state} before the answer; no verdict recorded` };
      store.journal.append('review-run', by, runData(row, plan, { ...run, ms: outcome.ms }));
      return run;
    }
    // The assessment is the completed run's record too (its backend, tokens and time): one event fewer per call.
    const assessment = store.journal.append('assessment', by, {
      ...runData(row, plan, { ...base, state: 'completed', ms: outcome.ms }),
      content_hash: row.content_hash,
      score: a.score,
      rationale: a.rationale,
      evidence: a.evidence,
      counterevidence: a.counterevidence,
    });
    const verdict = store.journal.append(
      'verdict',
      by,
      rowEventData(row, 'L2_SCORED', {
        model_label: label,
        stance: plan.stance,
        rubric: RUBRIC_VERSION,
        content_hash: row.content_hash,
        decision: a.decision,
        assessment: assessment.event_id,
        run_id: runId,
        backend: plan.backend.backend.name,
      }),
    );
    return { ...base, state: 'completed', decision: a.decision, score: a.score, rationale: a.rationale, evidence: a.evidence, counterevidence: a.counterevidence, verdict_event_id: verdict.event_id };
  }

  /**
   * Unchanged bytes on an unchanged model, stance and rubric: the recorded decision answers.
   * The row that already holds it in this epoch gets it back as it is; any other row (the
   * same bytes elsewhere, or this row after a reopen) gets a verdict citing the record,
   * journaled as a run that cost nothing.
   */
  private async fromRecord(row: ArtifactRow, plan: StancePlan, by: string | null): Promise<StanceRun> {
    const { board } = this;
    const { store } = this.house;
    const label = modelLabel(plan.backend.backend);
    return store.writer.write(() => {
      const now = store.artifacts.byId(row.artifact_id)!;
      const epoch = board.reads.row(now.artifact_id)?.epoch ?? 0;
      const recorded = board.reads.recordedVerdict(now.content_hash, label, plan.stance, RUBRIC_VERSION)!;
      const assessment = board.reads.assessment(recorded.assessment_id ?? '');
      const base = {
        stance: plan.stance,
        backend: plan.backend.backend.name,
        model_label: label,
        state: 'completed' as const,
        from_record: true,
        cost_tokens: 0,
        decision: recorded.decision as 'approve' | 'reject',
        ...(assessment === undefined
          ? {}
          : {
              score: assessment.score,
              rationale: assessment.rationale,
              evidence: JSON.parse(assessment.evidence) as string[],
              counterevidence: JSON.parse(assessment.counterevidence) as string[],
            }),
      };
      if (recorded.artifact_id === now.artifact_id && recorded.epoch === epoch) {
        return { ...base, run_id: null, verdict_event_id: recorded.event_id };
      }
      const runId = newRunId();
      store.journal.append('review-run', by, runData(now, plan, { ...base, run_id: runId }));
      if (!GRADABLE_STATES.has(now.state)) return { ...base, run_id: runId, detail: `the row is ${now.state}; no verdict recorded` };
      const verdict = store.journal.append(
        'verdict',
        by,
        rowEventData(now, 'L2_SCORED', {
          model_label: label,
          stance: plan.stance,
          rubric: RUBRIC_VERSION,
          content_hash: now.content_hash,
          decision: recorded.decision,
          ...(recorded.assessment_id === null ? {} : { assessment: recorded.assessment_id }),
          run_id: runId,
          backend: plan.backend.backend.name,
          from_record: recorded.event_id,
        }),
      );
      return { ...base, run_id: runId, verdict_event_id: verdict.event_id };
    });
  }

  /**
   * Grades up to `limit` rows read a page at a time from `source` (rows after a rowid, in
   * rowid order), a few in flight, so the main thread reads and gathers each row only when
   * its turn comes. Stops taking rows once the budget or a circuit blocks a stance, and
   * says so (fail-closed), or when the gate shuts down.
   */
  async gradeMany(
    source: (afterRowid: number, limit: number) => ArtifactRow[],
    limit: number,
    plans: readonly StancePlan[],
    by: string | null,
    after: (row: ArtifactRow, runs: StanceRun[]) => Promise<void>,
  ): Promise<GradeSummary> {
    const summary = { graded: 0, failed: 0, blocked: 0, cost_tokens: 0, paused: null as string | null };
    const started = performance.now();
    const window = new PQueue({ concurrency: Math.max(2, this.house.config.review.concurrency * 2) });
    const one = async (row: ArtifactRow) => {
      if (summary.paused !== null || this.halted) return;
      const current = this.house.store.artifacts.byId(row.artifact_id);
      if (current === undefined || !GRADABLE_STATES.has(current.state) || this.board.runs.holds(row.artifact_id)) return;
      const runs = await this.gradeRow(current, plans, { fresh: false, by });
      for (const r of runs) summary.cost_tokens += r.cost_tokens;
      const blocked = runs.find((r) => r.state === 'blocked');
      if (blocked) {
        summary.blocked += 1;
        summary.paused ??= blocked.detail ?? 'blocked';
      } else if (runs.some((r) => r.state === 'failed')) summary.failed += 1;
      else summary.graded += 1;
      await after(current, runs);
    };
    let taken = 0;
    let last = 0;
    while (taken < limit && summary.paused === null && !this.halted) {
      const page = source(last, Math.min(GRADE_PAGE, limit - taken));
      if (page.length === 0) break;
      taken += page.length;
      last = page[page.length - 1]!.rowid;
      for (const row of page) void window.add(() => one(row));
      // Read the next page only when this one is nearly taken.
      await window.onSizeLessThan(window.concurrency);
    }
    await window.onIdle();
    this.house.log.info('grading run', { by, ...summary, halted: this.halted, ms: Math.round(performance.now() - started) });
    return summary;
  }
}

/** Rows read per page by gradeMany. */
const GRADE_PAGE = 200;

/**
 * Rows owed grading, after a rowid, oldest first: held L1 rows, and scored rows of model and
 * auto spaces where a configured stance has not answered in this epoch (one stance approved,
 * another failed: the row waits on the failed one, so the schedule asks it again). A stance
 * that failed RETRIES_BEFORE_EXHAUSTED times in a row is left to a person or a fresh gv.grade.
 */
export function rowsToGrade(house: { readonly store: Store; readonly review: ReviewPart }, afterRowid: number, limit: number): ArtifactRow[] {
  const owed: ArtifactRow[] = [];
  let after = afterRowid;
  while (owed.length < limit) {
    const rows = house.store.reviews.gradingCandidates(after, limit);
    for (const row of rows) if (owedGrading(house, row) && owed.length < limit) owed.push(row);
    if (rows.length < limit) break;
    after = rows[rows.length - 1]!.rowid;
  }
  return owed;
}

function owedGrading(house: { readonly review: ReviewPart }, row: ArtifactRow): boolean {
  const review = house.review.board.reads.row(row.artifact_id);
  if (review === undefined) return false;
  const current = house.review.board.reads.signatures(row.artifact_id).filter((s) => s.epoch === review.epoch);
  return house.review.board.stancesOf(row.artifact_id, review, current).some((s) => s.decision === null && s.failed_in_a_row < RETRIES_BEFORE_EXHAUSTED);
}
