import { Piscina } from 'piscina';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { POOL_EXEC_ARGV } from './pool-exec-argv.js';

/**
 * The one place the gate makes threads (docs/architecture.md#parts-with-a-life): a Piscina
 * pool for tasks of untrusted bytes or network calls, and a single Worker for the journal's
 * and the indexes' own threads. Every pool's threads get POOL_EXEC_ARGV (src/pool-exec-argv.ts);
 * each caller states its thread counts, idle timeout and limits, which are its own decisions.
 */
export interface PoolOptions {
  /** The worker's entry (workers/<name>/pool-entry.js). */
  entry: URL;
  minThreads: number;
  maxThreads: number;
  /** How long an idle thread above minThreads lives, ms (Infinity: it stays). */
  idleTimeout: number;
  /** Tasks one thread runs at once (Piscina's default is 1). */
  concurrentTasksPerWorker?: number;
  resourceLimits?: { maxOldGenerationSizeMb: number };
  /** Handed to every thread of the pool at its start. */
  workerData?: unknown;
}

/** A Piscina pool with the gate's thread flags. */
export function newPool(options: PoolOptions): Piscina {
  return new Piscina({
    filename: options.entry.href,
    execArgv: [...POOL_EXEC_ARGV],
    minThreads: options.minThreads,
    maxThreads: options.maxThreads,
    idleTimeout: options.idleTimeout,
    ...(options.concurrentTasksPerWorker === undefined ? {} : { concurrentTasksPerWorker: options.concurrentTasksPerWorker }),
    ...(options.resourceLimits === undefined ? {} : { resourceLimits: options.resourceLimits }),
    ...(options.workerData === undefined ? {} : { workerData: options.workerData }),
  });
}

/**
 * One thread of the gate's own (workers/<name>/thread-entry.js), with the parent's flags as
 * Node passes them by default; the caller wires its messages and stops it (src/stop-thread.ts).
 */
export function newThread(entry: URL, options: Pick<WorkerOptions, 'workerData' | 'transferList'>): Worker {
  return new Worker(entry, options);
}
