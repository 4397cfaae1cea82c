import type { Piscina } from 'piscina';
import type PQueue from 'p-queue';
import type { BackendCheck, GradeCall, GradeOutcome, GradeTask } from '../workers/grade/grade-task.js';
import type { GradeBackend } from '../workers/grade/backend.js';
import { waitedMs, waitStart, type QueueReading } from './queue-reading.js';
import { networkPool } from './network-pool.js';

export interface GradeStageOptions {
  threads: number;
  /** Pool tasks in flight at once; a remote call is one task, so this bounds model calls in flight. */
  concurrency: number;
  /** Most local-reviewer calls in one task (a pool round trip costs about as much as one local review). */
  batchMax: number;
}

interface Waiting {
  call: GradeCall;
  onStart: () => void;
  /** When it joined the queue (waitStart). */
  since: number;
  resolve: (o: GradeOutcome) => void;
  reject: (e: unknown) => void;
}

/**
 * The grade stage: reviewer calls go to the Piscina grade pool. Remote calls travel one
 * per task, since each waits on the network, with up to `concurrency` in flight; local
 * calls arriving in the same turn travel together in batches. Calls wait in a queue the
 * callers bound (grading takes at most a limit of rows at a time).
 */
export class GradeStage {
  private readonly pool: Piscina;
  private readonly tasks: PQueue;
  private local: Waiting[] = [];
  private localQueued = false;
  /** Calls not yet handed to the pool, in arrival order: the first is the one waiting longest. */
  private readonly queued = new Set<Waiting>();
  /** Calls the pool holds now. */
  private running = 0;

  constructor(private readonly options: GradeStageOptions) {
    // Started on the first call: a gate that never grades (or not yet) spends nothing on the pool.
    ({ pool: this.pool, tasks: this.tasks } = networkPool(new URL('../workers/grade/pool-entry.js', import.meta.url), options.threads, options.concurrency));
  }

  /** Calls waiting for the pool or in it. */
  get depth(): number {
    return this.local.length + this.tasks.size + this.tasks.pending;
  }

  /** gv.queues: reviewer calls waiting and in the pool; callers bound how many they queue. */
  reading(): QueueReading {
    const oldest = this.queued.values().next();
    return {
      queued: this.queued.size,
      running: this.running,
      threads: this.options.threads,
      bound: null,
      room: null,
      oldest_wait_ms: waitedMs(oldest.done ? undefined : oldest.value.since),
    };
  }

  /** One reviewer call; `onStart` runs when it leaves the queue for the pool. */
  run(call: GradeCall, onStart: () => void = () => undefined): Promise<GradeOutcome> {
    return new Promise<GradeOutcome>((resolve, reject) => {
      const waiting: Waiting = { call, onStart, since: waitStart(), resolve, reject };
      this.queued.add(waiting);
      if (call.backend.kind === 'local') {
        this.local.push(waiting);
        this.scheduleLocal();
      } else {
        void this.tasks.add(() => this.send([waiting]));
      }
    });
  }

  private scheduleLocal(): void {
    if (this.localQueued) return;
    this.localQueued = true;
    setImmediate(() => {
      this.localQueued = false;
      while (this.local.length > 0) {
        const batch = this.local.splice(0, this.options.batchMax);
        void this.tasks.add(() => this.send(batch));
      }
    });
  }

  private async send(batch: Waiting[]): Promise<void> {
    for (const w of batch) {
      this.queued.delete(w);
      w.onStart();
    }
    this.running += batch.length;
    try {
      const task: GradeTask = { type: 'grade', calls: batch.map((w) => w.call) };
      const outcomes = (await this.pool.run(task)) as GradeOutcome[];
      batch.forEach((w, i) => w.resolve(outcomes[i]!));
    } catch (error) {
      for (const w of batch) w.reject(error);
    } finally {
      this.running -= batch.length;
    }
  }

  /** gv.backend_check's probe, run in the pool like every other backend request. */
  check(backend: GradeBackend): Promise<BackendCheck> {
    return this.tasks.add(() => this.pool.run({ type: 'check', backend } satisfies GradeTask) as Promise<BackendCheck>) as Promise<BackendCheck>;
  }

  /** Lets the calls already queued finish, then stops the pool. */
  async close(): Promise<void> {
    while (this.local.length > 0 || this.localQueued) await new Promise((r) => setImmediate(r));
    await this.tasks.onIdle();
    await this.pool.destroy();
  }
}
