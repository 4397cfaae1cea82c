import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueText, type RpcAnswer } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';
import { FakeModelServer, modelEnv } from '../harness/fake-model-server.js';

// gv.queues reads each pipeline stage's queue. The scan worker is slowed (the
// `scan-worker-stalls` failpoint holds each batch 2 s), runs one thread a lane and takes one claim a batch, so a
// burst of ingests waits in the scan queue long enough to be read, on a machine of any load.

const SCAN_QUEUE = 40;
const BURST = 4;

type Stage = { stage: string; unit: string; queued: number; running: number; threads: number; bound: number | null; room: number | null; oldest_wait_ms: number | null };
const stageOf = (answer: RpcAnswer, name: string): Stage => answer.result.stages.find((s: Stage) => s.stage === name);

/** Reads gv.queues until `seen` holds for an answer (each checked by `every` on the way), or fails after `ms`. */
async function readUntil(read: () => Promise<RpcAnswer>, seen: (a: RpcAnswer) => boolean, every: (a: RpcAnswer) => void = () => undefined, ms = 60_000): Promise<RpcAnswer> {
  const end = Date.now() + ms;
  for (;;) {
    const answer = await read();
    expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
    every(answer);
    if (seen(answer)) return answer;
    if (Date.now() > end) throw new Error(`gv.queues never showed what was awaited; last: ${JSON.stringify(answer.result)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('gv.queues: the scan queue of a slowed scanner', () => {
  const { gate, keys: { agent, reviewer } } = useGate({
    kind: 'unit',
    env: { GATE_FAILPOINTS: 'scan-worker-stalls', GATE_SCAN_BATCH_MAX: '1', GATE_SCAN_THREADS: '1', GATE_QUARANTINE_SCAN_QUEUE: String(SCAN_QUEUE), GATE_QUARANTINE_MAX_DEPTH: '1000' },
    keys: { agent: 'agent', reviewer: 'reviewer' },
  });
  const queues = () => gate.rpc(reviewer.key, 'gv.queues', {});

  it('is a reviewer read: an agent is refused naming both roles', async () => {
    const refused = await gate.rpc(agent.key, 'gv.queues', {});
    expect(refused.error?.code).toBe(-32602);
    expect(refused.error?.message).toMatch(/reviewer/);
    expect(refused.error?.message).toMatch(/agent/);
  });

  it('an idle gate: every stage empty, each with its threads and bound, the quarantine against max_depth', async () => {
    const idle = await queues();
    expect(idle.result.stages.map((s: Stage) => [s.stage, s.unit])).toEqual([
      ['scan', 'claims'],
      ['image', 'uploads'],
      ['bundle', 'archives'],
      ['grade', 'model calls'],
      ['embed', 'rows'],
    ]);
    // The scan stage runs two lanes (small claims, and claims of 64 KiB or more) of scan.threads each.
    for (const s of idle.result.stages as Stage[]) {
      expect(s, s.stage).toMatchObject({ queued: 0, running: 0, threads: s.stage === 'scan' ? 2 : 1, oldest_wait_ms: null });
    }
    // Scan, image and bundle refuse -32006 past quarantine.scan_queue; grade and embed are bounded by their callers.
    for (const name of ['scan', 'image', 'bundle']) expect(stageOf(idle, name), name).toMatchObject({ bound: SCAN_QUEUE, room: SCAN_QUEUE });
    for (const name of ['grade', 'embed']) expect(stageOf(idle, name), name).toMatchObject({ bound: null, room: null });
    expect(idle.result.quarantine).toEqual({ held: 0, max_depth: 1000, room: 1000 });
  });

  it('a burst of ingests waits in the scan queue: counted one by one, aging, then drained into the quarantine', async () => {
    const ingests = Array.from({ length: BURST }, (_, i) =>
      gate.rpc(agent.key, 'gv.ingest', { content: `${uniqueText('queued')} #${i}`, kind: 'memory', workarea: 'queues/burst', source_uri: 'test://queues' }),
    );
    // One thread, one claim a batch: never more than one claim scanning, and what the bound counts is what waits.
    const every = (a: RpcAnswer) => {
      const scan = stageOf(a, 'scan');
      expect(scan.running).toBeLessThanOrEqual(1);
      expect(scan.queued + scan.running).toBeLessThanOrEqual(BURST);
      expect(scan.room).toBe(SCAN_QUEUE - scan.queued);
      expect(scan.oldest_wait_ms === null).toBe(scan.queued === 0);
    };
    const waiting = await readUntil(queues, (a) => stageOf(a, 'scan').queued > 0 && stageOf(a, 'scan').running === 1, every);
    expect(stageOf(waiting, 'scan').oldest_wait_ms).toBeGreaterThanOrEqual(0);
    // The last claim waits behind the others' 2 s holds: its age is read growing past a second.
    await readUntil(queues, (a) => (stageOf(a, 'scan').oldest_wait_ms ?? 0) >= 1000, every);

    const answers = await Promise.all(ingests);
    for (const a of answers) expect(a.result?.state, JSON.stringify(a.error)).toBe('L1_SCANNED');
    const drained = await readUntil(queues, (a) => stageOf(a, 'scan').running === 0 && stageOf(a, 'embed').queued + stageOf(a, 'embed').running === 0);
    expect(stageOf(drained, 'scan')).toMatchObject({ queued: 0, running: 0, room: SCAN_QUEUE, oldest_wait_ms: null });
    expect(drained.result.quarantine).toEqual({ held: BURST, max_depth: 1000, room: 1000 - BURST });
  });
});

