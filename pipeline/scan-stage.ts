import { Piscina } from 'piscina';
import PQueue from 'p-queue';
import { quarantineFull } from '../src/gate-error.js';
import type { Finding, ScanResult } from '../workers/scan/finding.js';
import type { ScanTask } from '../workers/scan/pool-entry.js';
import type { ScanField } from '../workers/scan/finding-location.js';
import type { PersonalDataSeverity } from '../workers/scan/personal-data-severity.js';
import { packTexts } from '../workers/packed-texts.js';
import { waitedMs, waitStart, type QueueReading } from './queue-reading.js';
import { POOL_EXEC_ARGV } from './pool-exec-argv.js';

interface Waiting {
  bytes: Uint8Array;
  contentType: string;
  standing: Finding[] | null;
  fields: ScanField[] | null;
  /** When it joined the queue (waitStart). */
  since: number;
  resolve: (r: ScanResult) => void;
  reject: (e: unknown) => void;
}

export interface ScanStageOptions {
  threads: number;
  batchMax: number;
  queueMax: number;
  /** `scan.personal_data_severity`, handed to the worker with every task (absent: high). */
  personalDataSeverity?: PersonalDataSeverity;
}

/** The bytes of claims one batch carries at most (a single larger claim goes alone). */
const BATCH_BYTES = 1024 * 1024;

/**
 * The scan stage: claims wait in a bounded queue and go to the Piscina scan pool in
 * batches, because one pool round trip costs about one 1 KB scan (FLOORS.md). At most one
 * batch per thread is in flight, so batches grow exactly when the pool is busy. A full
 * queue refuses (-32006) rather than buffering without bound.
 */
export class ScanStage {
  private readonly pool: Piscina;
  private readonly tasks: PQueue;
  private waiting: Waiting[] = [];
  /** Claims in the batches the pool holds now. */
  private scanning = 0;
  private scannedPerMs = 1;

  constructor(private readonly options: ScanStageOptions) {
    this.pool = new Piscina({
      filename: new URL('../workers/scan/pool-entry.js', import.meta.url).href,
      execArgv: [...POOL_EXEC_ARGV],
      minThreads: options.threads,
      maxThreads: options.threads,
      idleTimeout: Infinity,
    });
    this.tasks = new PQueue({ concurrency: options.threads });
  }

  /** Claims waiting or being scanned. */
  get depth(): number {
    return this.waiting.length + this.tasks.pending * this.options.batchMax;
  }

  /** gv.queues: claims waiting and being scanned; the bound counts the waiting ones. */
  reading(): QueueReading {
    return {
      queued: this.waiting.length,
      running: this.scanning,
      threads: this.options.threads,
      bound: this.options.queueMax,
      room: Math.max(0, this.options.queueMax - this.waiting.length),
      oldest_wait_ms: waitedMs(this.waiting[0]?.since),
    };
  }

  /**
   * `contentType` is the row's (its kind for gated rows): the worker weighs an executable
   * command by what the row is for, and never sees the row itself. `standing` are the
   * findings of a row's last scan when it is scanned again: its masked body keeps them masked.
   * `fields` are the texts the row is served with beside its body (its source, work area,
   * producer), scanned in the same task each as a text of its own; their findings join the
   * result, each with its location.
   */
  scan(bytes: Uint8Array, contentType: string, standing: Finding[] | null = null, fields: ScanField[] | null = null): Promise<ScanResult> {
    if (this.waiting.length >= this.options.queueMax) {
      throw quarantineFull(Math.max(50, Math.ceil(this.waiting.length / this.scannedPerMs)));
    }
    return new Promise<ScanResult>((resolve, reject) => {
      this.waiting.push({ bytes, contentType, standing, fields, since: waitStart(), resolve, reject });
      this.schedule();
    });
  }

  private dispatchQueued = false;

  /** Claims arriving in the same turn of the event loop travel to the pool as one task. */
  private schedule(): void {
    if (this.dispatchQueued) return;
    this.dispatchQueued = true;
    setImmediate(() => {
      this.dispatchQueued = false;
      this.dispatch();
    });
  }

  private dispatch(): void {
    if (this.waiting.length === 0 || this.tasks.size + this.tasks.pending >= this.options.threads) return;
    // Re-check once the task has left the queue's count, so a backlog keeps draining.
    void this.tasks.add(() => this.runBatch()).then(() => this.dispatch());
  }

  /**
   * The next batch: up to batchMax claims and BATCH_BYTES of them, one claim at least. Small
   * claims still travel many to a round trip; a large one goes alone, so a worker holds one
   * large text (and the copies its detectors make of it) at a time and hands its result back
   * as soon as it is scanned, rather than holding a batch of them until the last is done.
   */
  private takeBatch(): Waiting[] {
    let n = 0;
    let bytes = 0;
    while (n < this.waiting.length && n < this.options.batchMax) {
      const size = this.waiting[n]!.bytes.length;
      if (n > 0 && bytes + size > BATCH_BYTES) break;
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
    const started = performance.now();
    this.scanning += batch.length;
    try {
      const task: ScanTask = { batch: packed, contentTypes: batch.map((w) => w.contentType) };
      if (this.options.personalDataSeverity !== undefined) task.personalDataSeverity = this.options.personalDataSeverity;
      if (batch.some((w) => w.standing !== null)) task.standing = batch.map((w) => w.standing);
      if (batch.some((w) => w.fields !== null)) task.fields = batch.map((w) => w.fields);
      const results = (await this.pool.run(task, { transferList: [packed.bytes] })) as ScanResult[];
      batch.forEach((w, i) => w.resolve(results[i]!));
      const elapsed = Math.max(0.01, performance.now() - started);
      this.scannedPerMs = 0.8 * this.scannedPerMs + 0.2 * (batch.length / elapsed);
    } catch (error) {
      for (const w of batch) w.reject(error);
    } finally {
      this.scanning -= batch.length;
    }
  }

  /** Waits until every accepted claim has been scanned, then stops the pool. */
  async close(): Promise<void> {
    while (this.waiting.length > 0 || this.tasks.pending > 0 || this.tasks.size > 0) {
      this.dispatch();
      await this.tasks.onIdle();
    }
    await this.pool.destroy();
  }
}
