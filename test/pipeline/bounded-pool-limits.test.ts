import { afterEach, describe, expect, it } from 'vitest';
import { BoundedPool } from '../../dist/pipeline/bounded-pool.js';
import { TaskOverrun } from '../../dist/pipeline/task-overrun.js';

// A real worker that overruns on request (fixtures/workers/overrunning-task.js): the pool's
// deadline and heap limit must end the worker, refuse its task by name, and leave the pool
// serving the next task on a fresh worker.
const entry = new URL('../../fixtures/workers/overrunning-task.js', import.meta.url);
let pool: BoundedPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

const make = (options: { threads?: number; deadlineMs?: number; heapMb?: number }) =>
  (pool = new BoundedPool(entry, { threads: 1, queueMax: 16, retryAfterMs: 1000, ...options }));

async function overrun(work: Promise<unknown>): Promise<TaskOverrun> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TaskOverrun);
  return error as TaskOverrun;
}

describe('the bounded pool ends a task that overruns, and keeps serving', () => {
  it('a synchronous loop past the deadline: its worker is terminated, the task refused "deadline", the next task served', async () => {
    const p = make({ deadlineMs: 300 });
    const start = performance.now();
    // The deadline ended it (its limit says so), not early; a spin never ended fails as the test's timeout.
    expect((await overrun(p.run({ mode: 'spin' }, []))).limit).toBe('deadline');
    expect(performance.now() - start).toBeGreaterThanOrEqual(290);
    expect(await p.run({ mode: 'fine' }, [])).toBe('done: fine');
  });

  it('a task queued behind a hostile one waits at most that one\'s deadline, and its own deadline counts its own running time', async () => {
    const p = make({ deadlineMs: 400 });
    const settled: string[] = [];
    const hostile = overrun(p.run({ mode: 'spin' }, [])).finally(() => settled.push('hostile'));
    // Queued 0.4 s behind the spin: were the deadline counted from submission, this would be refused too.
    const clean = await p.run({ mode: 'behind' }, []);
    settled.push('clean');
    expect(clean).toBe('done: behind');
    // It waited for the hostile task's deadline to end that one (its one thread), no longer: a spin
    // never ended would hold it until the test's timeout. Not timed (test/README.md, "Waiting").
    expect((await hostile).limit).toBe('deadline');
    expect(settled).toEqual(['hostile', 'clean']);
  });

  it('a heap that grows past heapMb: the worker dies of it, the task refused "memory", the gate process unharmed', async () => {
    const p = make({ heapMb: 32, deadlineMs: 20_000 });
    const before = process.memoryUsage().rss;
    expect((await overrun(p.run({ mode: 'allocate' }, []))).limit).toBe('memory');
    expect(await p.run({ mode: 'after' }, [])).toBe('done: after');
    // The worker's heap went with it (allow for the fresh worker and allocator slack).
    expect(process.memoryUsage().rss - before).toBeLessThan(150 * 1024 * 1024);
  });

  it('a worker that exits under its task: refused "worker_exit", the next task served', async () => {
    const p = make({ deadlineMs: 5_000 });
    expect((await overrun(p.run({ mode: 'exit' }, []))).limit).toBe('worker_exit');
    expect(await p.run({ mode: 'next' }, [])).toBe('done: next');
  });
});
