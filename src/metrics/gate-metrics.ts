import { statSync } from 'node:fs';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { House } from '../verbs/house.js';
import type { QueueReading } from '../../pipeline/queue-reading.js';
import type { JournalCounts } from './journal-counts.js';
import { outcomeOf, type ObservedRequest, type RequestObserver } from './request-observer.js';

/** What the root hands the metrics: the parts they read at a scrape, and the counts it keeps. */
export interface GateMeasured {
  house: Pick<House, 'store' | 'pipeline' | 'review' | 'config' | 'deployment' | 'clock'>;
  journalCounts: JournalCounts;
  walProgress(): { lastComplete: number | null; framesBehind: number };
}

/** Request latencies from a loopback ping (~0.1 ms) to a long recall or an upload (seconds). */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Event types counted as claims entering the gate and being admitted. */
const INGEST_TYPES = new Set(['ingest']);
const PROMOTE_TYPES = new Set(['promote']);

const fileBytes = (path: string) => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

/**
 * The gate's metrics in the Prometheus text format (prom-client), on a registry of its own.
 * Counts of requests and their latencies are kept as the doors report them; every other
 * figure is read from the parts when Prometheus scrapes (a gauge's `collect`), so serving
 * nothing costs nothing. Names and labels are listed in docs/operations.md ("Monitoring").
 */
export class GateMetrics implements RequestObserver {
  readonly registry = new Registry();
  private readonly requests: Counter<'door' | 'verb' | 'outcome'>;
  private readonly latency: Histogram<'door' | 'verb'>;
  private readonly recall: Histogram<'mode'>;

