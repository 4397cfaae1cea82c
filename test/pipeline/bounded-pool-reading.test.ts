import { afterEach, describe, expect, it } from 'vitest';
import { BoundedPool } from '../../dist/pipeline/bounded-pool.js';

// The image and bundle stages' queues as gv.queues reads them (their BoundedPool). Each
// reading is taken before the event loop turns again, so no task can start or end between
// the calls and the reading: the counts are exact, not a race.
const entry = new URL('../../fixtures/workers/overrunning-task.js', import.meta.url);
let pool: BoundedPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

/** Holds the thread (and so the event loop) for `ms`, so a wait ages by at least that much. */
const busyFor = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe("a bounded pool's reading", () => {
  it('counts tasks on a thread and waiting for one, ages the oldest wait, and its room is what the bound still takes', async () => {
    pool = new BoundedPool(entry, { threads: 1, queueMax: 3, retryAfterMs: 1000 });
    expect(pool.reading()).toEqual({ queued: 0, running: 0, threads: 1, bound: 3, room: 3, oldest_wait_ms: null });
    const tasks = [pool.run({ mode: 'first' }, []), pool.run({ mode: 'second' }, []), pool.run({ mode: 'third' }, [])];
    busyFor(25);
    const full = pool.reading();
    expect(full).toMatchObject({ queued: 2, running: 1, threads: 1, bound: 3, room: 0 });
    expect(full.oldest_wait_ms).toBeGreaterThanOrEqual(25);
    // No room: the next task is refused -32006 rather than queued.
    await expect(pool.run({ mode: 'fourth' }, [])).rejects.toMatchObject({ code: -32006 });
    expect(await Promise.all(tasks)).toEqual(['done: first', 'done: second', 'done: third']);
    expect(pool.reading()).toEqual({ queued: 0, running: 0, threads: 1, bound: 3, room: 3, oldest_wait_ms: null });
  });
});
