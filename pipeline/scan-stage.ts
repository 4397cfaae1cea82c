import type { Piscina } from 'piscina';
import { quarantineFull } from '../src/gate-error.js';
import type { Finding, ScanResult } from '../workers/scan/finding.js';
import type { ScanField } from '../workers/scan/finding-location.js';
import type { PersonalDataSeverity } from '../workers/scan/personal-data-severity.js';
import { waitedMs, waitStart, type QueueReading } from './queue-reading.js';
import { newPool } from '../src/threads.js';
import { ScanLane } from './scan-lane.js';

export interface ScanStageOptions {
  /** Worker threads of each lane (`scan.threads`, 0 already read as the cores the gate may use). */
  threads: number;
  batchMax: number;
  queueMax: number;
  /** `scan.deadline_ms`: longest one claim's scan may run; past it the claim is held with a scan_timeout finding. */
  deadlineMs: number;
  /** `scan.personal_data_severity`, handed to the worker with every task (absent: high). */
  personalDataSeverity?: PersonalDataSeverity;
}

/** Claims of this many bytes or more are scanned in the large lane, one a task. */
export const LARGE_CLAIM_BYTES = 64 * 1024;
/** The bytes of claims one batch of the small lane carries at most: a few milliseconds of scanning. */
const SMALL_BATCH_BYTES = 256 * 1024;
/** A thread of the large lane idle this long stops (they are started when a large claim comes). */
const LARGE_IDLE_MS = 30_000;

/**
 * The scan stage: claims wait in a bounded queue and go to the Piscina scan pool in
 * batches, because one pool round trip costs about one 1 KB scan (docs/performance.md#floors). A full
 * queue refuses (-32006) rather than buffering without bound.
 *
 * Two lanes, each a Piscina pool of `threads` threads with as many batches in flight at most
 * (pipeline/scan-lane.ts): claims under LARGE_CLAIM_BYTES, many to a batch, on threads always
 * started, and larger ones, one to a task, on threads started when one comes. A writer's
 * 4 MiB claim then takes a thread of the large lane for its second or two, and every other
 * writer's claims go on through the small lane's threads, the system sharing the cores
 * between them, rather than waiting behind it, or for a thread to start beside it
 * (docs/scanner.md, "Bounded scan time").
 */
export class ScanStage {
  private readonly pools: Piscina[];
  private readonly small: ScanLane;
  private readonly large: ScanLane;
  private scannedPerMs = 1;

  constructor(private readonly options: ScanStageOptions) {
    const pool = (minThreads: number, idleTimeout: number) => {
      const made = newPool({
        entry: new URL('../workers/scan/pool-entry.js', import.meta.url),
        minThreads,
        maxThreads: options.threads,
        idleTimeout,
      });
      // A worker ended at a deadline is replaced by Piscina; one that dies with no task on it is emitted as 'error', which unheard would end the gate.
      made.on('error', () => {});
      return made;
    };
    const smallPool = pool(options.threads, Infinity);
    const largePool = pool(0, LARGE_IDLE_MS);
    this.pools = [smallPool, largePool];
    const lane = { threads: options.threads, deadlineMs: options.deadlineMs, onScanned: (claims: number, ms: number) => this.scanned(claims, ms) };
    const severity = options.personalDataSeverity === undefined ? {} : { personalDataSeverity: options.personalDataSeverity };
    this.small = new ScanLane(smallPool, { ...lane, ...severity, batchMax: options.batchMax, batchBytes: SMALL_BATCH_BYTES });
    this.large = new ScanLane(largePool, { ...lane, ...severity, batchMax: 1, batchBytes: 0 });
  }

  private scanned(claims: number, ms: number): void {
    this.scannedPerMs = 0.8 * this.scannedPerMs + 0.2 * (claims / Math.max(0.01, ms));
  }

  private get waiting(): number {
    return this.small.waiting.length + this.large.waiting.length;
  }

  /** gv.queues: claims waiting and being scanned in both lanes; the bound counts the waiting ones. */
  reading(): QueueReading {
    const oldest = Math.min(this.small.waiting[0]?.since ?? Infinity, this.large.waiting[0]?.since ?? Infinity);
    return {
      queued: this.waiting,
      running: this.small.scanning + this.large.scanning,
      threads: this.small.threads + this.large.threads,
      bound: this.options.queueMax,
      room: Math.max(0, this.options.queueMax - this.waiting),
      oldest_wait_ms: waitedMs(oldest === Infinity ? undefined : oldest),
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
    if (this.waiting >= this.options.queueMax) {
      throw quarantineFull(Math.max(50, Math.ceil(this.waiting / this.scannedPerMs)));
    }
    const lane = bytes.length >= LARGE_CLAIM_BYTES ? this.large : this.small;
    return new Promise<ScanResult>((resolve, reject) => {
      lane.add({ bytes, contentType, standing, fields, since: waitStart(), resolve, reject });
    });
  }

  /** Waits until every accepted claim has been scanned, then stops the pool. */
  async close(): Promise<void> {
    while (this.small.busy || this.large.busy) await Promise.all([this.small.drain(), this.large.drain()]);
    await Promise.all(this.pools.map((pool) => pool.destroy()));
  }
}