  constructor(measured: GateMeasured) {
    const { house, journalCounts: counts } = measured;
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'gate_requests_total',
      help: 'Requests answered, by door (rpc, mcp, socket, oauth, http), verb or tool (else the route, e.g. /livez; "" for a path no route serves) and outcome (ok, refused, busy, failed).',
      labelNames: ['door', 'verb', 'outcome'],
      registers,
    });
    this.latency = new Histogram({
      name: 'gate_request_duration_seconds',
      help: 'Time from a request\'s arrival to its answer, by door and verb, tool or route.',
      labelNames: ['door', 'verb'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.recall = new Histogram({
      name: 'gate_recall_duration_seconds',
      help: 'Time to answer gv.recall, by mode (hybrid, lexical, vector).',
      labelNames: ['mode'],
      buckets: LATENCY_BUCKETS,
      registers,
    });

    const totalOf = (types: ReadonlySet<string>) => [...types].reduce((n, t) => n + (counts.byType.get(t) ?? 0), 0);
    new Counter({
      name: 'gate_claims_ingested_total',
      help: 'Claims ingested (ingest events committed) since this process started.',
      registers,
      collect() {
        this.reset();
        this.inc(totalOf(INGEST_TYPES));
      },
    });
    new Counter({
      name: 'gate_claims_promoted_total',
      help: 'Claims promoted (promote events committed) since this process started.',
      registers,
      collect() {
        this.reset();
        this.inc(totalOf(PROMOTE_TYPES));
      },
    });
    new Counter({
      name: 'gate_claims_rejected_total',
      help: 'Claims that entered REJECTED since this process started, by the event that took them there (reject, expire, cancel, manual-sign, disposition).',
      labelNames: ['event'],
      registers,
      collect() {
        this.reset();
        for (const [event, n] of counts.rejectedBy) this.inc({ event }, n);
      },
    });
    new Counter({
      name: 'gate_journal_events_total',
      help: 'Journal events committed since this process started, by type.',
      labelNames: ['type'],
      registers,
      collect() {
        this.reset();
        for (const [type, n] of counts.byType) this.inc({ type }, n);
      },
    });
    new Counter({
      name: 'gate_grading_calls_total',
      help: 'Grading calls journaled since this process started, by backend and outcome (completed, failed, blocked, from_record: answered by a recorded verdict, no call made).',
      labelNames: ['backend', 'outcome'],
      registers,
      collect() {
        this.reset();
        for (const [key, n] of counts.gradingCalls) {
          const [backend, outcome] = key.split('\t') as [string, string];
          this.inc({ backend, outcome }, n);
        }
      },
    });
    new Counter({
      name: 'gate_grading_tokens_total',
      help: 'Model tokens the journaled grading calls cost since this process started, by backend.',
      labelNames: ['backend'],
      registers,
      collect() {
        this.reset();
        for (const [backend, n] of counts.gradingTokens) this.inc({ backend }, n);
      },
    });

    new Gauge({
      name: 'gate_quarantine_held',
      help: 'Held rows now (L0_RAW, L1_SCANNED, L1B_FLAGGED): what quarantine.max_depth bounds.',
      registers,
      collect() {
        this.set(house.store.artifacts.countHeld());
      },
    });
    new Gauge({
      name: 'gate_quarantine_max_depth',
      help: 'quarantine.max_depth: past it an ingest is refused -32006.',
      registers,
      collect() {
        this.set(house.config.quarantine.max_depth);
      },
    });

    const stages = (): Array<[string, QueueReading]> => [
      ['scan', house.pipeline.scan.reading()],
      ['image', house.pipeline.images.reading()],
      ['bundle', house.pipeline.bundles.reading()],
      ['grade', house.review.board.stage.reading()],
      ['embed', house.pipeline.embed.reading()],
    ];
    const stageGauge = (name: string, help: string, value: (r: QueueReading) => number | null) =>
      new Gauge({
        name,
        help,
        labelNames: ['stage'],
        registers,
        collect() {
          this.reset();
          for (const [stage, reading] of stages()) {
            const v = value(reading);
            if (v !== null) this.set({ stage }, v);
          }
        },
      });
    stageGauge('gate_stage_queued', 'Items waiting for a worker, by pipeline stage (scan, image, bundle, grade, embed), in the stage\'s unit (see gv.queues).', (r) => r.queued);
    stageGauge('gate_stage_running', 'Items a worker holds now, by pipeline stage.', (r) => r.running);
    stageGauge('gate_stage_bound', 'Items a stage takes before it refuses the next -32006 (absent where its callers bound it).', (r) => r.bound);
    stageGauge('gate_stage_oldest_wait_seconds', 'How long the item waiting longest in a stage has waited (0 when none waits).', (r) => (r.oldest_wait_ms ?? 0) / 1000);

    const board = house.review.board;
    new Gauge({
      name: 'gate_grading_budget_tokens',
      help: 'The grading token budget: per_day (review.budget_per_day), spent today (UTC) and remaining.',
      labelNames: ['part'],
      registers,
      collect() {
        this.set({ part: 'per_day' }, board.budget.perDay);
        this.set({ part: 'spent' }, board.budget.spentToday());
        this.set({ part: 'remaining' }, board.budget.remaining());
      },
    });
    new Gauge({
      name: 'gate_grading_circuit_open',
      help: 'Whether a model backend\'s circuit is open (1: its calls are blocked) or closed (0), by backend.',
      labelNames: ['backend'],
      registers,
      collect() {
        this.reset();
        for (const name of board.settings.backends.keys()) {
          const circuit = board.circuit(name);
          if (circuit !== undefined) this.set({ backend: name }, circuit.blocked === null ? 0 : 1);
        }
      },
    });
    new Gauge({
      name: 'gate_review_paused',
      help: '1 while the operator is away (gv.away): nothing is promoted.',
      registers,
      collect() {
        this.set(board.away.current() === undefined ? 0 : 1);
      },
    });

    const paths = house.deployment.paths;
    new Gauge({
      name: 'gate_journal_events',
      help: 'Events in the journal (its last seq).',
      registers,
      collect() {
        this.set(house.store.journal.chainHead.seq);
      },
    });
    new Gauge({
      name: 'gate_journal_bytes',
      help: 'Size of the journal\'s files: gate.db (the journal and its views) and its WAL.',
      labelNames: ['file'],
      registers,
      collect() {
        this.set({ file: 'db' }, fileBytes(paths.db));
        this.set({ file: 'wal' }, fileBytes(`${paths.db}-wal`));
      },
    });
    new Gauge({
      name: 'gate_wal_checkpoint_age_seconds',
      help: 'Seconds since a WAL checkpoint last copied every frame into gate.db (-1 before one did in this process).',
      registers,
      collect() {
        const { lastComplete } = measured.walProgress();
        this.set(lastComplete === null ? -1 : Math.max(0, (Date.now() - lastComplete) / 1000));
      },
    });
    new Gauge({
      name: 'gate_wal_checkpoint_frames_behind',
      help: 'WAL frames the last checkpoint pass left uncopied.',
      registers,
      collect() {
        this.set(measured.walProgress().framesBehind);
      },
    });
  }

  request(r: ObservedRequest): void {
    const verb = r.verb ?? '';
    this.requests.inc({ door: r.door, verb, outcome: outcomeOf(r.status, r.code) });
    this.latency.observe({ door: r.door, verb }, r.seconds);
    if (r.recallMode !== undefined) this.recall.observe({ mode: r.recallMode }, r.seconds);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
