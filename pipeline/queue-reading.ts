/**
 * What one pipeline stage holds at a moment (gv.queues). Items are the stage's own unit
 * (claims, uploads, archives, model calls, rows), counted one by one even where they travel
 * to the pool in batches.
 */
export interface QueueReading {
  /** Items waiting for a worker. */
  queued: number;
  /** Items a worker holds now (or, for the embed stage, whose vectors wait for their write). */
  running: number;
  /** Worker threads of the stage's pool. */
  threads: number;
  /** Most items the stage takes in before it refuses the next -32006; null where its callers bound it. */
  bound: number | null;
  /** Items it takes before that refusal, now; null with no bound of its own. */
  room: number | null;
  /** How long the item waiting longest has waited, ms; null when nothing waits. */
  oldest_wait_ms: number | null;
}

/**
 * A wait's start on the monotonic clock: an age is a duration, which the wall clock (the
 * gate's injected one, which a test may stop or move) would misstate.
 */
export const waitStart = (): number => performance.now();

/** The age of a wait that began at `since` (a waitStart), or null when none waits. */
export function waitedMs(since: number | undefined): number | null {
  return since === undefined ? null : Math.max(0, Math.round(performance.now() - since));
}
