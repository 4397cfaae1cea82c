import type { Piscina } from 'piscina';
import PQueue from 'p-queue';
import { newPool } from '../src/threads.js';

/**
 * A pool whose tasks mostly wait on the network (a model server, a classifier): its threads
 * start on the first task, so a gate that never calls out spends nothing on them, and each
 * thread carries several requests at once; `concurrency` bounds the requests in flight.
 */
export function networkPool(entry: URL, threads: number, concurrency: number): { pool: Piscina; tasks: PQueue } {
  const pool = newPool({
    entry,
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: Infinity,
    concurrentTasksPerWorker: Math.max(1, Math.ceil(concurrency / threads)),
  });
  return { pool, tasks: new PQueue({ concurrency }) };
}