describe('gv.queues: the grade stage while a grading run waits on a slow model', () => {
  let server: FakeModelServer;
  const ROWS = 2;

  beforeAll(async () => {
    server = await new FakeModelServer().start();
    server.slowMs = 1_500;
  });
  afterAll(async () => {
    await server?.stop();
  });
  const { gate, keys: { agent, reviewer } } = useGate({
    kind: 'unit',
    env: () => modelEnv(server, { backend: { timeout_ms: 30_000, max_retries: 0 }, env: { GATE_REVIEW_CONCURRENCY: '1' } }),
    keys: { agent: 'agent', reviewer: 'reviewer' },
  });

  it('model calls are counted queued and running, bounded by the concurrency, and age while they wait', async () => {
    for (let i = 0; i < ROWS; i++) {
      const a = await gate.rpc(agent.key, 'gv.ingest', { content: `${uniqueText('graded')} [[slow]]`, kind: 'memory', workarea: 'queues/grade', source_uri: 'test://queues' });
      expect(a.result?.state, JSON.stringify(a.error)).toBe('L1_SCANNED');
    }
    const queues = () => gate.rpc(reviewer.key, 'gv.queues', {});
    const run = gate.rpc(reviewer.key, 'gv.grade_pending', { limit: ROWS });
    // Two stances a row, one call in flight at a time (review.concurrency 1), each answered after 1.5 s.
    const every = (a: RpcAnswer) => {
      const grade = stageOf(a, 'grade');
      expect(grade.running).toBeLessThanOrEqual(1);
      expect(grade.queued + grade.running).toBeLessThanOrEqual(ROWS * 2);
      expect(grade).toMatchObject({ threads: 1, bound: null, room: null });
    };
    await readUntil(queues, (a) => stageOf(a, 'grade').running === 1 && stageOf(a, 'grade').queued > 0 && (stageOf(a, 'grade').oldest_wait_ms ?? 0) >= 500, every);
    const graded = await run;
    expect(graded.error, JSON.stringify(graded.error)).toBeUndefined();
    expect(graded.result.graded).toBe(ROWS);
    expect(stageOf(await queues(), 'grade')).toMatchObject({ queued: 0, running: 0, oldest_wait_ms: null });
  });
});
