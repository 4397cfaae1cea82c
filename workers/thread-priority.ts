import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { isMainThread } from 'node:worker_threads';

/**
 * How much lower than the gate's own priority its worker threads run (scan, embed, grade,
 * image and bundle pools, the checkpoint thread; not the signing thread, whose signatures the
 * group commit needs before COMMIT, else it signs them itself). The main thread holds the
 * journal, the group commit and every socket: when the two cores are contended, a worker
 * that takes the core from it stalls every request in flight, while a worker that waits a
 * little delays only its own batch. Measured on bench/ingest.js (15,000-20,000 claims,
 * alternated with the same build unniced): 5 pairs of 5 faster, +1% to +16%.
 *
 * Niceness shares a contended core, it does not starve: under CFS a thread 10 steps lower
 * still gets ~10% of a core against each busy thread at the gate's priority, and a scanner
 * that falls behind fills the scan queue, whose bound refuses new claims (-32006) rather
 * than letting waits grow.
 */
export const WORKER_NICE_STEPS = 10;

/** The calling thread's Linux thread id (gettid), from /proc/thread-self; null where there is none. */
function threadId(): number | null {
  if (process.platform !== 'linux') return null;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/**
 * Lowers the calling worker thread's priority by WORKER_NICE_STEPS below where it is (at
 * most 19), on Linux, where setpriority on a thread id applies to that thread alone. True
 * when lowered; on the main thread (an entry imported in process, as a test may), elsewhere,
 * or when refused, the thread keeps its priority.
 */
export function lowerThisThread(steps: number = WORKER_NICE_STEPS): boolean {
  if (isMainThread) return false;
  const tid = threadId();
  if (tid === null) return false;
  try {
    setPriority(tid, Math.min(19, getPriority(tid) + steps));
    return true;
  } catch {
    return false;
  }
}
