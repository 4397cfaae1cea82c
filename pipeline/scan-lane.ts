import type { Piscina } from 'piscina';
import PQueue from 'p-queue';
import type { Finding, ScanResult } from '../workers/scan/finding.js';
import type { ScanField } from '../workers/scan/finding-location.js';
import type { ScanTask } from '../workers/scan/pool-entry.js';
import type { PersonalDataSeverity } from '../workers/scan/personal-data-severity.js';
import { SCANNER_LABEL } from '../workers/scan/scan-text.js';
import { timedOutScan } from '../workers/scan/scan-timeout.js';
import { packTexts } from '../workers/packed-texts.js';

/** A claim waiting for its scan. */
export interface WaitingClaim {
  bytes: Uint8Array;
  contentType: string;
  standing: Finding[] | null;
  /** The fields the row is served with beside its body, scanned in the same task (null: none). */
  fields: ScanField[] | null;
  /** When it joined the queue (waitStart). */
  since: number;
  resolve: (r: ScanResult) => void;
  reject: (e: unknown) => void;
}

export interface ScanLaneOptions {
  /** Batches in flight at once: one a thread the lane may use. */
  threads: number;
  /** Most claims, and most bytes of claims, one task carries (a single larger claim goes alone). */
  batchMax: number;
  batchBytes: number;
  /** Longest one claim's scan may run, ms (`scan.deadline_ms`). */
  deadlineMs: number;
  personalDataSeverity?: PersonalDataSeverity;
  /** Told of every batch scanned, with its claims and the ms it took. */
  onScanned: (claims: number, ms: number) => void;
}

/** How long a fresh worker may take to load the scanner before its first claim counts as overrun. */
const WORKER_START_MAX_MS = 30_000;

/**
 * One lane of the scan stage (pipeline/scan-stage.ts): its own queue, batches cut to its
 * sizes, at most one batch a thread in flight, so batches grow exactly when the lane is busy.
 *
 * Each claim's scan has a deadline. The worker marks which claim of its batch it is scanning
 * and since when (`ScanTask.progress`); a claim still scanning at its deadline ends the
 * worker (aborting a running Piscina task terminates its thread: the only way to stop a
 * synchronous loop), and is answered with a `scan_timeout` result (workers/scan/scan-timeout.ts),
 * which holds it for a person. The other claims of the batch go back to the front of the
 * queue: those scanned before it lost their results with the worker.
 */
export class ScanLane {
  private readonly tasks: PQueue;
  waiting: WaitingClaim[] = [];
  /** Claims in the batches the pool holds now. */
  scanning = 0;
  private dispatchQueued = false;

  constructor(
    private readonly pool: Piscina,
    private readonly options: ScanLaneOptions,
  ) {
    this.tasks = new PQueue({ concurrency: options.threads });
  }

  get threads(): number {
    return this.options.threads;
  }

  /** Batches queued or in flight. */
  get busy(): boolean {
    return this.waiting.length > 0 || this.tasks.pending > 0 || this.tasks.size > 0;
  }

  add(claim: WaitingClaim): void {
    this.waiting.push(claim);
    this.schedule();
  }

  /** Claims arriving in the same turn of the event loop travel to the pool as one task. */
  private schedule(): void {
    if (this.dispatchQueued) return;
    this.dispatchQueued = true;
    setImmediate(() => {
      this.dispatchQueued = false;
      this.dispatch();
    });
  }

  dispatch(): void {
    if (this.waiting.length === 0 || this.tasks.size + this.tasks.pending >= this.options.threads) return;
    // Re-check once the task has left the queue's count, so a backlog keeps draining.
    void this.tasks.add(() => this.runBatch()).then(() => this.dispatch());
  }

  /** Waits until the lane's queue and its batches are done. */
  async drain(): Promise<void> {
    while (this.busy) {
      this.dispatch();
      await this.tasks.onIdle();
    }
  }

  /** The next batch: up to batchMax claims and batchBytes of them, one claim at least. */
  private takeBatch(): WaitingClaim[] {
    let n = 0;
    let bytes = 0;
    while (n < this.waiting.length && n < this.options.batchMax) {
      const size = this.waiting[n]!.bytes.length;
      if (n > 0 && bytes + size > this.options.batchBytes) break;
      bytes += size;
      n++;
    }
    return this.waiting.splice(0, n);
  }

  private async runBatch(): Promise<void> {
    const batch = this.takeBatch();
    if (batch.length === 0) return;
    // Every claim copied into one buffer of the task's own, moved to the worker rather than cloned.
    const packed = packTexts(batch.map((w) => w.bytes));
    const progress = new BigInt64Array(new SharedArrayBuffer(16));
    Atomics.store(progress, 0, -1n);
    const deadline = new AbortController();
    const { deadlineMs } = this.options;
    const handed = Date.now();
    let overran = -1;
    let timer: NodeJS.Timeout | undefined;
    // Each claim's deadline runs from the worker's mark that it began that claim; a worker
    // that never marks one (stuck loading the scanner) is ended too.
    const check = () => {
      const index = Number(Atomics.load(progress, 0));
      const end = index < 0 ? handed + WORKER_START_MAX_MS + deadlineMs : Number(Atomics.load(progress, 1)) + deadlineMs;
      const left = end - Date.now();
      if (left > 0) {
        timer = setTimeout(check, index < 0 ? Math.min(left, 100) : left);
        return;
      }
      overran = index;
      deadline.abort();
    };
    timer = setTimeout(check, deadlineMs);
    const started = performance.now();
    this.scanning += batch.length;
    try {
      const task: ScanTask = { batch: packed, contentTypes: batch.map((w) => w.contentType), progress };
      if (this.options.personalDataSeverity !== undefined) task.personalDataSeverity = this.options.personalDataSeverity;
      if (batch.some((w) => w.standing !== null)) task.standing = batch.map((w) => w.standing);
      if (batch.some((w) => w.fields !== null)) task.fields = batch.map((w) => w.fields);
      const results = (await this.pool.run(task, { transferList: [packed.bytes], signal: deadline.signal })) as ScanResult[];
      batch.forEach((w, i) => w.resolve(results[i]!));
      this.options.onScanned(batch.length, performance.now() - started);
    } catch (error) {
      if (!deadline.signal.aborted) {
        for (const w of batch) w.reject(error);
      } else if (overran < 0) {
        for (const w of batch) w.reject(new Error(`the scan worker did not start scanning within ${WORKER_START_MAX_MS + deadlineMs} ms`));
      } else {
        batch[overran]!.resolve(timedOutScan(batch[overran]!.bytes, deadlineMs, SCANNER_LABEL));
        this.waiting.unshift(...batch.filter((_, i) => i !== overran));
      }
    } finally {
      clearTimeout(timer);
      this.scanning -= batch.length;
    }
  }
}
