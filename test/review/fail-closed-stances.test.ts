import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeModelServer, modelEnv } from '../harness/fake-model-server.js';
import { useGate } from '../harness/use-gate.js';

/**
 * Every configured stance is required: in an auto space whose one stance is answered by a
 * real (loopback) model server that fails and the other by the local reviewer, a row the
 * answering stance approves is never promoted; it waits with reviewer_unavailable naming
 * the failed stance and how it failed, then retry_exhausted, and is promoted only once the
 * failed stance answers approve.
 */
const FAILURES: Array<[marker: string, failure: string]> = [
  ['500', 'http'],
  ['slow', 'timeout'],
  ['malformed', 'malformed'],
  ['refuse', 'refused'],
  ['401', 'credential'],
];

const WORDS = ['amber', 'basalt', 'cedar', 'delta', 'ember', 'fjord', 'garnet', 'harbor', 'indigo', 'juniper', 'kelp', 'lichen'];
let n = 0;
/** A claim of its own words, so the local reviewer never finds it restating another row. */
function distinct(marker = ''): string {
  n += 1;
  const pick = (i: number) => WORDS[(n * 5 + i * 3) % WORDS.length];
  return `Survey ${n}-${Date.now().toString(36)}: the ${pick(1)} quarry ships ${pick(2)} slabs to the ${pick(3)} depot every ${n + 2} days, batch ${Math.random().toString(36).slice(2, 10)}. ${marker}`;
}

for (const remote of ['positive', 'critical'] as const) {
  const local = remote === 'positive' ? 'critical' : 'positive';
  describe(`the ${remote} stance on a failing backend, the ${local} stance on the local reviewer`, () => {
    let server: FakeModelServer;

    beforeAll(async () => {
      server = await new FakeModelServer().start();
      server.slowMs = 4_000;
    });
    afterAll(async () => {
      await server?.stop();
    });
    const { gate, keys: { agent, reviewer }, ingestId } = useGate({
      kind: 'unit',
      env: () =>
        modelEnv(server, {
          // The circuit is tested on its own; here every failure must reach the backend.
          backend: { circuit_failures: 1000, timeout_ms: 1_500, max_retries: 0 },
          env: {
            GATE_SPACES_MAIN_POLICY: 'auto',
            GATE_REVIEW_STANCES: JSON.stringify({ [remote]: 'fake', [local]: 'local' }),
            GATE_REVIEW_SECOND_OPINION: '',
          },
        }),
      keys: { agent: 'agent', reviewer: 'reviewer' },
    });

    const ingest = (content: string) => ingestId(agent, { content, workarea: 'tests/fail-closed', source_uri: 'https://example.org/survey' });
    const gradePending = async () => {
      const r = await gate.rpc(reviewer.key, 'gv.grade_pending', { limit: 1000 });
      expect(r.error, JSON.stringify(r.error)).toBeUndefined();
      return r.result;
    };
    const approval = async (id: string) => (await gate.rpc(reviewer.key, 'gv.approval', { artifact_id: id })).result;
    const queued = async (id: string) => {
      const q = (await gate.rpc(reviewer.key, 'gv.review', { cap: 500 })).result;
      return q.items.find((r: any) => r.artifact_id === id);
    };

    it('a row both stances approve is promoted (the control)', async () => {
      const id = await ingest(distinct());
      await gradePending();
      expect((await approval(id)).status).toBe('ai_approved');
      expect((await gate.rpc(reviewer.key, 'gv.status', { artifact_id: id })).result.state).toBe('ACTIVE');
    });

    it(`each way the ${remote} stance can fail leaves the row waiting, naming the stance and the failure`, async () => {
      const ids = await Promise.all(FAILURES.map(([marker]) => ingest(distinct(`[[${marker}@${remote}]]`))));
      await gradePending();
      for (const [i, [, failure]] of FAILURES.entries()) {
        const id = ids[i]!;
        const status = (await gate.rpc(reviewer.key, 'gv.status', { artifact_id: id })).result;
        expect(status.state, `${failure}: ${JSON.stringify(status)}`).not.toBe('ACTIVE');
        const a = await approval(id);
        expect(a.status, failure).toBe('pending');
        expect(a.k_have, failure).toBe(0);
        expect(a.waits_for, failure).toMatchObject({ blocker: 'reviewer_unavailable', stance: remote, failure });
        // The local stance did answer approve; its approval is held back, and says why.
        const model = a.signers.find((s: any) => s.class === 'model');
        expect(model, failure).toMatchObject({ decision: 'approve', counts: false });
        expect(model.why, failure).toContain(remote);
        // The review queue says the same.
        expect(await queued(id), failure).toMatchObject({ waits_for: { blocker: 'reviewer_unavailable', stance: remote, failure } });
      }
    });

    it('a stance that keeps failing is retry_exhausted, and the schedule stops asking it', async () => {
      const id = await ingest(distinct(`[[500@${remote}]]`));
      for (let i = 0; i < 3; i++) await gradePending();
      const a = await approval(id);
      expect(a.waits_for).toMatchObject({ blocker: 'retry_exhausted', stance: remote, failure: 'http' });
      const asked = server.modelCalls().filter((c) => c.prompt.includes(id.slice(7, 20)) || c.prompt.includes('[[500@')).length;
      await gradePending();
      expect(server.modelCalls().filter((c) => c.prompt.includes(id.slice(7, 20)) || c.prompt.includes('[[500@')).length).toBe(asked);
      expect((await gate.rpc(reviewer.key, 'gv.status', { artifact_id: id })).result.state).not.toBe('ACTIVE');
    });

    it('once the failed stance answers approve, the next run grades it again and the row is promoted', async () => {
      server.failAll = 500;
      const id = await ingest(distinct());
      await gradePending();
      expect((await approval(id)).waits_for).toMatchObject({ blocker: 'reviewer_unavailable', stance: remote, failure: 'http' });
      expect((await gate.rpc(reviewer.key, 'gv.status', { artifact_id: id })).result.state).not.toBe('ACTIVE');
      server.failAll = null;
      await gradePending();
      expect((await gate.rpc(reviewer.key, 'gv.status', { artifact_id: id })).result.state).toBe('ACTIVE');
      // Two models (the backend's and the local reviewer) now approve, each counting once.
      expect((await approval(id)).k_have).toBe(2);
    });
  });
}

