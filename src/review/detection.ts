import { DetectStage } from '../../pipeline/detect-stage.js';
import type { QueueReading } from '../../pipeline/queue-reading.js';
import type { DetectOutcome, DetectTop } from '../../workers/detect/detect-task.js';
import { isMaskedKind, type Finding, type ScanResult } from '../../workers/scan/finding.js';
import { maskExcerpt, maskSpans } from '../../workers/scan/mask.js';
import type { ArtifactRow } from '../projections/artifact-reads.js';
import { rowEventData } from '../projections/row-event.js';
import { CURRENT_SCANNER, mergeScan, scanEventFields, standingScan } from '../scanning/rescan.js';
import type { CommitFollower, CommittedRange } from '../journal/followers.js';
import type { Store } from '../store/store.js';
import type { GateConfig } from '../config/keys.js';
import type { Clock } from '../clock.js';
import type { Log } from '../log.js';
import type { CrewsPart } from '../crews/crews-part.js';
import type { WaitsFor } from './blockers.js';
import { Circuit } from '../circuit.js';
import type { DetectionPart, DetectorFailing } from './detection-gate.js';
import { personsCopy } from './persons-copy.js';
import type { ReviewMode } from './quorum.js';
import type { ReviewPart } from './review-part.js';
import { settleRow } from './settlement.js';

/** A failed row is sent again after this long, doubling up to `detector.circuit_open_s`. */
const RETRY_FIRST_MS = 1_000;
/** Rows read per query while finding, at start, every row owed a verdict. */
const START_PAGE = 1_000;
/** The finding an attack verdict adds: an injection, high, so the row is held for a person (docs/scanner.md). */
export const DETECTOR_FINDING = 'injection.model_detector';
const OWED_STATES: ReadonlySet<string> = new Set(['L1_SCANNED', 'L1B_FLAGGED', 'L2_SCORED']);

/** What the detector needs of the house once the gate is open: the store, and review to settle a row its verdict frees. */
type House = { readonly store: Store; readonly review: ReviewPart; readonly crews: CrewsPart; readonly config: GateConfig };

/** The detector's name in its verdicts: a new model (or url) asks again about every row still waiting. */
export function detectorLabel(c: GateConfig['detector']): string {
  return `tei:${c.model === '' ? c.url : c.model}`;
}

/**
 * The model-backed injection detector (docs/scanner.md, "A model-backed detector"): every row
 * of an auto or model space that waits in review is classified by the operator's
 * text-embeddings-inference `/predict` endpoint before it may leave quarantine. The rows owed
 * a verdict are found at start and after every commit (it follows the journal as the embed
 * stage does), handed to the detect stage as it has room, and each verdict is journaled (an
 * internal `detection` event). An attack adds a high finding in a `scan` event and holds the
 * row in L1B_FLAGGED for a person's disposition; a clean verdict in an auto space settles the
 * row if nothing else holds it. It fails closed: a row without a verdict waits, a failure
 * sends it again after a backoff (1 s doubling up to the circuit's open time), the circuit
 * (the graders' own) stops requests after `circuit_failures` in a row, and `failing` says
 * why for gv.ping's `degraded` until an answer comes.
 */
export class Detection implements DetectionPart, CommitFollower {
  readonly detector: string;
  private readonly stage: DetectStage;
  private readonly circuit: Circuit;
  /** Rows owed a verdict, waiting to be handed to the stage: rowid to artifact id, in the order found. */
  private readonly waiting = new Map<number, string>();
  /** Rows handed to the stage whose verdict is not journaled yet. */
  private readonly inStage = new Set<string>();
  /** Rows whose request failed, waiting for the retry. */
  private readonly retrying = new Map<number, string>();
  private readonly running = new Set<Promise<void>>();
  private failingNow: DetectorFailing | null = null;
  private retryMs = RETRY_FIRST_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private house: House | null = null;
  private closed = false;

  constructor(private readonly deps: { readonly store: Store; readonly config: GateConfig; readonly clock: Clock; readonly log: Log }) {
    const c = deps.config.detector;
    this.detector = detectorLabel(c);
    this.circuit = new Circuit(c.circuit_failures, c.circuit_open_s * 1000, deps.clock);
    this.stage = new DetectStage({
      target: {
        url: c.url,
        apiKeyEnv: c.api_key_env,
        timeoutMs: c.timeout_ms,
        connectTimeoutMs: c.connect_timeout_ms,
        maxRetries: c.max_retries,
        chunkChars: c.chunk_chars,
        batchMax: c.batch_max,
        attackLabels: c.attack_labels.map((l) => l.toUpperCase()),
      },
      threads: c.threads,
      concurrency: c.concurrency,
      queueMax: c.queue_max,
    });
  }

