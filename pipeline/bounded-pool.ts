import type { Piscina } from 'piscina';
import { quarantineFull } from '../src/gate-error.js';
import { TaskOverrun } from './task-overrun.js';
import { waitedMs, waitStart, type QueueReading } from './queue-reading.js';
import { newPool } from '../src/threads.js';

/** How long a fresh worker may take to load its modules (sharp, file-type) before its first task counts as overrun. */
const WORKER_START_MAX_MS = 30_000;

export interface BoundedPoolOptions {
  threads: number;
  /** Most tasks waiting for or in the pool; past it the caller is refused -32006. */
  queueMax: number;
  retryAfterMs: number;
  /**
   * Longest a task may run once its worker starts it (the entry calls `markStarted` on the
   * task's `startedAt`); past it the worker is terminated. None: no deadline.
   */
  deadlineMs?: number;
  /** Most V8 old-generation heap a worker may use, MiB; past it the worker dies and its task fails. */
  heapMb?: number;
}

/**
 * A Piscina pool for large units of untrusted bytes (an archive, an image): one task per
 * unit, a bounded number waiting, and a refusal (-32006 with retry_after_ms) rather than
 * an unbounded queue when callers outrun it.
 *
 * Tasks wait here, not in Piscina's queue, and go to Piscina only when a thread is free:
 * so a deadline counts a task's own running time, never the time it queued behind a
 * hostile one, and a task behind one that overran waits at most that one's deadline.
 */
export class BoundedPool {
  private readonly pool: Piscina;
  /** Tasks taken in and not yet answered: those waiting for a thread and those on one. */
  private waiting = 0;
  private running = 0;
  /** Tasks waiting for a thread, oldest first, each with when it began to wait. */
  private readonly slots: Array<{ go: () => void; since: number }> = [];

  constructor(
    entry: URL,
    private readonly options: BoundedPoolOptions,
  ) {
    this.pool = newPool({
      entry,
      // Started on first use and stopped when idle: a gate that never sees an archive or an
      // image carries no thread (nor sharp's libraries) for them.
      minThreads: 0,
      maxThreads: options.threads,
      idleTimeout: 30_000,
      ...(options.heapMb === undefined ? {} : { resourceLimits: { maxOldGenerationSizeMb: options.heapMb } }),
    });
    // A worker that dies with no task on it is emitted as 'error'; unheard, that would end the gate.
    this.pool.on('error', () => {});
  }

  async run<R>(task: object, transferList: ArrayBuffer[]): Promise<R> {
    if (this.waiting >= this.options.queueMax) throw quarantineFull(this.options.retryAfterMs);
    this.waiting++;
    try {
      await this.slot();
      try {
        return await this.runNow<R>(task, transferList);
      } finally {
        this.release();
      }
    } finally {
      this.waiting--;
    }
  }

  /** gv.queues: tasks waiting for a thread and on one; the bound counts both. */
  reading(): QueueReading {
    return {
      queued: this.slots.length,
      running: this.running,
      threads: this.options.threads,
      bound: this.options.queueMax,
      room: Math.max(0, this.options.queueMax - this.waiting),
      oldest_wait_ms: waitedMs(this.slots[0]?.since),
    };
  }

  private async runNow<R>(task: object, transferList: ArrayBuffer[]): Promise<R> {
    const { deadlineMs } = this.options;
    if (deadlineMs === undefined) return (await this.pool.run(task, { transferList })) as R;
    const deadline = new AbortController();
    const startedAt = new BigInt64Array(new SharedArrayBuffer(8));
    const handed = Date.now();
    let timer: NodeJS.Timeout | undefined;
    // The deadline runs from the worker's start mark; a worker that never marks it (stuck loading its modules) is ended too.
    const check = () => {
      const started = Number(Atomics.load(startedAt, 0));
      const end = started > 0 ? started + deadlineMs : handed + WORKER_START_MAX_MS + deadlineMs;
      const left = end - Date.now();
      // Aborting a running task makes Piscina terminate its worker: the only way to stop a synchronous loop.
      if (left <= 0) deadline.abort();
      else timer = setTimeout(check, started > 0 ? left : Math.min(left, 100));
    };
    timer = setTimeout(check, deadlineMs);
    try {
      return (await this.pool.run({ ...task, startedAt }, { transferList, signal: deadline.signal })) as R;
    } catch (error) {
      if (deadline.signal.aborted) throw new TaskOverrun('deadline', `the task ran past its deadline of ${deadlineMs} ms`);
      const code = (error as { code?: unknown } | null)?.code;
      if (code === 'ERR_WORKER_OUT_OF_MEMORY') throw new TaskOverrun('memory', `the task went over its worker's heap limit of ${this.options.heapMb} MiB`);
      if (error instanceof Error && /^worker exited with code/.test(error.message)) throw new TaskOverrun('worker_exit', error.message);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  private slot(): Promise<void> {
    if (this.running < this.options.threads) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((go) => this.slots.push({ go, since: waitStart() }));
  }

  /** Hands the thread to the next waiting task, or frees it. */
  private release(): void {
    const next = this.slots.shift();
    if (next === undefined) this.running--;
    else next.go();
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}

/** A copy of `bytes` in a buffer of its own, which can be transferred without detaching anything else. */
export function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy.buffer;
}