describe('a model-reviewed space', () => {
  let server: FakeModelServer;

  beforeAll(async () => {
    server = await new FakeModelServer().start();
  });
  afterAll(async () => {
    await server?.stop();
  });
  const { gate, keys: { agent, person } } = useGate({
    kind: 'unit',
    env: () =>
      modelEnv(server, {
        backend: { circuit_failures: 1000, max_retries: 0 },
        env: { GATE_SPACES_MAIN_POLICY: 'model', GATE_REVIEW_STANCES: JSON.stringify({ positive: 'fake', critical: 'local' }), GATE_REVIEW_SECOND_OPINION: '' },
      }),
    keys: { agent: 'agent', person: 'reviewer' },
  });

  it("holds the answering stance's approval back from k there too", async () => {
    const r = await gate.rpc(agent.key, 'gv.ingest', { content: distinct('[[500@positive]]'), workarea: 'tests/fail-closed', kind: 'memory', source_uri: 'https://example.org/survey' });
    const id = r.result.artifact_id as string;
    await gate.rpc(person.key, 'gv.grade_pending', { limit: 100 });
    const a = (await gate.rpc(person.key, 'gv.approval', { artifact_id: id })).result;
    expect(a).toMatchObject({ k_have: 0, waits_for: { blocker: 'reviewer_unavailable', stance: 'positive', failure: 'http' } });
    expect(a.signers.find((s: any) => s.class === 'model')).toMatchObject({ decision: 'approve', counts: false });
  });
});