  get failing(): DetectorFailing | null {
    return this.failingNow;
  }

  get owed(): number {
    return this.waiting.size + this.inStage.size + this.retrying.size;
  }

  reading(): QueueReading {
    const stage = this.stage.reading();
    // Rows waiting as ids (and for a retry) wait as much as the texts in the stage do.
    return { ...stage, queued: stage.queued + this.waiting.size + this.retrying.size };
  }

  waitOf(row: Pick<ArtifactRow, 'artifact_id' | 'content_hash'>, mode: ReviewMode): WaitsFor | null {
    if (mode === 'human') return null;
    const verdict = this.deps.store.detections.verdict(row.artifact_id, this.detector);
    if (verdict !== undefined && verdict.content_hash === row.content_hash) return null;
    const failing = this.failingNow;
    if (failing !== null) {
      return {
        blocker: 'reviewer_unavailable',
        code: 'detector_failed',
        words: `the injection detector (${this.detector}) did not answer (${failing.failure}: ${failing.detail}); the row waits and is sent again`,
        failure: failing.failure,
      };
    }
    return { blocker: 'semantic_review', code: 'detecting', words: `waiting for the injection detector (${this.detector}) to classify it` };
  }

  /** Finds every row owed a verdict, then follows the journal's commits and sends them. */
  start(house: House): void {
    this.house = house;
    const { store, log } = this.deps;
    let after = 0;
    for (;;) {
      const rows = store.detections.owedAfter(this.detector, after, START_PAGE);
      for (const r of rows) this.waiting.set(r.rowid, r.artifact_id);
      if (rows.length < START_PAGE) break;
      after = rows[rows.length - 1]!.rowid;
    }
    if (this.waiting.size > 0) log.info(`injection detector (${this.detector}): ${this.waiting.size} rows owed a verdict`);
    store.writer.follow(this);
    this.pump();
  }

  committed(range: CommittedRange): void {
    if (this.closed || this.house === null) return;
    for (const r of this.deps.store.detections.owedTouched(this.detector, range.after, range.last)) {
      if (!this.inStage.has(r.artifact_id) && !this.retrying.has(r.rowid)) this.waiting.set(r.rowid, r.artifact_id);
    }
    this.pump();
  }

  /** Hands waiting rows to the stage while it has room and the circuit lets a request go. */
  private pump(): void {
    while (!this.closed && this.waiting.size > 0 && this.stage.room > 0) {
      if (this.circuit.admit() !== null) {
        this.scheduleRetry();
        return;
      }
      const [rowid, id] = this.waiting.entries().next().value as [number, string];
      this.waiting.delete(rowid);
      this.inStage.add(id);
      const done: Promise<void> = this.detectOne(rowid, id)
        .catch((error: unknown) => this.deps.log.error('the injection detector could not record a verdict', error))
        .finally(() => {
          this.inStage.delete(id);
          this.running.delete(done);
          this.pump();
        });
      this.running.add(done);
    }
  }

  /** Whether the row, as it stands, still waits for this detector's verdict. */
  private stillOwed(row: ArtifactRow): boolean {
    if (!OWED_STATES.has(row.state) || row.erased_seq !== null) return false;
    if (this.house!.review.board.modeOf(row.space) === 'human') return false;
    return this.deps.store.detections.verdict(row.artifact_id, this.detector)?.content_hash !== row.content_hash;
  }

  private async detectOne(rowid: number, id: string): Promise<void> {
    const { store } = this.deps;
    const row = store.artifacts.byId(id);
    if (row === undefined || !this.stillOwed(row)) {
      this.circuit.abandon();
      return;
    }
    // What a person's copy shows: the instructions it carries (the scanner's masked body hides
    // those), never the secrets and personal data a person's copy masks too (docs/scanner.md).
    const text = personsCopy({ store }, row) ?? store.artifacts.servedBody(row, 'content') ?? '';
    let outcome: DetectOutcome;
    try {
      outcome = await this.stage.detect(text);
    } catch (error) {
      outcome = { ok: false, failure: 'malformed', detail: `the detect pool failed: ${String(error).slice(0, 160)}`, ms: 0 };
    }
    if (!outcome.ok) {
      this.failed(rowid, id, outcome);
      return;
    }
    this.circuit.succeeded();
    this.retryMs = RETRY_FIRST_MS;
    if (this.failingNow !== null) {
      this.deps.log.info('the injection detector answers again', { detector: this.detector, retrying: this.retrying.size });
      this.failingNow = null;
      this.requeueRetrying();
    }
    const { top, parts, ms } = outcome;
    await store.writer.write(() => this.record(id, top, parts, ms));
  }

