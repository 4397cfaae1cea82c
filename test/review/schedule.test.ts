import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { UnitGate } from '../harness/unit-gate.js';
import { FakeModelServer, modelEnv } from '../harness/fake-model-server.js';

const started: UnitGate[] = [];
let server: FakeModelServer | undefined;
const outside: string[] = [];
afterAll(async () => {
  // Last opened, first stopped: each unit gate restores the environment it found.
  for (const g of started.reverse()) await g.stop();
  await server?.stop();
  for (const dir of outside) rmSync(dir, { recursive: true, force: true });
});

/** Polls until `check` holds; the answer it waited for, or a failure naming what was last seen. */
async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  let last: T = await read();
  while (!check(last)) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen; last seen ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 100));
    last = await read();
  }
  return last;
}

describe('[review].grade_every in a serving gate', () => {
  it('grades held rows on its own and settles auto spaces; operators watch it in gv.review_runs', async () => {
    const gate = await UnitGate.open({ env: { GATE_REVIEW_GRADE_EVERY: '300ms' } });
    started.push(gate);
    const agent = await gate.key('agent');
    const reviewer = await gate.key('reviewer');
    const row = await gate.rpc(agent.key, 'gv.ingest', {
      content: `Scheduled grading: the ${Date.now().toString(36)} relay forwards audit logs nightly to the archive bucket.`,
      workarea: 'tests/schedule',
      kind: 'memory',
      source_uri: 'https://example.org/relay',
    });
    const id = row.result.artifact_id;
    await until(async () => (await gate.rpc(agent.key, 'gv.status', { artifact_id: id })).result.state, (s) => s === 'ACTIVE', 'scheduled promotion');
    // The run counts itself once it has settled everything, a moment after this promotion.
    const runs = { result: await until(async () => (await gate.rpc(reviewer.key, 'gv.review_runs', {})).result, (r) => r.detail.schedule.runs >= 1, 'the run finished') };
    expect(runs.result.detail.schedule).toMatchObject({ every_ms: 300, last_error: null });
    expect(runs.result.detail.schedule.runs).toBeGreaterThanOrEqual(1);
    expect(runs.result.counts.completed).toBeGreaterThanOrEqual(2);
    const promote = (await gate.rpc(agent.key, 'gv.why', { artifact_id: id })).result.events.find((e: any) => e.type === 'promote');
    expect(promote.by).toBeNull();
  });

  it('never overlaps itself: a tick that finds a run going is skipped and counted', async () => {
    server = await new FakeModelServer().start();
    server.slowMs = 2_000;
    const gate = await UnitGate.open({ env: modelEnv(server, { backend: { timeout_ms: 5_000 }, env: { GATE_REVIEW_GRADE_EVERY: '200ms' } }) });
    started.push(gate);
    const agent = await gate.key('agent');
    const reviewer = await gate.key('reviewer');
    await gate.rpc(agent.key, 'gv.ingest', { content: `${uniqueText('slow')} [[slow]]`, workarea: 'tests/schedule', kind: 'memory', source_uri: 's' });
    const schedule = await until(
      async () => (await gate.rpc(reviewer.key, 'gv.review_runs', {})).result,
      // The run counts itself after settling, a moment after its reviews are journaled.
      (r) => r.detail.schedule.overlaps_skipped >= 2 && r.counts.completed + r.counts.failed >= 2 && r.detail.schedule.runs >= 1,
      'a skipped tick and the slow run journaled and finished',
    );
    // One run at a time: the slow row was asked once per stance, not once per tick.
    expect(server.modelCalls().filter((c) => c.prompt.includes('[[slow]]')).length).toBe(2);
    expect(schedule.counts.completed + schedule.counts.failed).toBe(2);
    expect(schedule.detail.schedule.runs).toBeGreaterThanOrEqual(1);
  });
});

describe('gv.grade from the socket', () => {
  it('is refused to a socket peer outside a test home', async () => {
    // The gate's temporary directory (TMPDIR) is elsewhere than its home, wherever the
    // checkout lives: the home is then not a test home.
    const elsewhere = mkdtempSync(join(tmpdir(), 'gate-elsewhere-'));
    outside.push(elsewhere);
    const gate = await UnitGate.open({ env: { TMPDIR: elsewhere } });
    started.push(gate);
    const agent = await gate.key('agent');
    const row = await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText('outside'), workarea: 'tests/schedule', kind: 'memory', source_uri: 's' });
    const refused = await gate.socket('gv.grade', { artifact_id: row.result.artifact_id });
    expect(refused.error).toMatchObject({ code: -32602, data: { reason: 'socket_peer' } });
    const reviewer = await gate.key('reviewer');
    expect((await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: row.result.artifact_id })).error).toBeUndefined();
  });
});
