/**
 * A pool task's start, marked by the worker in memory the main thread shares: a deadline
 * counts the task's own running time, not the seconds a fresh worker spends loading its
 * modules (sharp, file-type) on a busy machine before it can take the task.
 */
export function markStarted(startedAt: BigInt64Array | undefined): void {
  if (startedAt !== undefined) Atomics.store(startedAt, 0, BigInt(Date.now()));
}
