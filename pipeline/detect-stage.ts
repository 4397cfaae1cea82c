import type { Piscina } from 'piscina';
import type PQueue from 'p-queue';
import type { DetectOutcome, DetectTarget, DetectTask } from '../workers/detect/detect-task.js';
import { waitedMs, waitStart, type QueueReading } from './queue-reading.js';
import { networkPool } from './network-pool.js';

export interface DetectStageOptions {
  target: DetectTarget;
  threads: number;
  /** Rows classified at once: a row's requests go one after another, rows side by side. */
  concurrency: number;
  /** Most texts held waiting for their turn; the caller keeps the rest as row ids. */
  queueMax: number;
}

/**
 * The detect stage: a row's text goes to the Piscina detect pool, whose worker asks the
 * configured injection classifier (workers/detect/). Up to `concurrency` rows are in the
 * pool at once; at most `queueMax` texts wait for their turn, and the caller, which holds
 * the rows owed a verdict as ids (src/review/detection.ts), hands one on only while there
 * is `room`, so the texts in memory stay bounded however many rows wait.
 */
export class DetectStage {
  private readonly pool: Piscina;
  private readonly tasks: PQueue;
  /** When each text waiting for the pool joined, in arrival order (waitStart). */
  private readonly waiting = new Set<{ since: number }>();
  private running = 0;

  constructor(private readonly options: DetectStageOptions) {
    // Started on the first row: a gate whose auto and model spaces are empty spends nothing on it.
    ({ pool: this.pool, tasks: this.tasks } = networkPool(new URL('../workers/detect/pool-entry.js', import.meta.url), options.threads, options.concurrency));
  }

  /** Texts the stage takes now before it is full. */
  get room(): number {
    return Math.max(0, this.options.queueMax - this.waiting.size);
  }

  /** gv.queues: rows whose text waits for the pool, and rows the pool is classifying. */
  reading(): QueueReading {
    const oldest = this.waiting.values().next();
    return {
      queued: this.waiting.size,
      running: this.running,
      threads: this.options.threads,
      bound: this.options.queueMax,
      room: this.room,
      oldest_wait_ms: waitedMs(oldest.done ? undefined : oldest.value.since),
    };
  }

  /** Classifies one text; the caller checks `room` first (a full stage refuses rather than buffers). */
  detect(text: string): Promise<DetectOutcome> {
    if (this.room === 0) return Promise.reject(new Error(`the detect stage holds ${this.options.queueMax} texts already`));
    const wait = { since: waitStart() };
    this.waiting.add(wait);
    return this.tasks.add(async () => {
      this.waiting.delete(wait);
      this.running += 1;
      try {
        return (await this.pool.run({ target: this.options.target, text } satisfies DetectTask)) as DetectOutcome;
      } finally {
        this.running -= 1;
      }
    }) as Promise<DetectOutcome>;
  }

  /** Lets the rows already handed on finish, then stops the pool. */
  async close(): Promise<void> {
    await this.tasks.onIdle();
    await this.pool.destroy();
  }
}
