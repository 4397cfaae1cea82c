import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { WORKER_NICE_STEPS } from '../../dist/workers/thread-priority.js';
import { useGate } from '../harness/use-gate.js';

/** Each thread of `pid` with its niceness (field 19 of /proc/<pid>/task/<tid>/stat, after the parenthesised name). */
function threadNiceness(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(Number(tid), Number(fields[16]));
  }
  return out;
}

const { gate } = useGate();

describe.runIf(process.platform === 'linux')("the gate's worker threads", () => {
  it('run below the main thread, which keeps the priority the gate was started with', async () => {
    const agent = await gate.key('agent');
    // An ingest uses the scan and embed pools; the checkpoint thread runs from the start.
    const answer = await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText('priority'), workarea: 'tests/priority', kind: 'memory', source_uri: 'test://priority' });
    expect(answer.error).toBeUndefined();
    expect(answer.result.state).toBe('L1_SCANNED');
    const base = threadNiceness(process.pid).get(process.pid)!;
    const lowered = (threads: Map<number, number>) => [...threads.values()].filter((n) => n === Math.min(19, base + WORKER_NICE_STEPS)).length;
    // Scan, embed and checkpoint threads at least (a pool's thread lowers itself as it starts).
    await vi.waitFor(() => expect(lowered(threadNiceness(gate.pid))).toBeGreaterThanOrEqual(3), { timeout: 10_000, interval: 100 });
    const threads = threadNiceness(gate.pid);
    expect(threads.get(gate.pid), 'the main thread').toBe(base);
    expect(lowered(threads)).toBeGreaterThanOrEqual(3);
    // The signing thread, V8's platform threads and libuv's pool (the WAL's fdatasync) keep the gate's priority.
    expect([...threads.values()].filter((n) => n === base).length).toBeGreaterThanOrEqual(6);
  });
});