  private failed(rowid: number, id: string, outcome: Extract<DetectOutcome, { ok: false }>): void {
    this.circuit.failed();
    this.failingNow = { failure: outcome.failure, detail: outcome.detail, since: this.failingNow?.since ?? this.deps.clock.now() };
    this.retrying.set(rowid, id);
    this.deps.log.warn('the injection detector failed; the row waits for it', {
      detector: this.detector,
      failure: outcome.failure,
      ...(outcome.status === undefined ? {} : { status: outcome.status }),
      artifact_id: id,
      ms: outcome.ms,
    });
    this.scheduleRetry();
  }

  /** The retry: failed rows rejoin the front of the queue after the backoff, and the pump tries again (the circuit decides). */
  private scheduleRetry(): void {
    if (this.retryTimer !== null || this.closed) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, this.deps.config.detector.circuit_open_s * 1000);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.requeueRetrying();
      this.pump();
    }, wait);
  }

  private requeueRetrying(): void {
    if (this.retrying.size === 0) return;
    const waiting = [...this.retrying, ...this.waiting];
    this.retrying.clear();
    this.waiting.clear();
    for (const [rowid, id] of waiting) this.waiting.set(rowid, id);
  }

  /** Inside the writer's transaction: the verdict, and what it does to the row as it stands now. */
  private record(id: string, top: DetectTop | null, parts: number, ms: number): void {
    const house = this.house!;
    const { store } = house;
    const now = store.artifacts.byId(id)!;
    if (!this.stillOwed(now)) return;
    const threshold = house.config.detector.threshold;
    const attack = top !== null && top.score >= threshold;
    const data = {
      artifact_id: now.artifact_id,
      space: now.space,
      content_hash: now.content_hash,
      detector: this.detector,
      verdict: attack ? ('attack' as const) : ('clean' as const),
      threshold,
      parts,
      ms,
      ...(now.workarea === null ? {} : { workarea: now.workarea }),
      ...(top === null ? {} : { label: top.label, score: Math.round(top.score * 10_000) / 10_000, start: top.start, end: top.end }),
    };
    store.journal.append('detection', null, data);
    if (attack) this.hold(now, top, threshold);
    else if (house.review.board.modeOf(now.space) === 'auto') settleRow(house, id);
  }

  /** An attack verdict: a high finding over the part it scored, joined to the standing ones in a scan event that holds the row. */
  private hold(now: ArtifactRow, top: DetectTop, threshold: number): void {
    const { store } = this.house!;
    const text = store.artifacts.text(now.content_hash) ?? '';
    const finding: Finding = {
      kind: DETECTOR_FINDING,
      severity: 'high',
      detail: `the injection classifier (${this.detector}) scored this part ${top.label} ${top.score.toFixed(3)}, at or above detector.threshold ${threshold}`,
      start: top.start,
      end: top.end,
      excerpt: maskExcerpt(text.slice(top.start, top.end)),
    };
    const standing = standingScan({ store }, now.artifact_id);
    const all = [...(standing?.findings ?? []), finding];
    const scanner = standing?.scanner ?? CURRENT_SCANNER;
    const result: ScanResult = { findings: [finding], flagged: true, masked: maskSpans(text, all.filter((f) => isMaskedKind(f.kind))), scanner };
    const merged = mergeScan({ store }, now, result, false);
    if (merged.added.length === 0) return;
    // The text scanner that read the row is still the one named: the detector adds to its findings, it does not rescan.
    store.journal.append('scan', null, rowEventData(now, 'L1B_FLAGGED', { ...scanEventFields({ store }, now, merged, scanner, true), detector: this.detector }));
  }

  /** Stops taking rows; the rows in the stage are answered and journaled; then the pool stops. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    await Promise.all([...this.running]);
    await this.stage.close();
  }
}

